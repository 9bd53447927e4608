package dacapo

import "tapis/game"

// InfoKey implements game.Keyer: a hash of what seat s knows, cheap enough
// for every step of a search's walk. It mixes s's hand with the public
// state: whose turn, the building piles, every personal pile's size and
// top, every hand's size, every helper pile's height and top, the draw and
// set-aside counts, the stalemate counters and the match's scores.
//
// A helper pile enters by its height and top only, not every card below:
// within one search, which starts from one position and only pushes and
// pops tops, those two tell the piles apart. Equal views always give equal
// keys; two different views may rarely share one, which costs a search a
// little accuracy and nothing else.
func (st *State) InfoKey(s game.Seat) uint64 {
	h := uint64(st.turn) | uint64(st.games)<<8 | uint64(st.nDraw)<<24 | uint64(st.nAside)<<32 |
		uint64(st.quiet)<<40 | uint64(b2u(st.played))<<48 | uint64(b2u(st.over))<<49 | uint64(s)<<52
	h = mix(h, uint64(st.nPile[0])|uint64(st.nPile[1])<<8|uint64(st.nPile[2])<<16)
	var w uint64
	for c := 1; c < Kinds; c++ {
		w = w<<4 | uint64(st.hand[s][c])
	}
	h = mix(h, w)
	for t := 0; t < int(st.n); t++ {
		w = uint64(st.nStock[t]) | uint64(st.top[t])<<8 | uint64(st.nHand[t])<<16 | uint64(st.scores[t])<<24
		k := t * Helpers
		for i := 0; i < Helpers; i++ {
			w = mix(w, uint64(st.hlen[k+i])|uint64(st.htop[k+i])<<8)
		}
		h = mix(h, w)
	}
	return h
}

// mix folds w into the hash h.
func mix(h, w uint64) uint64 {
	h ^= w + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h *= 0xff51afd7ed558ccd
	return h ^ h>>32
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
