package dacapo

import (
	"encoding/json"
	"fmt"

	"tapis/game"
)

// stack is a scripted deal (REPLAY.md): the top of each personal pile, of
// each hand and of the draw pile, each optional and each a prefix. Cards it
// leaves open come from the seed.
type stack struct {
	stocks [][]int8 // top first
	hands  [][]int8
	draw   []int8 // top first
}

func parseStack(raw json.RawMessage, players, pileSize int) (stack, error) {
	var in struct {
		Stocks [][]Card `json:"stocks"`
		Hands  [][]Card `json:"hands"`
		Draw   []Card   `json:"draw"`
	}
	var sk stack
	if err := game.DecodeStrict(raw, &in); err != nil {
		return sk, err
	}
	var used [Kinds]int
	conv := func(cards []Card) ([]int8, error) {
		out := make([]int8, len(cards))
		for i, c := range cards {
			used[c]++
			if used[c] > perKind {
				return nil, fmt.Errorf("card %s: the deck has only %d", c, perKind)
			}
			out[i] = int8(c)
		}
		return out, nil
	}
	if len(in.Stocks) > players || len(in.Hands) > players {
		return sk, fmt.Errorf("%d personal piles and %d hands for %d players", len(in.Stocks), len(in.Hands), players)
	}
	for s, cards := range in.Stocks {
		if len(cards) > pileSize {
			return sk, fmt.Errorf("seat %d: %d personal cards, pile_size is %d", s, len(cards), pileSize)
		}
		c, err := conv(cards)
		if err != nil {
			return sk, err
		}
		sk.stocks = append(sk.stocks, c)
	}
	for s, cards := range in.Hands {
		if len(cards) > HandSize {
			return sk, fmt.Errorf("seat %d: %d hand cards, a hand holds %d", s, len(cards), HandSize)
		}
		c, err := conv(cards)
		if err != nil {
			return sk, err
		}
		sk.hands = append(sk.hands, c)
	}
	if players*(pileSize+HandSize)+len(in.Draw) > DeckSize {
		return sk, fmt.Errorf("the stack needs more than %d cards", DeckSize)
	}
	c, err := conv(in.Draw)
	if err != nil {
		return sk, err
	}
	sk.draw = c
	return sk, nil
}

// deal starts the next game of the match: the whole deck is shuffled (or
// follows the game's stack), personal piles and hands are dealt, and the
// game's first player starts.
func (st *State) deal(log *game.Log) {
	var sk *stack
	if st.games < len(st.stacks) {
		sk = &st.stacks[st.games]
	}
	var left [Kinds]int8
	for c := 1; c < Kinds; c++ {
		left[c] = perKind
	}
	if sk != nil {
		for _, cards := range [][][]int8{sk.stocks, sk.hands, {sk.draw}} {
			for _, row := range cards {
				for _, c := range row {
					left[c]--
				}
			}
		}
	}
	var deck [DeckSize]int8
	n := 0
	for c := int8(1); c < Kinds; c++ {
		for k := int8(0); k < left[c]; k++ {
			deck[n] = c
			n++
		}
	}
	for i := n - 1; i > 0; i-- {
		j := st.rng.IntN(i + 1)
		deck[i], deck[j] = deck[j], deck[i]
	}
	pop := func() int8 {
		n--
		return deck[n]
	}
	ps := st.opt.PileSize
	for s := 0; s < int(st.n); s++ {
		var fixed []int8
		if sk != nil && s < len(sk.stocks) {
			fixed = sk.stocks[s]
		}
		// The stack gives the top first; the pile is stored bottom first.
		for i := 0; i < ps; i++ {
			if d := ps - 1 - i; d < len(fixed) {
				st.stock[s][i] = fixed[d]
			} else {
				st.stock[s][i] = pop()
			}
		}
		st.nStock[s] = int8(ps)
		st.top[s] = st.stock[s][ps-1]
	}
	for s := 0; s < int(st.n); s++ {
		st.clearHand(game.Seat(s))
		var fixed []int8
		if sk != nil && s < len(sk.hands) {
			fixed = sk.hands[s]
		}
		for i := 0; i < HandSize; i++ {
			c := int8(0)
			if i < len(fixed) {
				c = fixed[i]
			} else {
				c = pop()
			}
			st.addHand(game.Seat(s), c)
		}
	}
	st.nPile = [Piles]int8{}
	st.clearHelpers()
	st.nAside = 0
	st.nDraw = uint8(copy(st.cards[:], deck[:n]))
	if sk != nil {
		for i := len(sk.draw) - 1; i >= 0; i-- {
			st.cards[st.nDraw] = sk.draw[i]
			st.nDraw++
		}
	}
	// [decision] Seat 0 starts the first game; the start then passes left
	// with each game of a match, as the dealer would.
	st.starter = game.Seat(st.games % int(st.n))
	st.turn = st.starter
	st.played = false
	st.quiet = 0
	st.helpScore = [MaxPlayers]int16{}
	if log != nil {
		ev := Event{Type: "deal", Seat: st.starter, Game: st.games + 1}
		for s := 0; s < int(st.n); s++ {
			ev.Tops = append(ev.Tops, Card(st.stockTop(game.Seat(s))))
		}
		log.Add(game.Public, ev)
		for s := game.Seat(0); s < game.Seat(st.n); s++ {
			log.Add(game.Only(s), Event{Type: "hand", Seat: s, Cards: st.handCards(s)})
		}
	}
}
