package cabo

import "tapis/game"

// InfoKey implements game.Keyer: a hash of what seat s knows. Everything
// in it is public (the phase, whose turn, the call, the slots' layout,
// who knows which slots, the discard's top, the scores) or known to s
// (the cards behind its knowledge bits, the card it drew), so two states
// that look the same to s hash the same.
func (st *State) InfoKey(s game.Seat) uint64 {
	h := uint64(0x243f6a8885a308d3)
	mix := func(x uint64) {
		h = (h ^ x) * 0x9e3779b97f4a7c15
		h ^= h >> 31
	}
	drawn := uint64(0xff)
	if st.phase == phaseDrawn && s == st.turn {
		drawn = uint64(st.drawn)
	}
	top := uint64(0xff)
	if st.nDisc > 0 {
		top = uint64(st.topDiscard())
	}
	mix(uint64(st.rounds) | uint64(st.phase)<<16 | uint64(st.turn)<<24 | uint64(st.caller+1)<<32 |
		uint64(st.finalLeft)<<40 | uint64(st.peeked)<<48)
	mix(uint64(st.nDraw) | uint64(st.nDisc)<<8 | top<<16 | drawn<<24 | uint64(s)<<32)
	var layout uint64
	for j := 0; j < int(st.n); j++ {
		layout |= (uint64(st.fill[j]) | uint64(st.kept[j])<<6) << (12 * uint(j))
	}
	mix(layout)
	for k := 0; k < int(st.n); k++ {
		var w uint64
		for j := 0; j < int(st.n); j++ {
			w |= uint64(st.known[k][j]) << (6 * uint(j))
		}
		mix(w)
	}
	for j := 0; j < int(st.n); j++ {
		var w uint64
		for i := 0; i < st.opt.HandSize; i++ {
			c := uint64(0xf)
			if st.known[s][j]&(1<<uint(i)) != 0 {
				c = uint64(st.hands[j][i])
			}
			w |= c << (4 * uint(i))
		}
		mix(w | uint64(st.scores[j])<<32)
	}
	return h
}
