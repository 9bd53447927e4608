package limits

import "tapis/game"

// InfoKey implements game.Keyer: a hash of what seat s sees in its View
// (its own hand and hidden cards, and the public state of the table).
// The earlier cards of the active pile and the accusations are not in it:
// a search walks its tree from one position, where the moves on the path
// fix them, so leaving them out merges nothing that differs.
func (st *State) InfoKey(s game.Seat) uint64 {
	h := uint64(st.phase) | uint64(st.rounds)<<8 | uint64(st.turn)<<16 |
		uint64(st.leader)<<24 | uint64(b2i(st.led))<<32 | uint64(st.hid)<<40
	h = mix(h, uint64(st.cur)|uint64(st.nLimits)<<8|uint64(st.nPile)<<16|
		uint64(st.nDraw)<<24|uint64(st.placed)<<32)
	if st.nPile > 0 {
		h = mix(h, uint64(st.pile[st.nPile-1])+1)
	}
	if s >= 0 && int(s) < int(st.n) {
		h = mix(h, uint64(s)+1|packColours(&st.hand[s])<<8|packColours(&st.hidden[s])<<32)
	}
	for j := 0; j < int(st.n); j++ {
		h = mix(h, uint64(st.nHand[j])|uint64(uint16(st.points[j]))<<8|uint64(uint16(st.taken[j]))<<24)
	}
	return h
}

// packColours packs a count per colour (each below 16) into 20 bits.
func packColours(c *[Colours]int8) uint64 {
	var x uint64
	for i := range c {
		x |= uint64(c[i]&15) << (4 * i)
	}
	return x
}

// mix folds x into the hash h (a multiply-xorshift step).
func mix(h, x uint64) uint64 {
	h ^= x
	h *= 0x9e3779b97f4a7c15
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>32
}
