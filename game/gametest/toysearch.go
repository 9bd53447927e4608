package gametest

import "tapis/game"

// The toy offers every optional search capability (game/search.go), so
// that the suite's checks of them run on a sound game and can be shown to
// catch a planted leak or an illegal rollout move.

// InfoKey hashes what seat s sees: its card, the discards, the deck's
// size, the turn and who stopped. The "key" bug mixes in the next seat's
// hidden card.
func (st *toyState) InfoKey(s game.Seat) uint64 {
	h := uint64(st.nDeck) | uint64(st.turn)<<8 | uint64(st.stopped)<<16 | uint64(st.hand[s])<<32
	for _, c := range st.discard[:st.nDisc] {
		h = h*31 + uint64(c)
	}
	if st.bug == "key" {
		h ^= uint64(st.hand[(int(s)+1)%st.n]) << 40
	}
	return h
}

// Rounds: the toy is one round, and Result counts none.
func (st *toyState) Rounds() int { return 0 }

// Value pays the winner at the end and is even before. The "value" bug
// judges by the seat's hidden card.
func (st *toyState) Value(s game.Seat) float64 {
	if st.bug == "value" {
		return float64(st.hand[s]) / 7
	}
	if !st.Over() {
		return 0.5
	}
	if st.Result().Winners[0] == s {
		return 1
	}
	return 0
}

// Turns counts the cards discarded, a public number; the "horizon" bug
// counts the hidden cards' sum instead.
func (st *toyState) Turns() int {
	if st.bug == "horizon" {
		sum := 0
		for _, c := range st.hand[:st.n] {
			sum += int(c)
		}
		return sum
	}
	return st.nDisc
}

func (st *toyState) Horizon() int   { return 2 }
func (st *toyState) TreeDepth() int { return 0 }

// RolloutMove draws on a low card and stops on a high one; the "rollout"
// bug plays a move that is never legal.
func (st *toyState) RolloutMove(r *game.RNG, buf []game.Move) game.Move {
	if st.bug == "rollout" {
		return 3
	}
	if st.hand[st.turn] < 4 {
		return toyDraw
	}
	return toyStop
}
