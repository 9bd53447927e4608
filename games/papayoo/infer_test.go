package papayoo

import (
	"testing"

	"tapis/game"
)

// At a table of heuristic bots, what infer guesses from their plays is
// always true, and samples respect it.
func TestInferHeuristicTable(t *testing.T) {
	shunned := 0
	for g := uint64(0); g < 30; g++ {
		n := 3 + int(g%6)
		st, err := NewState(game.Config{Players: n, Seed: g})
		if err != nil {
			t.Fatal(err)
		}
		ps := make([]*Heuristic, n)
		for s := range ps {
			ps[s] = NewHeuristic(game.Seat(s), g)
		}
		r := game.NewRNG(g)
		var log game.Log
		for !st.Over() {
			s := st.ToMove().First()
			m := ps[s].Choose(game.KnowledgeOf(st, s))
			log.Reset()
			if err := st.Apply(s, m, &log); err != nil {
				t.Fatal(err)
			}
			for _, e := range log.Events {
				for u, p := range ps {
					if e.To.Has(game.Seat(u)) {
						p.Observe(e)
					}
				}
			}
			if st.phase != phasePlay {
				continue
			}
			for u := 0; u < n; u++ {
				if bad := st.shun[u] & st.hands[u]; bad != 0 {
					t.Fatalf("game %d: seat %d holds %v, which its plays said it lacks", g, u, names(bad))
				}
				shunned += bitsIn(st.shun[u] &^ st.playedBy[0] &^ st.playedBy[1] &^ st.playedBy[2])
			}
			y := st.Sample(st.turn, &r).(*State)
			for u := 0; u < n; u++ {
				if bad := y.shun[u] & y.hands[u]; bad != 0 {
					t.Fatalf("game %d: a sample gives seat %d %v, which its plays said it lacks", g, u, names(bad))
				}
			}
		}
	}
	if shunned == 0 {
		t.Fatal("infer never guessed anything")
	}
}

func bitsIn(x uint64) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}
