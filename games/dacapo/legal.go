package dacapo

import "tapis/game"

// Legal implements game.State: every build the turn seat can make, then
// every helper move (each hand value onto each helper position).
func (st *State) Legal(s game.Seat, buf []game.Move) []game.Move {
	if st.over || s != st.turn {
		return buf
	}
	// accept[c] is the set of building piles card c fits; a Joker fits
	// every position.
	var accept [Kinds]uint8
	for p := 0; p < Piles; p++ {
		accept[st.nPile[p]+1] |= 1 << uint(p)
	}
	accept[Joker] = 1<<Piles - 1
	add := func(buf []game.Move, c int8, f From, arg int8) []game.Move {
		m := accept[c]
		for p := 0; m != 0; p++ {
			if m&1 != 0 {
				buf = append(buf, mkBuild(f, arg, p))
			}
			m >>= 1
		}
		return buf
	}
	if c := st.stockTop(s); c != 0 {
		buf = add(buf, c, FromStock, 0)
	}
	h := &st.hand[s]
	for c := int8(1); c < Kinds; c++ {
		if h[c] != 0 {
			buf = add(buf, c, FromHand, c)
		}
	}
	for i := 0; i < Helpers; i++ {
		if c := st.helperTop(s, i); c != 0 {
			buf = add(buf, c, FromHelper, int8(i))
		}
	}
	for t := game.Seat(0); t < game.Seat(st.n); t++ {
		if t != s {
			if c := st.stockTop(t); c != 0 {
				buf = add(buf, c, FromOpponent, int8(t))
			}
		}
	}
	for c := int8(1); c < Kinds; c++ {
		if h[c] != 0 {
			buf = append(buf, mkHelp(c, 0), mkHelp(c, 1), mkHelp(c, 2))
		}
	}
	return buf
}

// canBuildOwn reports whether seat s can build from its own personal pile
// or helper piles: while it can, a turn with an empty hand goes on.
func (st *State) canBuildOwn(s game.Seat) bool {
	if c := st.stockTop(s); c != 0 && st.fitsAny(c) {
		return true
	}
	for i := 0; i < Helpers; i++ {
		if c := st.helperTop(s, i); c != 0 && st.fitsAny(c) {
			return true
		}
	}
	return false
}
