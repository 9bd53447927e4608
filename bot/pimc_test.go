package bot

import (
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
)

// A PIMC level's name says its worlds and their iterations, or takes the
// default worlds and the level's budget; it is a search level's option,
// with iterations only.
func TestPIMCNames(t *testing.T) {
	g := games.Named("papayoo")
	for name, want := range map[string][2]int{
		"hard+pimc@16x125":        {16, 2000},
		"hard+pimc@3000":          {DefaultWorlds, 3000},
		"hard+pimc":               {DefaultWorlds, Budgets(g).Hard},
		"normal+pimc@4x10":        {4, 40},
		"hard+belief+pimc@8x100":  {8, 800},
		"hard@2000":               {0, 2000},
		"hard+belief@16x125x":     {-1, 0},
		"hard+pimc@300ms":         {-1, 0},
		"hard+pimc@0x100":         {-1, 0},
		"hard+pimc@16x":           {-1, 0},
		"easy+pimc":               {-1, 0},
		"cheat+pimc@16x125":       {-1, 0},
		"hard@16x125":             {-1, 0},
		"hard+pimc+belief@16x125": {-1, 0},
	} {
		p, err := New(g, name, 0, 1)
		if want[0] < 0 {
			if err == nil || !strings.Contains(err.Error(), "bot:") {
				t.Errorf("%q: accepted (%v)", name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if s := p.(*Search); s.Worlds != want[0] || s.Iterations != want[1] {
			t.Errorf("%q: %d worlds, %d iterations; want %v", name, s.Worlds, s.Iterations, want)
		}
	}
}

// PIMC is the cheating bot's search run on worlds the seat drew: given
// knowledge whose only world is the true state (game.Omniscient), one
// world of N iterations chooses exactly as cheat@N.
func TestPIMCOfTheTrueWorldIsCheat(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			positions := 0
			for seed := uint64(1); seed <= 10; seed++ {
				st, s, told := position(t, g, 4-boolInt(g.Name() == "limits")*2, seed, int(25+seed*3))
				if st == nil {
					continue
				}
				r := game.NewRNG(1)
				if d, ok := st.Sample(s, &r).(game.Determinable); ok && !d.Determinable(s) {
					continue
				}
				p := newTold(t, g, "hard+pimc@1x120", s, seed, told)
				// Single moves: cheat would plan whole turns where the
				// game lists them (Da Capo!).
				p.(*Search).Plans = false
				c := newTold(t, g, "cheat@120", s, seed, told)
				c.(*Search).Plans = false
				a := p.Choose(game.Omniscient(st, s))
				b := c.Choose(game.Omniscient(st, s))
				if a != b {
					t.Fatalf("seed %d: PIMC of the true world chose %v, cheat %v", seed, a, b)
				}
				positions++
			}
			if positions < 5 {
				t.Fatalf("only %d positions", positions)
			}
		})
	}
}

// Papayoo's pass is decided as hard decides it (game.Determinable says no
// there): the same seed and iterations, the same choice; its play is
// PIMC's, which chooses otherwise than hard somewhere.
func TestPIMCOnlyWhereTheGameSays(t *testing.T) {
	g := games.Named("papayoo")
	passes, differed := 0, 0
	for seed := uint64(1); seed <= 16; seed++ {
		st, s, told := position(t, g, 4, seed, int(seed*3))
		r := game.NewRNG(1)
		play := st.Sample(s, &r).(game.Determinable).Determinable(s)
		a := choose(t, g, "hard@160", st, s, told, seed)
		b := choose(t, g, "hard+pimc@8x20", st, s, told, seed)
		switch {
		case !play:
			passes++
			if a != b {
				t.Fatalf("seed %d: at the pass hard chose %v, hard+pimc %v", seed, a, b)
			}
		case a != b:
			differed++
		}
	}
	if passes == 0 || differed == 0 {
		t.Fatalf("%d passes, PIMC differed from hard at %d plays: the test tells nothing", passes, differed)
	}
}

// The same seed, the same worlds, the same move.
func TestPIMCDeterministic(t *testing.T) {
	g := games.Named("papayoo")
	st, s, told := position(t, g, 4, 7, 40)
	first := choose(t, g, "hard+pimc@8x40", st, s, told, 9)
	if !game.Contains(st.Legal(s, nil), first) {
		t.Fatalf("an illegal move %v", first)
	}
	for i := 0; i < 3; i++ {
		if m := choose(t, g, "hard+pimc@8x40", st, s, told, 9); m != first {
			t.Fatalf("same seed and budget gave %v then %v", first, m)
		}
	}
}
