package papayoo

import (
	"math"
	"testing"

	"tapis/game"
)

// At a table of heuristic bots, who play as the model says, the true
// hands make the others' plays more likely than most of a seat's samples
// do: Belief tells the worlds apart the right way. And it reads only the
// public order of plays and the state's own cards: a sample's belief is
// the same whatever the true state hid.
func TestBeliefFavoursTheTruth(t *testing.T) {
	above, below, told := 0, 0, 0
	for g := uint64(0); g < 20; g++ {
		n := 4
		st, err := NewState(game.Config{Players: n, Seed: g, Options: []byte(`{"rounds":1}`)})
		if err != nil {
			t.Fatal(err)
		}
		ps := make([]*Heuristic, n)
		for s := range ps {
			ps[s] = NewHeuristic(game.Seat(s), g)
		}
		var log game.Log
		stop := 12 + int(g%20) // plays into the round
		for !st.Over() && !(st.phase == phasePlay && int(st.nSeq) >= stop) {
			stepHeuristics(t, st, ps, &log)
		}
		if st.phase != phasePlay {
			continue
		}
		s := st.turn
		truth := st.Belief(s, 0.5)
		if truth > 0 || math.IsNaN(truth) {
			t.Fatalf("game %d: log-likelihood %v", g, truth)
		}
		r := game.NewRNG(g)
		// Another true state that looks the same to s: its own sample.
		alt := st.Sample(s, &r).(*State)
		for i := 0; i < 50; i++ {
			r2 := r
			y := st.Sample(s, &r).(*State)
			b := y.Belief(s, 0.5)
			if b2 := alt.Sample(s, &r2).(*State).Belief(s, 0.5); b2 != b {
				t.Fatalf("game %d: the same sample of seat %d's knowledge is %v likely from one true state, %v from another", g, s, b, b2)
			}
			switch {
			case b < truth-1e-9:
				below++
			case b > truth+1e-9:
				above++
			}
		}
		told++
	}
	if told < 10 {
		t.Fatalf("only %d positions in the play", told)
	}
	t.Logf("samples below the truth %d, above %d", below, above)
	if below <= 3*above {
		t.Errorf("samples less likely than the truth %d times, more likely %d times", below, above)
	}
}

// stepHeuristics plays the next move of a table of heuristic bots and
// tells each the events its seat may see.
func stepHeuristics(t *testing.T, st *State, ps []*Heuristic, log *game.Log) {
	t.Helper()
	s := st.ToMove().First()
	m := ps[s].Choose(game.KnowledgeOf(st, s))
	log.Reset()
	if err := st.Apply(s, m, log); err != nil {
		t.Fatal(err)
	}
	for _, e := range log.Events {
		for u, p := range ps {
			if e.To.Has(game.Seat(u)) {
				p.Observe(e)
			}
		}
	}
}
