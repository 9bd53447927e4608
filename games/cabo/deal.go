package cabo

import (
	"encoding/json"
	"fmt"

	"tapis/game"
)

// stack is a scripted deal (REPLAY.md): hands, the first discard and the
// top of the draw pile, each optional. Cards it leaves open come from the
// seed.
type stack struct {
	hands   [][]int8
	discard int8   // none: from the seed
	draw    []int8 // top first
}

func parseStack(raw json.RawMessage, players, handSize int) (stack, error) {
	var in struct {
		Hands   [][]int `json:"hands"`
		Discard *int    `json:"discard"`
		Draw    []int   `json:"draw"`
	}
	if err := game.DecodeStrict(raw, &in); err != nil {
		return stack{}, err
	}
	var used [Values]int8
	use := func(v int) (int8, error) {
		if v < 0 || v >= Values {
			return 0, fmt.Errorf("card %d: cards are 0 to 13", v)
		}
		used[v]++
		if used[v] > count[v] {
			return 0, fmt.Errorf("card %d: the deck has only %d", v, count[v])
		}
		return int8(v), nil
	}
	st := stack{discard: none}
	if len(in.Hands) > players {
		return st, fmt.Errorf("%d hands for %d players", len(in.Hands), players)
	}
	for s, h := range in.Hands {
		if len(h) != handSize {
			return st, fmt.Errorf("seat %d: %d cards, hand_size is %d", s, len(h), handSize)
		}
		hand := make([]int8, len(h))
		for i, v := range h {
			c, err := use(v)
			if err != nil {
				return st, err
			}
			hand[i] = c
		}
		st.hands = append(st.hands, hand)
	}
	if in.Discard != nil {
		c, err := use(*in.Discard)
		if err != nil {
			return st, err
		}
		st.discard = c
	}
	// Every hand must still be dealt from what is left after the draw.
	fixed := len(in.Hands)*handSize + len(in.Draw) + 1
	if fixed+(players-len(in.Hands))*handSize > DeckSize {
		return st, fmt.Errorf("the stack needs more than %d cards", DeckSize)
	}
	for _, v := range in.Draw {
		c, err := use(v)
		if err != nil {
			return st, err
		}
		st.draw = append(st.draw, c)
	}
	return st, nil
}

// deal starts the next round: shuffles (or follows the round's stack),
// deals the hands, turns up the first discard and opens the initial peek.
func (st *State) deal(starter game.Seat, log *game.Log) {
	var sk *stack
	if st.rounds < len(st.stacks) {
		sk = &st.stacks[st.rounds]
	}
	left := count
	if sk != nil {
		for _, h := range sk.hands {
			for _, c := range h {
				left[c]--
			}
		}
		if sk.discard != none {
			left[sk.discard]--
		}
		for _, c := range sk.draw {
			left[c]--
		}
	}
	var deck [DeckSize]int8
	n := 0
	for v := int8(0); v < Values; v++ {
		for k := int8(0); k < left[v]; k++ {
			deck[n] = v
			n++
		}
	}
	st.rng.Shuffle(deck[:n])
	pop := func() int8 {
		n--
		return deck[n]
	}
	hs := st.opt.HandSize
	for s := 0; s < MaxPlayers; s++ {
		for i := 0; i < MaxSlots; i++ {
			st.hands[s][i] = none
		}
		st.fill[s] = 0
		if s >= int(st.n) {
			continue
		}
		st.fill[s] = 1<<uint(hs) - 1
		for i := 0; i < hs; i++ {
			if sk != nil && s < len(sk.hands) {
				st.hands[s][i] = sk.hands[s][i]
			} else {
				st.hands[s][i] = pop()
			}
		}
	}
	st.nDisc, st.discSum = 0, 0
	if sk != nil && sk.discard != none {
		st.pushDiscard(sk.discard)
	} else {
		st.pushDiscard(pop())
	}
	st.nDraw = int8(copy(st.draw[:], deck[:n]))
	if sk != nil {
		for i := len(sk.draw) - 1; i >= 0; i-- {
			st.draw[st.nDraw] = sk.draw[i]
			st.nDraw++
		}
	}
	st.drawn = none
	st.caller = -1
	st.finalLeft = 0
	st.turns = 0
	st.known = [MaxPlayers][MaxPlayers]uint8{}
	st.kept = [MaxPlayers]uint8{}
	st.turn = starter
	st.peeked = 0
	st.phase = phasePeek
	if st.opt.InitialPeek == 0 {
		st.phase = phaseTurn
	}
	if log != nil {
		log.Add(game.Public, Event{Type: "deal", Round: st.rounds + 1, Seat: starter, Card: card(st.topDiscard())})
	}
}
