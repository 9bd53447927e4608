package cabo

import (
	"math/bits"

	"tapis/game"
)

// Legal implements game.State.
func (st *State) Legal(s game.Seat, buf []game.Move) []game.Move {
	if !st.ToMove().Has(s) {
		return buf
	}
	switch st.phase {
	case phasePeek:
		for mask := uint8(0); mask < 1<<uint(st.opt.HandSize); mask++ {
			if bits.OnesCount8(mask) == st.opt.InitialPeek {
				buf = append(buf, mkSlots(PeekInitial, mask))
			}
		}
	case phaseTurn:
		if st.canDraw() {
			buf = append(buf, mk(Draw))
		}
		if st.caller < 0 {
			buf = append(buf, mk(CallCabo))
		}
		buf = st.appendSets(buf, TakeDiscard, st.filled(s))
	case phaseDrawn:
		buf = append(buf, mk(Discard))
		own := st.filled(s)
		buf = st.appendSets(buf, Replace, own)
		switch power(st.drawn) {
		case Peek:
			for i := 0; i < st.opt.HandSize; i++ {
				if own&(1<<uint(i)) != 0 {
					buf = append(buf, Move{Kind: Peek, A: Slot{0, i}}.Pack())
				}
			}
		case Spy:
			buf = st.appendSpies(buf, s)
		case Swap:
			buf = st.appendSwaps(buf, s, own)
		}
	}
	return buf
}

// appendSets lists a card's placements: any one filled slot, or any 2 to 4
// filled slots claimed as a set (a wrong claim is a legal, failing move).
// The lists are precomputed per set of filled slots, so this is one copy.
func (st *State) appendSets(buf []game.Move, k Kind, filled uint8) []game.Move {
	if k == TakeDiscard {
		return append(buf, setMoves[0][filled]...)
	}
	return append(buf, setMoves[1][filled]...)
}

// setMoves[0][f] and setMoves[1][f] are the take_discard and replace moves
// for the filled-slot set f: an immutable table built once.
var setMoves = func() (t [2][1 << MaxSlots][]game.Move) {
	for f := 0; f < 1<<MaxSlots; f++ {
		filled := uint8(f)
		for sub := filled; sub != 0; sub = (sub - 1) & filled {
			if bits.OnesCount8(sub) <= 4 {
				t[0][f] = append(t[0][f], mkSlots(TakeDiscard, sub))
				t[1][f] = append(t[1][f], mkSlots(Replace, sub))
			}
		}
	}
	return t
}()

// appendSpies lists a spy on every filled slot of every other seat.
func (st *State) appendSpies(buf []game.Move, s game.Seat) []game.Move {
	for t := game.Seat(0); t < game.Seat(st.n); t++ {
		if t != s {
			for f := st.fill[t]; f != 0; f &= f - 1 {
				buf = append(buf, Move{Kind: Spy, A: Slot{t, bits.TrailingZeros8(f)}}.Pack())
			}
		}
	}
	return buf
}

// appendSwaps lists every swap of an own filled slot with another seat's,
// and with swap_opponents every swap between two opponents' slots.
func (st *State) appendSwaps(buf []game.Move, s game.Seat, own uint8) []game.Move {
	for o := own; o != 0; o &= o - 1 {
		mine := Slot{s, bits.TrailingZeros8(o)}
		for t := game.Seat(0); t < game.Seat(st.n); t++ {
			if t == s {
				continue
			}
			for f := st.fill[t]; f != 0; f &= f - 1 {
				buf = append(buf, mkSwap(mine, Slot{t, bits.TrailingZeros8(f)}))
			}
		}
	}
	if !st.opt.SwapOpponents {
		return buf
	}
	for a := game.Seat(0); a < game.Seat(st.n); a++ {
		for b := a + 1; b < game.Seat(st.n); b++ {
			if a == s || b == s {
				continue
			}
			for fa := st.fill[a]; fa != 0; fa &= fa - 1 {
				for fb := st.fill[b]; fb != 0; fb &= fb - 1 {
					buf = append(buf, mkSwap(Slot{a, bits.TrailingZeros8(fa)}, Slot{b, bits.TrailingZeros8(fb)}))
				}
			}
		}
	}
	return buf
}

// power is the power a drawn card may use: Peek, Spy, Swap, or 0.
func power(c int8) Kind {
	switch c {
	case 7, 8:
		return Peek
	case 9, 10:
		return Spy
	case 11, 12:
		return Swap
	}
	return 0
}

func (st *State) canDraw() bool { return st.nDraw > 0 || st.nDisc > 1 }
