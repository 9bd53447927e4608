package papayoo

import (
	"math/bits"

	"tapis/game"
)

// infer is what seat s's card c, played on a trick already led, suggests
// it does not hold, were it playing by the habits of most players (and of
// the heuristic bot): to duck under the trick's best card with the highest
// card that does, to follow low when it cannot duck, to rid itself of the
// Papayoo at the first trick it cannot follow, and otherwise of its most
// dangerous card. It is noted in st.shun and reads only public facts, so
// Sample may use it: a guess about how people play, never about cards.
//
// play notes it as it puts the card on the trick, while the state still
// holds the trick as it was before c: a card that follows suit there, in
// a few instructions (most plays do), and a discard by inferDiscard.

// inferDiscard notes what seat s's discard c suggests (see infer): the
// Papayoo goes first; then the highest Payoo before a lower one; then a
// plain card before a higher one of its suit, and before a Payoo worth
// more than c's rank plus the lower cards of its suit still out (a Payoo
// of rank r rates 2r+2). The tables hold the sets.
func (st *State) inferDiscard(s game.Seat, c int8) {
	if c == st.papayoo {
		return
	}
	// Without a branch on the suit, which random play cannot predict: a
	// Payoo's rating is masked away by plainOnly.
	d := rankOf[c] + int8(bits.OnesCount64(lower[c]&^st.played))
	st.shun[s] |= st.papBit() | higher[c] | payooOver[d]&plainOnly[c]
}

// Immutable tables of inferDiscard, computed once: the cards of c's suit
// above and below c, and the Payoos a plain discard rated d suggests the
// player does not hold (d is its rank plus the lower cards out). They
// are filled after suitMask (cards.go's init: inferTables).
var (
	higher, lower [DeckSize]uint64
	plainOnly     [DeckSize]uint64 // all ones for a plain card, 0 for a Payoo
	rankOf        [DeckSize]int8
	payooOver     [2 * payooSize]uint64
)

// papBit is the Papayoo's bit, 0 before the die is rolled.
func (st *State) papBit() uint64 {
	if st.papayoo < 0 {
		return 0
	}
	return 1 << uint(st.papayoo)
}

// inferTables fills inferDiscard's tables from suitMask.
func inferTables() {
	below := func(x int) uint64 { return 1<<uint(x) - 1 }
	for c := 0; c < DeckSize; c++ {
		higher[c] = suitMask[suitOf[c]] &^ below(c+1)
		lower[c] = suitMask[suitOf[c]] & below(c)
		rankOf[c] = int8(rank(int8(c)))
		if suitOf[c] != Payoo {
			plainOnly[c] = ^uint64(0)
		}
	}
	// A plain card's d is 1 to 19, so r >= 0 (Go's division truncates)
	// and r < payooSize; a Payoo's d, up to 39, is masked away.
	for d := range payooOver {
		r := min((d-2)/2, payooSize-1)
		payooOver[d] = suitMask[Payoo] &^ below(4*plainSize+r)
	}
}
