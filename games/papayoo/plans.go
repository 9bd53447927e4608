package papayoo

import (
	"math/bits"

	"tapis/game"
)

// planSpread is how many cards beyond the pass's still to choose a plan
// draws from: the rest of the pass among the seat's most dangerous
// planSpread+k cards left, C(8,5) = 56 whole passes at 4 players. Hard's
// flat judge took 52.0% of the heuristics' points with 56, 53.2% with 21
// (C(7,5); paired, +1.2 [-0.7, +3.0] points: docs/bots.md).
const planSpread = 3

// Plans implements game.Planner at the pass: seat s's whole passes from
// what it has chosen so far, each the cards chosen and the rest among its
// most dangerous cards left (passStep's order, planSpread more than it
// needs), as one step a card. The first plan is the heuristic's own pass.
// Elsewhere it lists none. It reads only s's hand and pass: s's
// knowledge. Hard judges them flat (bot's Search.Flat), spending the
// pass's budget on whole passes at once; a search that credited the first
// with the prior's share kept it (docs/bots.md, Where Papayoo's gap lies).
func (st *State) Plans(s game.Seat, buf []game.Move, ends []int) ([]game.Move, []int) {
	if st.phase != phasePass || s < 0 || s >= game.Seat(st.n) || st.passed.Has(s) {
		return buf, ends
	}
	hand, chosen := st.hands[s], st.pass[s]
	need := st.passSize() - bits.OnesCount64(chosen)
	if need <= 0 {
		return buf, ends
	}
	// The cards left in the heuristic's order of danger.
	var order [8 + planSpread]int8
	m := 0
	for taken := chosen; m < need+planSpread && hand&^taken != 0; m++ {
		order[m] = passStep(hand, taken)
		taken |= 1 << uint(order[m])
	}
	// Every need-subset of order[:m], in colex order of their index
	// sets, so that the first is order[:need], the heuristic's.
	idx := make([]int, need)
	for i := range idx {
		idx[i] = i
	}
	for {
		for _, i := range idx {
			buf = append(buf, PassMove(1<<uint(order[i])))
		}
		ends = append(ends, len(buf))
		j := 0
		for j < need && (j == need-1 && idx[j] == m-1 || j < need-1 && idx[j]+1 == idx[j+1]) {
			j++
		}
		if j == need {
			return buf, ends
		}
		idx[j]++
		for i := 0; i < j; i++ {
			idx[i] = i
		}
	}
}
