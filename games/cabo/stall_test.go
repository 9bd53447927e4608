package cabo

import (
	"fmt"
	"testing"

	"tapis/bot"
	"tapis/game"
)

// A round nobody calls ends at the bound: once every seat has played
// stallTurns turns, the heuristic, the playout policy and the search all
// call Cabo at the start of their turn, and not one turn before.
func TestOverdueRoundIsCalled(t *testing.T) {
	tb := newTable(t, 2, "", deal([][]int{{13, 13, 12, 12}, {12, 12, 11, 11}}, 10))
	tb.peekAll()
	// Both seats pass (draw and discard) until the bound.
	for tb.st.turns < stallTurns*2-1 {
		s := tb.st.turn
		tb.do(s, `{"type":"draw"}`)
		tb.do(s, `{"type":"discard"}`)
	}
	choices := func() (heuristic, search game.Move) {
		s := tb.st.turn
		h := NewHeuristic(s, 1)
		sb, err := bot.New(Game{}, "normal@50", s, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tb.log.For(s) {
			h.Observe(e)
			sb.Observe(e)
		}
		k := game.KnowledgeOf(tb.st, s)
		return h.Choose(k), sb.Choose(k)
	}
	call := mk(CallCabo)
	h, sr := choices()
	if h == call || sr == call || tb.st.RolloutMove(nil, nil) == call {
		t.Fatalf("a turn before the bound, with high cards, a bot called Cabo (heuristic %v, search %v)", h, sr)
	}
	if got := tb.st.Prune(tb.st.turn, tb.st.Legal(tb.st.turn, nil)); len(got) < 2 {
		t.Fatalf("a turn before the bound, the search may only %v", got)
	}
	s := tb.st.turn
	tb.do(s, `{"type":"draw"}`)
	tb.do(s, `{"type":"discard"}`)
	h, sr = choices()
	if r := tb.st.RolloutMove(nil, nil); h != call || sr != call || r != call {
		t.Fatalf("at the bound (%d turns): heuristic %v, search %v, playout %v; want every one to call", tb.st.turns, h, sr, r)
	}
	if got := tb.st.Prune(tb.st.turn, tb.st.Legal(tb.st.turn, nil)); len(got) != 1 || got[0] != call {
		t.Fatalf("at the bound, the search may %v, want only the call", got)
	}
}

// A search leaves out the set claims its seat has seen to fail (a pass
// that stalled rounds), and keeps the claims it cannot judge and single
// placements.
func TestPruneKnownFailingClaims(t *testing.T) {
	tb := newTable(t, 2, "", deal([][]int{{4, 9, 4, 6}, {1, 2, 3, 4}}, 13))
	tb.do(0, `{"type":"peek_initial","slots":[0,1]}`)
	tb.do(1, `{"type":"peek_initial","slots":[0,1]}`)
	legal := tb.st.Legal(0, nil)
	kept := tb.st.Prune(0, append([]game.Move(nil), legal...))
	has := func(ms []game.Move, mask uint8) bool { return game.Contains(ms, mkSlots(TakeDiscard, mask)) }
	for _, c := range []struct {
		mask uint8
		keep bool
	}{
		{0b0011, false}, // 4 and 9: seen to differ
		{0b0111, false}, // 4, 9 and one unseen
		{0b0101, true},  // 4 and an unseen card: a gamble, not a known loss
		{0b1100, true},  // both unseen
		{0b0010, true},  // one slot never fails
	} {
		if !has(legal, c.mask) {
			t.Fatalf("take_discard %04b is not legal", c.mask)
		}
		if has(kept, c.mask) != c.keep {
			t.Errorf("take_discard %04b kept: %v, want %v", c.mask, has(kept, c.mask), c.keep)
		}
	}
	if !game.Contains(kept, mk(Draw)) || !game.Contains(kept, mk(CallCabo)) {
		t.Errorf("pruned away draw or the call: %v", kept)
	}
}

// Two search levels finish every game: no round outlasts the bound (each
// seat's stallTurns turns and the final turns after the call), however
// the searches choose. Before the bound, 2 in 16 games of hard against
// normal at an exploration constant of 0.25 went on for ever.
func TestSearchLevelsFinish(t *testing.T) {
	games := 8
	if testing.Short() {
		games = 2
	}
	for _, line := range [][2]string{{"hard", "hard"}, {"normal", "hard"}} {
		if raceDetector {
			// The searches run on this one goroutine, where the race
			// detector has nothing to find, at its many-fold cost (whole
			// matches at 3,000 iterations a move were most of the race
			// phase's time here): a tenth of each level's iterations
			// plays the same code. The run without -race plays the
			// levels' own budgets.
			lv := Game{}.Entry().Levels
			budget := map[string]int{"normal": lv.Normal, "hard": lv.Hard}
			for i, name := range line {
				line[i] = fmt.Sprintf("%s@%d", name, budget[name]/10)
			}
		}
		overdue := 0
		for g := 0; g < games; g++ {
			seed := uint64(g + 1)
			st, err := NewState(game.Config{Players: 2, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			var ps []game.Player
			for s, name := range line {
				p, err := bot.New(Game{}, name, game.Seat(s), seed*31+uint64(s))
				if err != nil {
					t.Fatal(err)
				}
				ps = append(ps, p)
			}
			most, bound := 0, stallTurns*2+2
			_, err = bot.PlayWatch(st, ps, 2000, func(game.State) { most = max(most, st.turns) })
			if err != nil {
				t.Fatalf("%v, seed %d: %v", line, seed, err)
			}
			if most > bound {
				t.Fatalf("%v, seed %d: a round of %d turns, want at most %d", line, seed, most, bound)
			}
			if most > stallTurns*2 {
				overdue++
			}
		}
		t.Log(fmt.Sprintf("%s against %s: %d of %d games had a round end at the bound", line[0], line[1], overdue, games))
	}
}
