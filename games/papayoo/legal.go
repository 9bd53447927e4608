package papayoo

import (
	"math/bits"
	"slices"

	"tapis/game"
)

// Legal implements game.State. A pass is listed as one-card steps
// (PassCard), one per card not chosen yet: listing every whole pass would
// be C(20,5) = 15,504 moves at three players.
func (st *State) Legal(s game.Seat, buf []game.Move) []game.Move {
	switch st.phase {
	case phasePlay:
		if s == st.turn {
			return appendSet(buf, play, st.playable(s))
		}
	case phasePass:
		if s >= 0 && s < game.Seat(st.n) && !st.passed.Has(s) {
			return appendSet(buf, passCard, st.hands[s]&^st.pass[s])
		}
	}
	return buf
}

// playable is the set of cards seat s may play now: the led suit if it
// holds any, else its whole hand.
func (st *State) playable(s game.Seat) uint64 {
	h := st.hands[s]
	if st.led >= 0 {
		if f := h & suitMask[st.led]; f != 0 {
			return f
		}
	}
	return h
}

// appendSet appends base with each card of set, one move per card.
func appendSet(buf []game.Move, base game.Move, set uint64) []game.Move {
	l, k := len(buf), bits.OnesCount64(set)
	if cap(buf) < l+k {
		buf = slices.Grow(buf, k)
	}
	buf = buf[:l+k]
	out := buf[l:]
	for i := range out {
		out[i] = base | game.Move(set&-set)<<cardShift
		set &= set - 1
	}
	return buf
}
