package limits

import (
	"encoding/json"
	"fmt"

	"tapis/game"
)

// stack is a scripted deal (REPLAY.md): hands, the top of the draw pile
// and the top of the limit deck, each optional. What it leaves open comes
// from the seed.
type stack struct {
	hands  [][Colours]int8 // per seat, counts per colour
	draw   []int8          // top first
	limits []int8          // limit card numbers, top first
}

func parseStack(raw json.RawMessage, players int) (stack, error) {
	var in struct {
		Hands  [][]string `json:"hands"`
		Draw   []string   `json:"draw"`
		Limits []int      `json:"limits"`
	}
	if err := game.DecodeStrict(raw, &in); err != nil {
		return stack{}, err
	}
	var used [Colours]int8
	use := func(name string) (int8, error) {
		c, err := ParseColour(name)
		if err != nil {
			return 0, err
		}
		used[c]++
		if used[c] > PerColour {
			return 0, fmt.Errorf("card %s: the game has only %d", name, PerColour)
		}
		return c, nil
	}
	var sk stack
	hs := int(handSize(players))
	if len(in.Hands) > players {
		return sk, fmt.Errorf("%d hands for %d players", len(in.Hands), players)
	}
	for s, h := range in.Hands {
		if len(h) != hs {
			return sk, fmt.Errorf("seat %d: %d cards, a hand holds %d", s, len(h), hs)
		}
		var hand [Colours]int8
		for _, name := range h {
			c, err := use(name)
			if err != nil {
				return sk, fmt.Errorf("seat %d: %v", s, err)
			}
			hand[c]++
		}
		sk.hands = append(sk.hands, hand)
	}
	// The hands the stack leaves open must still be dealt.
	if len(in.Draw)+players*hs > Cards {
		return sk, fmt.Errorf("%d draw cards and %d hands need more than %d cards", len(in.Draw), players, Cards)
	}
	for _, name := range in.Draw {
		c, err := use(name)
		if err != nil {
			return sk, fmt.Errorf("draw: %v", err)
		}
		sk.draw = append(sk.draw, c)
	}
	if len(in.Limits) > DeckSize(players) {
		return sk, fmt.Errorf("%d limit cards: %d players play with %d", len(in.Limits), players, DeckSize(players))
	}
	var had uint32
	for _, l := range in.Limits {
		if l < 1 || l > LimitCards {
			return sk, fmt.Errorf("limit card %d: limit cards are 1 to %d", l, LimitCards)
		}
		if had&(1<<uint(l-1)) != 0 {
			return sk, fmt.Errorf("limit card %d given twice", l)
		}
		had |= 1 << uint(l-1)
		sk.limits = append(sk.limits, int8(l))
	}
	return sk, nil
}

// deal sets the game up (RULES.md §3 Setup): the limit deck without the
// cards removed at random, the shuffled draw pile, the hands; then it turns
// up the first limit card. The stack, if any, fixes what it gives.
func (st *State) deal(sk *stack, log *game.Log) {
	left := [Colours]int8{PerColour, PerColour, PerColour, PerColour, PerColour}
	if sk != nil {
		for _, h := range sk.hands {
			for c := range left {
				left[c] -= h[c]
			}
		}
		for _, c := range sk.draw {
			left[c]--
		}
	}
	var deck [Cards]int8
	n := 0
	for c := int8(0); c < Colours; c++ {
		for k := int8(0); k < left[c]; k++ {
			deck[n] = c
			n++
		}
	}
	shuffle(&st.rng, deck[:n])
	for s := 0; s < int(st.n); s++ {
		if sk != nil && s < len(sk.hands) {
			st.hand[s] = sk.hands[s]
		} else {
			for i := int8(0); i < st.handSize; i++ {
				n--
				st.hand[s][deck[n]]++
			}
		}
		st.nHand[s] = st.handSize
		st.last[s] = none
	}
	for s := int(st.n); s < MaxPlayers; s++ {
		st.last[s] = none
	}
	st.nDraw = int8(copy(st.draw[:], deck[:n]))
	if sk != nil {
		for i := len(sk.draw) - 1; i >= 0; i-- {
			st.draw[st.nDraw] = sk.draw[i]
			st.nDraw++
		}
	}
	// Nobody knows any card of the draw pile yet, stacked or not.
	st.unk = st.nDraw

	// The limit deck: the stacked cards on top, the rest drawn at random
	// from the others; what is not drawn goes back to the box unseen.
	var rest [LimitCards]int8
	m := 0
	var stacked uint32
	var top []int8
	if sk != nil {
		top = sk.limits
		for _, l := range top {
			stacked |= 1 << uint(l-1)
		}
	}
	for l := int8(1); l <= LimitCards; l++ {
		if stacked&(1<<uint(l-1)) == 0 {
			rest[m] = l
			m++
		}
	}
	// Only the cards kept need drawing: a partial Fisher-Yates leaves a
	// uniform random choice, in random order, at the end of rest.
	keep := DeckSize(int(st.n)) - len(top)
	for i := m - 1; i >= m-keep; i-- {
		j := st.rng.IntN(i + 1)
		rest[i], rest[j] = rest[j], rest[i]
	}
	st.nLimits = int8(copy(st.limits[:], rest[m-keep:m]))
	for i := len(top) - 1; i >= 0; i-- {
		st.limits[st.nLimits] = top[i]
		st.nLimits++
	}
	st.leader = 0
	st.startRound(log)
}

// startRound turns up the next limit card and opens the hide.
func (st *State) startRound(log *game.Log) {
	st.nLimits--
	st.cur = st.limits[st.nLimits]
	st.seen |= 1 << uint(st.cur-1)
	st.phase = phaseHide
	st.hid = 0
	st.nPile = 0
	st.count = [Colours]int8{}
	st.led = false
	st.placed = 0
	st.turn = st.leader
	for s := range st.last {
		st.last[s] = none
	}
	if log != nil {
		log.Add(game.Public, Event{Type: "round", Round: st.rounds + 1, Seat: st.leader, Limit: int(st.cur), Base: baseJSON(st.cur)})
	}
}

// shuffle is Fisher-Yates with the given generator.
func shuffle(r *game.RNG, a []int8) {
	for i := len(a) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}
