package dacapo

import "tapis/game"

// Sample implements game.State. Seat s keeps everything face up (personal
// tops, helper piles, building piles, set-aside piles) and its own hand.
// The cards nobody or only someone else sees (personal piles below their
// tops, the other hands, the draw pile) are gathered by value, so that
// their true places cannot matter, shuffled with r, and dealt back in a
// fixed order of places: personal piles seat by seat, hands, draw pile.
//
// Like Cabo's, the sample is uniform over those places: it does not track
// that a draw pile made of reshuffled set-aside cards holds known values.
func (st *State) Sample(s game.Seat, r *game.RNG) game.State {
	y := *st
	y.stacks = nil // later scripted deals are the future: nobody knows them
	y.rlen = 0     // a playout's plan (RolloutMove) read a hand redrawn here
	n := int(st.n)
	var left [Kinds]int8
	for t := 0; t < n; t++ {
		if st.nStock[t] > 0 {
			for _, c := range st.stock[t][:st.nStock[t]-1] {
				left[c]++
			}
		}
		if game.Seat(t) != s {
			for c := 1; c < Kinds; c++ {
				left[c] += st.hand[t][c]
			}
		}
	}
	for _, c := range st.drawPile() {
		left[c]++
	}
	var pool [DeckSize]int8
	shuffled(&pool, &left, r)
	k := 0
	for t := 0; t < n; t++ {
		if y.nStock[t] > 0 {
			for i := range y.stock[t][:y.nStock[t]-1] {
				y.stock[t][i] = pool[k]
				k++
			}
		}
	}
	for t := 0; t < n; t++ {
		if game.Seat(t) == s {
			continue
		}
		h := y.nHand[t]
		y.clearHand(game.Seat(t))
		for i := int8(0); i < h; i++ {
			y.addHand(game.Seat(t), pool[k])
			k++
		}
	}
	for i := range y.cards[:y.nDraw] {
		y.cards[i] = pool[k]
		k++
	}
	y.rng = r.Child()
	return &y
}

// shuffled lays out the cards counted in left, value by value, at the
// start of pool and shuffles them with r: their order then owes nothing
// to where they were.
func shuffled(pool *[DeckSize]int8, left *[Kinds]int8, r *game.RNG) {
	k := 0
	for c := int8(1); c < Kinds; c++ {
		for range left[c] {
			pool[k] = c
			k++
		}
	}
	for i := k - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		pool[i], pool[j] = pool[j], pool[i]
	}
}
