package limits

import "tapis/game"

// Sample implements game.State. Seat s keeps everything it knows: its own
// hand and hidden cards, the active pile in order, the publicly known
// parts of the draw pile (exchanged cards, former active piles) and of
// every hand (cards drawn from those parts, hidden cards revealed by an
// accusation). The other cards (the rest of the shuffled deck, the unknown
// part of each other hand, the others' hidden cards) are gathered in
// colour order, so that their true places cannot matter, shuffled with r
// and dealt back in a fixed order of places; each other seat's hidden
// cards are then drawn at random from what it holds. The limit deck is
// redrawn from the cards nobody has seen.
func (st *State) Sample(s game.Seat, r *game.RNG) game.State {
	y := *st
	n := int(st.n)
	over := st.phase == phaseOver
	other := func(j int) bool { return game.Seat(j) != s }

	// The unknown cards, and the fixed part of each other seat's cards.
	var left [Colours]int8
	lo, hi := st.nDraw-st.above-st.unk, st.nDraw-st.above
	for _, c := range st.draw[lo:hi] {
		left[c]++
	}
	var fixed [MaxPlayers][Colours]int8 // what seat j surely holds
	var free [MaxPlayers]int8           // how many of j's cards are redrawn
	for j := 0; j < n; j++ {
		if !other(j) {
			continue
		}
		for c := 0; c < Colours; c++ {
			held := st.hand[j][c] + st.hidden[j][c]
			fixed[j][c] = st.known[j][c]
			if over {
				// The hidden cards were revealed and stay where they are.
				held = st.hand[j][c]
				fixed[j][c] = max(st.known[j][c]-st.hidden[j][c], 0)
			}
			left[c] += held - fixed[j][c]
			free[j] += held - fixed[j][c]
		}
	}
	var pool [Cards]int8
	m := 0
	for c := int8(0); c < Colours; c++ {
		for k := int8(0); k < left[c]; k++ {
			pool[m] = c
			m++
		}
	}
	shuffle(r, pool[:m])
	k := copy(y.draw[lo:hi], pool[:m])
	for j := 0; j < n; j++ {
		if !other(j) {
			continue
		}
		held := fixed[j]
		for i := int8(0); i < free[j]; i++ {
			held[pool[k]]++
			k++
		}
		if over {
			y.hand[j] = held
			continue
		}
		// Which of them are hidden is unknown too.
		y.hidden[j] = [Colours]int8{}
		total := st.nHand[j]
		for c := range held {
			total += st.hidden[j][c]
		}
		for h := st.nHand[j]; h < total; h++ {
			x := int8(r.IntN(int(total - (h - st.nHand[j]))))
			c := 0
			for ; x >= held[c]; c++ {
				x -= held[c]
			}
			held[c]--
			y.hidden[j][c]++
		}
		y.hand[j] = held
	}

	// The limit deck: the cards nobody has seen, in number order, shuffled.
	var unseen [LimitCards]int8
	u := 0
	for l := int8(1); l <= LimitCards; l++ {
		if st.seen&(1<<uint(l-1)) == 0 {
			unseen[u] = l
			u++
		}
	}
	shuffle(r, unseen[:u])
	copy(y.limits[:st.nLimits], unseen[:u])
	y.rng = r.Child()
	return &y
}
