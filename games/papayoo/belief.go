package papayoo

import (
	"math"
	"math/bits"

	"tapis/game"
)

// Belief implements game.Believer: it replays this round's plays from the
// first trick, with the hands this state holds (each seat's cards now and
// those it played since the pass: what a sample drew, for the seats it
// did not know), and multiplies, for every play of a seat other than s
// that had a choice, the chance the heuristic's rules (the playout
// policy) give it: 1−eps+eps/k when the card is the policy's, eps/k when
// not, among k playable cards. The order of the plays is public, so on a
// sample this reads only what s knows and the sample's guesses. The pass
// is not judged: a sample already draws the others' passes as the
// heuristic chooses them.
func (st *State) Belief(s game.Seat, eps float64) float64 {
	if st.phase != phasePlay || st.nSeq == 0 {
		return 0
	}
	y := *st
	for t := 0; t < int(st.n); t++ {
		y.hands[t] |= st.playedBy[t]
		y.playedBy[t], y.voids[t], y.taken[t] = 0, 0, 0
	}
	y.nSeq = 0
	y.led, y.nTrick, y.best, y.winner, y.trickPts = none, 0, none, st.dealer, 0
	y.turn, y.leader = st.dealer, st.dealer
	ll := 0.0
	for i := 0; i < int(st.nSeq); i++ {
		c := st.seq[i]
		t := y.turn
		if t != s {
			if k := bits.OnesCount64(y.playable(t)); k > 1 {
				agree, differ := math.Log(1-eps+eps/float64(k)), math.Log(eps/float64(k))
				if y.rolloutCard() == c {
					ll += agree
				} else {
					ll += differ
				}
			}
		}
		y.play(t, c, nil)
	}
	return ll
}
