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
			buf = st.appendOthers(buf, s, func(buf []game.Move, t Slot) []game.Move {
				return append(buf, Move{Kind: Spy, A: t}.Pack())
			})
		case Swap:
			buf = st.appendSwaps(buf, s, own)
		}
	}
	return buf
}

// appendSets lists a card's placements: any one filled slot, or any 2 to 4
// filled slots claimed as a set (a wrong claim is a legal, failing move).
func (st *State) appendSets(buf []game.Move, k Kind, filled uint8) []game.Move {
	for sub := filled; sub != 0; sub = (sub - 1) & filled {
		if bits.OnesCount8(sub) <= 4 {
			buf = append(buf, mkSlots(k, sub))
		}
	}
	return buf
}

// appendOthers calls add for every filled slot of every seat but s.
func (st *State) appendOthers(buf []game.Move, s game.Seat, add func([]game.Move, Slot) []game.Move) []game.Move {
	for t := game.Seat(0); t < game.Seat(st.n); t++ {
		if t == s {
			continue
		}
		for i, c := range st.hands[t][:st.opt.HandSize] {
			if c != none {
				buf = add(buf, Slot{t, i})
			}
		}
	}
	return buf
}

func (st *State) appendSwaps(buf []game.Move, s game.Seat, own uint8) []game.Move {
	for i := 0; i < st.opt.HandSize; i++ {
		if own&(1<<uint(i)) == 0 {
			continue
		}
		mine := Slot{s, i}
		buf = st.appendOthers(buf, s, func(buf []game.Move, t Slot) []game.Move {
			return append(buf, mkSwap(mine, t))
		})
	}
	if !st.opt.SwapOpponents {
		return buf
	}
	return st.appendOthers(buf, s, func(buf []game.Move, a Slot) []game.Move {
		return st.appendOthers(buf, s, func(buf []game.Move, b Slot) []game.Move {
			if a.Seat < b.Seat {
				buf = append(buf, mkSwap(a, b))
			}
			return buf
		})
	})
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
