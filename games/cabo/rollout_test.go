package cabo

import (
	"testing"

	"tapis/game"
)

// The rollout plays the heuristic's rules from the state's knowledge bits:
// on the true state of a game between heuristic bots, it must choose as
// the heuristic does nearly always.
func TestRolloutMimicsHeuristic(t *testing.T) {
	same, all := 0, 0
	kinds := map[[2]Kind]int{}
	for seed := uint64(1); seed <= 40; seed++ {
		st, _ := NewState(game.Config{Players: 2, Seed: seed})
		ps := []*Heuristic{NewHeuristic(0, 1), NewHeuristic(1, 2)}
		var log game.Log
		for !st.Over() {
			s := st.ToMove().First()
			m := ps[s].Choose(game.KnowledgeOf(st, s))
			if st.phase != phasePeek && len(st.Legal(s, nil)) > 1 {
				all++
				if r := st.RolloutMove(nil, nil); r == m {
					same++
				} else {
					kinds[[2]Kind{kindOf(m), kindOf(r)}]++
				}
			}
			log.Reset()
			if err := st.Apply(s, m, &log); err != nil {
				t.Fatal(err)
			}
			for _, e := range log.Events {
				for tt, p := range ps {
					if e.To.Has(game.Seat(tt)) {
						p.Observe(e)
					}
				}
			}
		}
	}
	t.Logf("rollout = heuristic on %d of %d choices; differing (heuristic, rollout): %v", same, all, kinds)
	if same < all*99/100 {
		t.Errorf("the rollout departs from the heuristic's rules on %d of %d choices", all-same, all)
	}
}
