package papayoo

import "math/bits"

// infer is what seat s's card c, played on a trick already led, suggests
// it does not hold, were it playing by the habits of most players (and of
// the heuristic bot): to duck under the trick's best card with the highest
// card that does, to follow low when it cannot duck, to rid itself of the
// Papayoo at the first trick it cannot follow, and otherwise of its most
// dangerous card. It reads only public facts, so Sample may use it: a
// guess about how people play, never about cards.
//
// The guesses are read from the round's plays, in order (st.seq), when a
// sample asks for them (shuns), rather than worked out at every play: a
// play stores one byte, and random playouts, which never sample, pay
// nothing more for them.

// shuns returns, for each seat, the cards its plays this round suggest it
// does not hold (see infer). It replays the round's tricks: the dealer
// leads the first, each winner the next, and each card after the lead is
// read against the trick as it stood before it.
func (st *State) shuns() (shun [MaxPlayers]uint64) {
	n := int(st.n)
	pap := st.papBit()
	var played uint64 // the cards played before the one read
	leader := st.dealer
	seq := st.seq[:st.nSeq]
	for len(seq) > 0 {
		trick := seq[:min(n, len(seq))]
		seq = seq[len(trick):]
		led, best, winner := suitOf[trick[0]], trick[0], leader
		played |= 1 << uint(trick[0])
		s := leader
		for _, c := range trick[1:] {
			s = st.next(s)
			bit := uint64(1) << uint(c)
			switch {
			case suitOf[c] != led:
				shun[s] |= inferDiscard(c, pap, played)
			case c > best:
				// Could not duck: no card under the best one.
				shun[s] |= suitMask[led] & (1<<uint(best) - 1)
				best, winner = c, s
			case bit != pap:
				// Ducked: the highest card under the best one, or the
				// Papayoo, would have been played.
				shun[s] |= suitMask[led] & (1<<uint(best) - 1) & (pap | ^(bit<<1 - 1))
			}
			played |= bit
		}
		leader = winner
	}
	return shun
}

// inferDiscard is what a discard of c suggests its player lacks (see
// infer), pap being the Papayoo's bit and played the cards played before
// c this round: the Papayoo goes first; then the highest Payoo before a
// lower one; then a plain card before a higher one of its suit, and
// before a Payoo worth more than c's rank plus the lower cards of its
// suit still out (a Payoo of rank r rates 2r+2). The tables hold the sets.
func inferDiscard(c int8, pap, played uint64) uint64 {
	if 1<<uint(c) == pap {
		return 0
	}
	// A Payoo's rating is masked away by plainOnly.
	d := rankOf[c] + int8(bits.OnesCount64(lower[c]&^played))
	return pap | higher[c] | payooOver[d]&plainOnly[c]
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
