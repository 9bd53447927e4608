package limits

import "tapis/game"

// Legal implements game.State.
func (st *State) Legal(s game.Seat, buf []game.Move) []game.Move {
	if !st.ToMove().Has(s) {
		return buf
	}
	h := &st.hand[s]
	if st.phase == phaseHide {
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
	for c := int8(0); c < Colours; c++ {
		if h[c] > 0 {
			buf = append(buf, mkPlace(c))
		}
	}
	if !st.led {
		// [decision] The lead is a place: the round's first card.
		return buf
	}
	for c := int8(0); c < Colours; c++ {
		if h[c] >= 4 {
			buf = append(buf, mkExchange(c))
		}
	}
	for t := game.Seat(0); t < game.Seat(st.n); t++ {
		if t != s && st.last[t] != none {
			buf = append(buf, mkAccuse(t))
		}
	}
	return buf
}
