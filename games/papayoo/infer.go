package papayoo

import (
	"math/bits"

	"tapis/game"
)

// infer notes in st.shun what seat s's card c, played on a trick already
// led, suggests it does not hold, were it playing by the habits of most
// players (and of the heuristic bot): to duck under the trick's best card
// with the highest card that does, to follow low when it cannot duck, to
// rid itself of the Papayoo at the first trick it cannot follow, and
// otherwise of its most dangerous card. It reads only public facts, so
// Sample may use it: a guess about how people play, never about cards.
// The state must still hold the trick as it was before c.
func (st *State) infer(s game.Seat, c int8) {
	k, led, best := suitOf[c], st.led, st.best
	bit := uint64(1) << uint(c)
	var pap uint64
	if st.papayoo >= 0 {
		pap = 1 << uint(st.papayoo)
	}
	below := func(x int8) uint64 { return 1<<uint(x) - 1 }
	if k == led {
		if c < best && bit == pap {
			return
		}
		if c < best {
			// Ducked: the highest card under the best one (or the
			// Papayoo) would have been played.
			st.shun[s] |= suitMask[led] & below(best) &^ below(c+1)
			if bit != pap {
				st.shun[s] |= pap & suitMask[led] & below(best)
			}
			return
		}
		// Could not duck: no card under the best one.
		st.shun[s] |= suitMask[led] & below(best)
		return
	}
	// A discard: the Papayoo goes first.
	if bit == pap {
		return
	}
	st.shun[s] |= pap
	var played uint64
	for t := 0; t < int(st.n); t++ {
		played |= st.playedBy[t]
	}
	if k == Payoo {
		// The highest Payoo goes before a lower one.
		st.shun[s] |= suitMask[Payoo] &^ below(c+1)
		return
	}
	// A plain card: a higher one of its suit would be worse to keep, and
	// so would a Payoo worth more than c's rank plus the lower cards of
	// its suit still out.
	st.shun[s] |= suitMask[k] &^ below(c+1)
	d := rank(c) + bits.OnesCount64(suitMask[k]&below(c)&^played)
	// A Payoo of rank r rates 2r+2: those above d.
	if r := (d - 2) / 2; r < payooSize {
		if r < 0 {
			r = 0
		}
		st.shun[s] |= suitMask[Payoo] &^ below(int8(4*plainSize+r))
	}
}
