package dacapo

import (
	"testing"

	"tapis/game"
)

// Plans are whole turns: over games played by the playout policy, at every
// decision of every table size, each plan is legal move by move, stops
// only where the turn ends or the seat learns a card (a personal top
// turned up, a hand drawn), reaches a position no other plan reaches, and
// the first is the playout policy's own turn.
func TestPlansAreWholeTurns(t *testing.T) {
	decisions, several, policy := 0, 0, 0
	for n := MinPlayers; n <= 4; n++ {
		for g := 0; g < 6; g++ {
			st, err := NewState(game.Config{Players: n, Seed: uint64(10*n + g)})
			if err != nil {
				t.Fatal(err)
			}
			rng := game.NewRNG(uint64(g))
			for moves := 0; !st.Over() && moves < 400; moves++ {
				s := st.turn
				buf, ends := st.Plans(s, nil, nil)
				if len(ends) == 0 {
					t.Fatalf("%d players, game %d: no plan for the seat to move", n, g)
				}
				decisions++
				if len(ends) > 1 {
					several++
				}
				seen := map[uint64]bool{}
				start := 0
				for i, end := range ends {
					plan := buf[start:end]
					start = end
					if len(plan) == 0 {
						t.Fatalf("an empty plan")
					}
					y := *st
					for j, m := range plan {
						if !game.Contains(y.Legal(s, nil), m) {
							t.Fatalf("%d players, game %d, plan %d: move %d (%#x) is not legal", n, g, i, j, uint64(m))
						}
						hand := y.nHand[s]
						if err := y.Apply(s, m, nil); err != nil {
							t.Fatal(err)
						}
						want := hand
						if kindOf(m) == Help || fromOf(m) == FromHand {
							want--
						}
						learnt := kindOf(m) == Build && (fromOf(m) == FromStock || fromOf(m) == FromOpponent) || y.nHand[s] != want
						ended := y.over || y.turn != s
						if last := j == len(plan)-1; !last && (learnt || ended) {
							t.Fatalf("%d players, game %d, plan %d goes on after move %d, which ended the turn or showed a card", n, g, i, j)
						} else if last && !learnt && !ended {
							t.Fatalf("%d players, game %d, plan %d stops mid-turn with nothing learnt", n, g, i)
						}
					}
					k := y.InfoKey(s)
					if seen[k] {
						t.Fatalf("%d players, game %d: two plans reach the same position", n, g)
					}
					seen[k] = true
				}
				// The policy's turn: RolloutMove until the turn ends or
				// a card shows.
				y := *st
				same := true
				for _, m := range buf[:ends[0]] {
					if r := y.RolloutMove(&rng, nil); r != m {
						same = false
						break
					}
					y.Apply(s, m, nil)
				}
				if same {
					policy++
				}
				if err := st.Apply(s, st.RolloutMove(&rng, nil), nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Logf("%d decisions, %d with several plans; the first plan is the policy's turn in %d", decisions, several, policy)
	if several < decisions/2 {
		t.Errorf("only %d of %d decisions had more than one plan", several, decisions)
	}
	if policy < decisions*95/100 {
		t.Errorf("the first plan is the playout policy's turn in only %d of %d decisions", policy, decisions)
	}
}
