package dacapo

import (
	"math/bits"
	"slices"

	"tapis/game"
)

// maxLegal bounds the moves of one position: 3 piles for the personal
// top, 4 hand values, 3 helper tops and 5 opponents, plus 4 hand values
// onto 3 helper piles or End (never both: End needs an empty hand).
const maxLegal = 3*(1+HandSize+Helpers+MaxPlayers-1) + HandSize*Helpers

// Legal implements game.State: every build the turn seat can make, then
// every helper move (each hand value onto each helper position), or End
// when the hand is empty and cannot be refilled. (An emptied hand draws at
// once, so at a decision point an empty hand has nothing to draw: Check
// holds it. End checks it anyway, lest it ever skip a refill.)
func (st *State) Legal(s game.Seat, buf []game.Move) []game.Move {
	if st.over || s != st.turn {
		return buf
	}
	n := len(buf)
	if cap(buf)-n < maxLegal {
		buf = slices.Grow(buf, maxLegal)
	}
	out := buf[n : n+maxLegal]
	// accept(c) is the set of building piles card c fits: nibble c of acc
	// (in a register, where a table on the stack, written then read at
	// once, stalled). A Joker fits every position. A pile's value is at
	// most 9, so its next card never collides with the Joker's code;
	// code 0 (no card) fits nowhere.
	acc := uint64(1)<<(4*(st.nPile[0]+1)) | uint64(2)<<(4*(st.nPile[1]+1)) | uint64(4)<<(4*(st.nPile[2]+1)) |
		uint64(1<<Piles-1)<<(4*Joker)
	accept := func(c int8) uint8 { return uint8(acc>>(4*uint(c))) & (1<<Piles - 1) }
	k := putBuilds(out, 0, accept(st.stockTop(s)), mkBuild(FromStock, 0, 0))
	hm := st.handMask[s]
	for m := hm; m != 0; m &= m - 1 {
		c := int8(bits.TrailingZeros16(m))
		k = putBuilds(out, k, accept(c), mkBuild(FromHand, c, 0))
	}
	for i := 0; i < Helpers; i++ {
		k = putBuilds(out, k, accept(st.helperTop(s, i)), mkBuild(FromHelper, int8(i), 0))
	}
	for t := game.Seat(0); t < game.Seat(st.n); t++ {
		if t != s {
			k = putBuilds(out, k, accept(st.stockTop(t)), mkBuild(FromOpponent, int8(t), 0))
		}
	}
	for m := hm; m != 0; m &= m - 1 {
		base := mkHelp(int8(bits.TrailingZeros16(m)), 0)
		o := out[k : k+3 : k+3]
		o[0], o[1], o[2] = base, base|1<<16, base|2<<16
		k += 3
	}
	if hm == 0 && st.nDraw == 0 && st.nAside == 0 {
		out[k] = endMove
		k++
	}
	return buf[:n+k]
}

// putBuilds writes base onto each building pile of mask at out[k:] and
// returns the new count. It writes without branching on the mask, which
// random positions would mispredict: each pile's move is written at the
// next slot, and the count advances only past the piles that take the
// card. A slot written beyond the count is overwritten or ignored.
func putBuilds(out []game.Move, k int, mask uint8, base game.Move) int {
	if k > len(out)-3 {
		return k // never: maxLegal leaves room for every source
	}
	o := out[k : k+3 : k+3]
	j := 0
	o[j] = base
	j += int(mask & 1)
	o[j] = base | 1<<16
	j += int(mask >> 1 & 1)
	o[j] = base | 2<<16
	j += int(mask >> 2 & 1)
	return k + j
}

// canBuild reports whether seat s has any build but from its hand: its
// personal top, a helper top or an opponent's top fits a building pile.
// While it has, a turn with an empty hand goes on (autoEnd).
func (st *State) canBuild(s game.Seat) bool {
	for t := 0; t < int(st.n); t++ {
		if c := st.top[t]; c != 0 && st.fitsAny(c) {
			return true
		}
	}
	for i := 0; i < Helpers; i++ {
		if c := st.helperTop(s, i); c != 0 && st.fitsAny(c) {
			return true
		}
	}
	return false
}
