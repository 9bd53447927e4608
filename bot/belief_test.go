package bot

import (
	"testing"

	"tapis/game"
	"tapis/games"
)

// Belief-weighted sampling changes a search's choices only in games whose
// states weigh their samples (game.Believer), and there it does change
// some: elsewhere hard+belief draws exactly the samples hard does.
// (TestSearchIsHonest covers its honesty: the same knowledge, the same
// choice.)
func TestBeliefOnlyWhereTheGameWeighs(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			n := 4
			if _, hi := g.Players(); hi < n {
				n = hi
			}
			weighs, differed := false, 0
			for seed := uint64(1); seed <= 12; seed++ {
				st, s, told := position(t, g, n, seed, int(20+seed*5))
				if st == nil {
					continue
				}
				r := game.NewRNG(seed)
				_, weighs = st.Sample(s, &r).(game.Believer)
				a := choose(t, g, "hard@150", st, s, told, seed)
				b := choose(t, g, "hard+belief@150", st, s, told, seed)
				if a != b {
					if !weighs {
						t.Fatalf("seed %d: hard chose %v, hard+belief %v, in a game that does not weigh its samples", seed, a, b)
					}
					differed++
				}
			}
			if weighs && differed == 0 {
				t.Errorf("hard+belief never chose otherwise than hard: the weights change nothing")
			}
			t.Logf("weighs %v, differed %d of 12", weighs, differed)
		})
	}
}
