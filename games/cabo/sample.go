package cabo

import "tapis/game"

// Sample implements game.State. Seat s keeps every card it knows: its
// known slots, the discard pile, its drawn card. Every other card (unknown
// slots, the draw pile, another seat's drawn card) is redrawn: the unknown
// cards are gathered in value order, so that their true places cannot
// matter, shuffled with r, and dealt back in a fixed order of places.
func (st *State) Sample(s game.Seat, r *game.RNG) game.State {
	y := *st
	y.stacks = nil // later scripted deals are the future: nobody knows them
	var pool [DeckSize]int8
	n := 0
	var left [Values]int8
	each := func(f func(c *int8)) {
		for t := 0; t < int(st.n); t++ {
			for i := 0; i < st.opt.HandSize; i++ {
				c := &y.hands[t][i]
				if *c != none && (s < 0 || st.known[s][t]&(1<<uint(i)) == 0) {
					f(c)
				}
			}
		}
		for i := range y.draw[:y.nDraw] {
			f(&y.draw[i])
		}
		if y.drawn != none && s != st.turn {
			f(&y.drawn)
		}
	}
	each(func(c *int8) { left[*c]++ })
	for v := int8(0); v < Values; v++ {
		for k := int8(0); k < left[v]; k++ {
			pool[n] = v
			n++
		}
	}
	for i := n - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		pool[i], pool[j] = pool[j], pool[i]
	}
	k := 0
	each(func(c *int8) {
		*c = pool[k]
		k++
	})
	y.rng = r.Child()
	return &y
}
