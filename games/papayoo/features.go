package papayoo

import (
	"math/bits"

	"tapis/game"
)

// FeatureCount is how many numbers Features appends.
const FeatureCount = 28

// Features appends to f the numbers a learned evaluator (bot/learn) reads
// to estimate the points seat s will still take this round, and reports
// whether the state is in the play phase, the only one they describe. They
// read the whole state: the search asks them only of the worlds it drew
// from its seat's knowledge, as its playouts play them, so the hands of
// the other seats are that world's guesses. Counts are scaled to about
// [0, 1].
func (st *State) Features(s game.Seat, f []float64) ([]float64, bool) {
	if st.phase != phasePlay || s < 0 || int(s) >= int(st.n) {
		return f, false
	}
	n := int(st.n)
	hand := st.hands[s]
	var others uint64
	for t := 0; t < n; t++ {
		if game.Seat(t) != s {
			others |= st.hands[t]
		}
	}
	pts := func(set uint64) float64 {
		p := 0
		for ; set != 0; set &= set - 1 {
			p += CardPoints(int8(bits.TrailingZeros64(set)), st.papayoo)
		}
		return float64(p) / 100
	}
	left := float64(bits.OnesCount64(hand)) / float64(handSize[n])
	papSuit := suitOf[st.papayoo]
	var top, bottom, excess [2]float64 // plain suits, then Payoo
	var voids, danger, topPts float64
	for k := int8(0); k < Suits; k++ {
		h, o := hand&suitMask[k], others&suitMask[k]
		i := 0
		if k == Payoo {
			i = 1
		}
		if h == 0 {
			if o != 0 && k != Payoo {
				voids++
			}
			continue
		}
		hi := 63 - bits.LeadingZeros64(o) // -1... when o is empty: 63-64
		lo := bits.TrailingZeros64(o)     // 64 when o is empty
		for c := h; c != 0; c &= c - 1 {
			card := bits.TrailingZeros64(c)
			if card > hi {
				top[i]++
				topPts += float64(CardPoints(int8(card), st.papayoo)) / 100
			}
			if card < lo {
				bottom[i]++
			}
			if k == papSuit && others&(1<<uint(st.papayoo)) != 0 && card > int(st.papayoo) {
				danger++
			}
		}
		excess[i] += float64(max(0, bits.OnesCount64(h)-bits.OnesCount64(o)))
	}
	own, held := pts(hand&^(1<<uint(st.papayoo))), hand&(1<<uint(st.papayoo)) != 0
	rest := pts(others)
	trick := float64(st.trickPts) / 100
	playing := st.nTrick > 0
	winning := playing && st.winner == s
	toPlay := playing && !st.hasPlayedInTrick(s)
	papOut := others&(1<<uint(st.papayoo)) != 0
	hs := float64(handSize[n])
	return append(f,
		1,
		left,
		own,
		one(held),
		rest,
		trick,
		trick*one(winning),
		trick*one(toPlay),
		one(!playing && st.turn == s),
		top[0]/hs,
		top[1]/hs,
		bottom[0]/hs,
		bottom[1]/hs,
		voids/4,
		one(hand&suitMask[Payoo] == 0 && others&suitMask[Payoo] != 0),
		excess[0]/hs,
		excess[1]/hs,
		danger/4,
		one(papOut && hand&suitMask[papSuit] == 0),
		topPts,
		own*left,
		rest*left,
		top[0]/hs*left,
		top[1]/hs*left,
		(own+rest+trick)/float64(n),
		float64(n)/MaxPlayers,
		own*one(held),
		rest*one(papOut),
	), true
}

// ValueScale is the points of a round that Value counts as a total loss:
// an evaluator that estimates points values them as Value does.
const ValueScale = valueScale

// Taken is the points seat s has taken in tricks this round (public).
func (st *State) Taken(s game.Seat) int { return st.taken[s] }

// one is 1 for true, 0 for false.
func one(v bool) float64 {
	if v {
		return 1
	}
	return 0
}
