package bot

import (
	"slices"
	"testing"

	"tapis/game"
	"tapis/games"
)

// At Papayoo's pass, hard chooses a whole pass at once among the game's
// plans and plays the rest of it without searching again; at the play it
// searches as hard-plans (the pass card by card) does. The same knowledge
// gives the same pass (TestSearchIsHonest plays hard and hard-plans).
func TestFlatPass(t *testing.T) {
	g := games.Named("papayoo")
	passes := 0
	for seed := uint64(1); seed <= 6; seed++ {
		st, s, told := position(t, g, 4, seed, 0)
		k := game.KnowledgeOf(st.Clone(), s)
		p := newTold(t, g, "hard@40", s, seed, told).(*Search)
		if !p.Flat || !p.Plans {
			t.Fatalf("hard: Flat %v, Plans %v", p.Flat, p.Plans)
		}
		plans, ends := st.(game.Planner).Plans(s, nil, nil)
		m := p.Choose(k)
		var chosen []game.Move
		for i, start := 0, 0; i < len(ends); start, i = ends[i], i+1 {
			if plans[start] == m && slices.Equal(plans[start:ends[i]], p.plan.moves) {
				chosen = plans[start:ends[i]]
			}
		}
		if chosen == nil {
			t.Fatalf("seed %d: chose %v, and %v, not one of the plans", seed, m, p.plan.moves)
		}
		passes++
		// The rest of the pass follows the plan: the moves are the
		// plan's, and the search's generator does not move.
		for _, want := range chosen[1:] {
			if err := st.Apply(s, m, nil); err != nil {
				t.Fatal(err)
			}
			before := p.rng
			m = p.Choose(game.KnowledgeOf(st, s))
			if m != want || p.rng != before {
				t.Fatalf("seed %d: played %v after the plan's first move, want %v without searching", seed, m, want)
			}
		}
		again := newTold(t, g, "hard@40", s, seed, told).(*Search)
		if again.Choose(k) != chosen[0] {
			t.Fatalf("seed %d: the same knowledge and seed chose another pass", seed)
		}
	}
	// At the play, judging passes flat changes nothing.
	for seed := uint64(1); seed <= 4; seed++ {
		st, s, told := position(t, g, 4, seed, 30)
		if choose(t, g, "hard@60", st, s, told, seed) != choose(t, g, "hard-plans@60", st, s, told, seed) {
			t.Fatalf("seed %d: hard played otherwise than hard-plans", seed)
		}
	}
	// Hard judges passes flat, and normal+flat; not hard-plans, normal,
	// nor the cheat, the measure.
	for name, want := range map[string]bool{"hard": true, "hard@300": true, "normal+flat": true,
		"hard-plans": false, "normal": false, "cheat": false, "cheat-future": false} {
		if b, err := New(g, name, 0, 1); err != nil || b.(*Search).Flat != want {
			t.Errorf("%s: Flat is not %v (%v)", name, want, err)
		}
	}
	if _, err := New(g, "cheat+flat", 0, 1); err == nil {
		t.Errorf("cheat+flat was made")
	}
}
