package limits

import (
	"math/bits"
	"slices"

	"tapis/game"
)

// maxLegal bounds the legal moves of one seat: 15 pairs to hide with 2
// players; 5 places, 1 exchange and 5 accusations in a turn.
const maxLegal = 16

// Legal implements game.State. It is on the playouts' hot path: it writes
// every candidate and advances only past the legal ones, which keeps the
// hand's unpredictable counts out of the branches.
func (st *State) Legal(s game.Seat, buf []game.Move) []game.Move {
	switch st.phase {
	case phaseTurn:
		if s != st.turn {
			return buf
		}
	case phaseHide:
		if s < 0 || s >= game.Seat(st.n) || st.hid.Has(s) {
			return buf
		}
	default:
		return buf
	}
	buf = slices.Grow(buf, maxLegal)
	n := len(buf)
	out := buf[n : n+maxLegal]
	h := &st.hand[s]
	var has [Colours]int
	for c := range has {
		has[c] = b2i(h[c] > 0)
	}
	k := 0
	if st.phase == phaseHide {
		if st.hideN == 1 {
			for c := int8(0); c < Colours; c++ {
				out[k&(maxLegal-1)] = mkHide1(c)
				k += has[c]
			}
			return buf[:n+k]
		}
		for a := int8(0); a < Colours; a++ {
			out[k&(maxLegal-1)] = mkHide2(a, a)
			k += b2i(h[a] >= 2)
			for b := a + 1; b < Colours; b++ {
				out[k&(maxLegal-1)] = mkHide2(a, b)
				k += has[a] & has[b]
			}
		}
		return buf[:n+k]
	}
	for c := int8(0); c < Colours; c++ {
		out[k&(maxLegal-1)] = mkPlace(c)
		k += has[c]
	}
	if !st.led {
		// [decision] The lead is a place: the round's first card.
		return buf[:n+k]
	}
	// A turn's hand holds at most 4 cards: rarely 4 of a colour, so this
	// branch is well predicted.
	for c := int8(0); c < Colours; c++ {
		if h[c] >= 4 {
			out[k&(maxLegal-1)] = mkExchange(c)
			k++
		}
	}
	for m := uint16(st.placed &^ game.Only(s)); m != 0; m &= m - 1 {
		out[k&(maxLegal-1)] = mkAccuse(game.Seat(bits.TrailingZeros16(m)))
		k++
	}
	return buf[:n+k]
}

// b2i is 1 for true; the compiler makes it a flag move, not a branch.
func b2i(b bool) int {
	i := 0
	if b {
		i = 1
	}
	return i
}
