package papayoo

import (
	"math/bits"

	"tapis/game"
)

// planExtra is how many cards beyond the pass's a pass plan may choose
// from: the pass's plans are every choice of the cards still to pass
// among the most dangerous ones left (passStep's order), need+planExtra
// of them.
const planExtra = 2

// Plans implements game.Planner at the pass: seat s's whole passes from
// the cards it has chosen so far, so that a search compares passes, each
// played whole before the round is played out, rather than one card at a
// time (the pass shows nothing until every seat has passed, so a whole
// pass is a plan: game.Planner). The plans are the policy's pass first,
// then every other choice among the most dangerous cards left, in the
// policy's order. Elsewhere (the play of cards) it lists none.
func (st *State) Plans(s game.Seat, buf []game.Move, ends []int) ([]game.Move, []int) {
	if st.phase != phasePass || s < 0 || int(s) >= int(st.n) || st.passed.Has(s) {
		return buf, ends
	}
	hand, chosen := st.hands[s], st.pass[s]
	need := st.passSize() - bits.OnesCount64(chosen)
	left := bits.OnesCount64(hand &^ chosen)
	if need <= 0 || need > left {
		return buf, ends
	}
	m := min(need+planExtra, left)
	var order [DeckSize]int8
	for i, c := 0, chosen; i < m; i++ {
		order[i] = passStep(hand, c)
		c |= 1 << uint(order[i])
	}
	// Every need-subset of order[:m], indices increasing, the first the
	// policy's own (order[:need]).
	var idx [DeckSize]int
	for i := range need {
		idx[i] = i
	}
	for {
		for _, i := range idx[:need] {
			buf = append(buf, passCard|game.Move(1)<<uint(order[i]+cardShift))
		}
		ends = append(ends, len(buf))
		j := need - 1
		for j >= 0 && idx[j] == m-need+j {
			j--
		}
		if j < 0 {
			return buf, ends
		}
		idx[j]++
		for i := j + 1; i < need; i++ {
			idx[i] = idx[i-1] + 1
		}
	}
}
