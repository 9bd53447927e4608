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
// cards are then drawn at random from those it may have hidden (not the
// cards it is known to have drawn since). The limit deck is redrawn from
// the cards nobody has seen.
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
	var free [MaxPlayers]int8 // how many of j's cards are redrawn
	for j := 0; j < n; j++ {
		if !other(j) {
			continue
		}
		for c := 0; c < Colours; c++ {
			// Once the game is over the hidden cards are revealed and
			// stay; before, they are redrawn with the hand.
			x := st.hand[j][c] - st.knownHand[j][c] - st.knownHeld[j][c]
			if !over {
				x += st.hidden[j][c]
			}
			left[c] += x
			free[j] += x
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
		// held: the cards that may be in hand or hidden.
		held := st.knownHeld[j]
		for i := int8(0); i < free[j]; i++ {
			held[pool[k]]++
			k++
		}
		if !over {
			// Which of them are hidden is unknown too.
			y.hidden[j] = [Colours]int8{}
			var total int8
			for c := range held {
				total += held[c]
			}
			for i := int8(0); i < st.hideCountOf(game.Seat(j)); i++ {
				x := int8(r.IntN(int(total - i)))
				c := 0
				for ; x >= held[c]; c++ {
					x -= held[c]
				}
				held[c]--
				y.hidden[j][c]++
			}
		}
		for c := range held {
			y.hand[j][c] = st.knownHand[j][c] + held[c]
		}
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
