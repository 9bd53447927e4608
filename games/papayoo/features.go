package papayoo

import (
	"math/bits"

	"tapis/game"
)

// baseFeatures is how many features Features reads off the position
// before repeating them times the share of the round left.
const baseFeatures = 28

// FeatureCount is how many numbers Features appends.
const FeatureCount = 2*baseFeatures + 2*plainSize + payooSize

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
		hi := 63 - bits.LeadingZeros64(o) // -1 when o is empty
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
	papBit := uint64(1) << uint(st.papayoo)
	hp, op := hand&suitMask[papSuit], others&suitMask[papSuit]
	under := float64(bits.OnesCount64(hp&(papBit-1))) / hs
	papTop := held && op&^(papBit-1) == 0 // nobody can take it from above
	at := len(f)
	f = append(f,
		1,
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
		one(papOut && hp == 0),
		topPts,
		(own+rest+trick)/float64(n),
		float64(n)/MaxPlayers,
		own*one(held),
		rest*one(papOut),
		float64(bits.OnesCount64(hp))/hs,
		float64(bits.OnesCount64(op))/hs,
		under*one(papOut),
		one(papTop),
		one(held && hp == papBit),
	)
	// The same again, each times the share of the round left: what a
	// feature means for the points to come depends on how many tricks
	// remain.
	for i := at; i < at+baseFeatures; i++ {
		f = append(f, f[i]*left)
	}
	// The seat's cards one by one: each rank of the Papayoo's suit, each
	// rank of the other plain suits (a count of three), each Payoo card.
	var ranks [plainSize]float64
	for k := int8(0); k < Payoo; k++ {
		if k == papSuit {
			continue
		}
		for c := hand & suitMask[k]; c != 0; c &= c - 1 {
			ranks[bits.TrailingZeros64(c)%plainSize] += 1.0 / 3
		}
	}
	f = append(f, ranks[:]...)
	for r := 0; r < plainSize; r++ {
		f = append(f, one(hp&(1<<uint(int(papSuit)*plainSize+r)) != 0))
	}
	for r := 0; r < payooSize; r++ {
		f = append(f, one(hand&(1<<uint(4*plainSize+r)) != 0))
	}
	return f, true
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
