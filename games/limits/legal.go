package limits

import (
	"math/bits"

	"tapis/game"
)

// Legal implements game.State. It is on the playouts' hot path, so it
// tests the turn directly and walks the accusable seats as a bit set.
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
		return st.legalHide(s, buf)
	default:
		return buf
	}
	h := &st.hand[s]
	if !st.led {
		// [decision] The lead is a place: the round's first card.
		for c := int8(0); c < Colours; c++ {
			if h[c] > 0 {
				buf = append(buf, mkPlace(c))
			}
		}
		return buf
	}
	for c := int8(0); c < Colours; c++ {
		if h[c] > 0 {
			buf = append(buf, mkPlace(c))
			if h[c] >= 4 {
				buf = append(buf, mkExchange(c))
			}
		}
	}
	for m := uint16(st.placed &^ game.Only(s)); m != 0; m &= m - 1 {
		buf = append(buf, mkAccuse(game.Seat(bits.TrailingZeros16(m))))
	}
	return buf
}

func (st *State) legalHide(s game.Seat, buf []game.Move) []game.Move {
	h := &st.hand[s]
	for a := int8(0); a < Colours; a++ {
		if h[a] == 0 {
			continue
		}
		if st.hideN == 1 {
			buf = append(buf, mkHide1(a))
			continue
		}
		if h[a] >= 2 {
			buf = append(buf, mkHide2(a, a))
		}
		for b := a + 1; b < Colours; b++ {
			if h[b] > 0 {
				buf = append(buf, mkHide2(a, b))
			}
		}
	}
	return buf
}
