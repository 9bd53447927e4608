package cabo

import "tapis/game"

// Sample implements game.State. Seat s keeps every card it knows: its
// known slots, the discard pile, its drawn card. Every other card (unknown
// slots, the draw pile, another seat's drawn card) is redrawn: the unknown
// cards are gathered in value order, so that their true places cannot
// matter, shuffled with r, and dealt back in a fixed order of places.
//
// A hidden card is not a uniform draw, though: what the table saw players
// do with it says something (slotBias). A card an opponent drew and kept
// is low; a card its owner has looked at and still holds is lowish; a card
// of s's that an opponent knows was often swapped in, and is high. The
// slots are dealt by rejection from the shuffled cards with those odds;
// the draw pile gets the rest.
func (st *State) Sample(s game.Seat, r *game.RNG) game.State {
	y := *st
	y.stacks = nil // later scripted deals are the future: nobody knows them
	var pool [DeckSize]int8
	n := 0
	var left [Values]int8
	unknown := func(t, i int) bool {
		return y.hands[t][i] != none && (s < 0 || st.known[s][t]&(1<<uint(i)) == 0)
	}
	rest := func(f func(c *int8)) {
		for i := range y.draw[:y.nDraw] {
			f(&y.draw[i])
		}
		if y.drawn != none && s != st.turn {
			f(&y.drawn)
		}
	}
	for t := 0; t < int(st.n); t++ {
		for i := 0; i < st.opt.HandSize; i++ {
			if unknown(t, i) {
				left[y.hands[t][i]]++
			}
		}
	}
	rest(func(c *int8) { left[*c]++ })
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
	for t := 0; t < int(st.n); t++ {
		for i := 0; i < st.opt.HandSize; i++ {
			if !unknown(t, i) {
				continue
			}
			if w := st.slotBias(s, game.Seat(t), i); w != nil {
				// Rejection: a random remaining card, kept with its odds.
				for try := 0; try < 24; try++ {
					j := k + r.IntN(n-k)
					if r.IntN(256) < int(w[pool[j]]) {
						pool[j], pool[k] = pool[k], pool[j]
						break
					}
				}
			}
			y.hands[t][i] = pool[k]
			k++
		}
	}
	rest(func(c *int8) {
		*c = pool[k]
		k++
	})
	y.rng = r.Child()
	return &y
}

// biasOdds[b] are the odds (out of 256) of each value in a hidden slot of
// kind b, relative to the deck, as measured in 3,000 games between
// heuristic bots (from the observer's side, at every turn): b has bit 2
// for the observer's own slot, bit 1 for a card its owner drew and kept
// (State.kept), bit 0 for a slot its owner (for an opponent's slot) or an
// opponent (for the observer's own) knows. Other kinds are near uniform.
var biasOdds = [8]*[Values]uint8{
	1: {233, 243, 252, 255, 241, 236, 211, 136, 88, 77, 62, 56, 51, 48},
	3: {233, 246, 255, 255, 232, 224, 188, 26, 17, 14, 7, 2, 2, 2},
	5: {58, 57, 56, 59, 58, 80, 129, 255, 238, 202, 174, 143, 121, 119},
	7: {145, 153, 165, 173, 174, 200, 255, 81, 55, 51, 24, 2, 2, 3},
}

// slotBias is the odds of each value in seat t's slot i, hidden from seat
// s, from what the table saw (public); nil: uniform.
func (st *State) slotBias(s, t game.Seat, i int) *[Values]uint8 {
	if s < 0 {
		return nil
	}
	return biasOdds[st.biasKind(s, t, i)]
}

// biasKind is the kind of seat t's slot i for seat s (biasOdds).
func (st *State) biasKind(s, t game.Seat, i int) int {
	bit := uint8(1) << uint(i)
	b := 0
	if st.kept[t]&bit != 0 {
		b |= 2
	}
	if t == s {
		b |= 4
		for o := 0; o < int(st.n); o++ {
			if game.Seat(o) != s && st.known[o][s]&bit != 0 {
				b |= 1
			}
		}
	} else if st.known[t][t]&bit != 0 {
		b |= 1
	}
	return b
}
