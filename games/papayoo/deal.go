package papayoo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"

	"tapis/game"
)

// stack is a scripted round (REPLAY.md): the hands as dealt, before the
// pass, for the first len(hands) seats, and the die. What it leaves open
// comes from the seed.
type stack struct {
	hands []uint64
	die   int8 // none: rolled from the seed
}

func parseStack(raw json.RawMessage, players int) (stack, error) {
	var in struct {
		Hands [][]string `json:"hands"`
		Die   *string    `json:"die"`
	}
	sk := stack{die: none}
	if err := game.DecodeStrict(raw, &in); err != nil {
		return sk, err
	}
	if len(in.Hands) > players {
		return sk, fmt.Errorf("%d hands for %d players", len(in.Hands), players)
	}
	deck, hs := deckFor(players), int(handSize[players])
	var used uint64
	for s, h := range in.Hands {
		if len(h) != hs {
			return sk, fmt.Errorf("seat %d: %d cards, each player is dealt %d", s, len(h), hs)
		}
		var hand uint64
		for _, name := range h {
			c, err := ParseCard(name)
			if err != nil {
				return sk, err
			}
			bit := uint64(1) << uint(c)
			switch {
			case deck&bit == 0:
				return sk, fmt.Errorf("card %s: the 1s are out of the deck at %d players", name, players)
			case used&bit != 0:
				return sk, fmt.Errorf("card %s is dealt twice", name)
			}
			used |= bit
			hand |= bit
		}
		sk.hands = append(sk.hands, hand)
	}
	if in.Die != nil {
		d := bytes.IndexByte([]byte(suitLetters[:Payoo]), firstByte(*in.Die))
		if len(*in.Die) != 1 || d < 0 {
			return sk, fmt.Errorf("die %q: the die names S, H, D or C", *in.Die)
		}
		sk.die = int8(d)
	}
	return sk, nil
}

func firstByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[0]
}

// deal starts the round st.rounds+1: the dealer is the next seat, the
// hands come from the round's stack or a shuffle, and the pass opens.
func (st *State) deal(log *game.Log) {
	n := int(st.n)
	var sk *stack
	if st.rounds < len(st.stacks) {
		sk = &st.stacks[st.rounds]
	}
	free := deckFor(n)
	fixed := 0
	if sk != nil {
		fixed = len(sk.hands)
		for _, h := range sk.hands {
			free &^= h
		}
	}
	// The free cards in index order, shuffled with the state's generator.
	var deck [DeckSize]int8
	k := 0
	for f := free; f != 0; f &= f - 1 {
		deck[k] = int8(bits.TrailingZeros64(f))
		k++
	}
	for i := k - 1; i > 0; i-- {
		j := st.rng.IntN(i + 1)
		deck[i], deck[j] = deck[j], deck[i]
	}
	hs := int(handSize[n])
	st.nSeq = 0
	for s := 0; s < MaxPlayers; s++ {
		st.hands[s], st.pass[s], st.playedBy[s], st.voids[s], st.taken[s] = 0, 0, 0, 0, 0
		if s >= n {
			continue
		}
		if s < fixed {
			st.hands[s] = sk.hands[s]
			continue
		}
		var h uint64
		for _, c := range deck[k-hs : k] {
			h |= 1 << uint(c)
		}
		k -= hs
		st.hands[s] = h
	}
	st.phase = phasePass
	st.dealer = game.Seat(st.rounds % n)
	st.turn, st.leader = st.dealer, st.dealer
	st.passed = 0
	st.die, st.papayoo = none, none
	st.led, st.nTrick, st.best, st.winner, st.trickPts = none, 0, none, st.dealer, 0
	st.last = lastTrick{}
	if log != nil {
		log.Add(game.Public, Event{Type: "deal", Round: st.rounds + 1, Seat: st.dealer})
		for s := 0; s < n; s++ {
			log.Add(game.Only(game.Seat(s)), Event{Type: "hand", Seat: game.Seat(s), Cards: names(st.hands[s])})
		}
	}
}

// rollDie names this round's Papayoo: the round's stack, or the 8-faced
// die, each plain suit on two faces ([decision] of RULES.md).
func (st *State) rollDie(log *game.Log) {
	d := none
	if st.rounds < len(st.stacks) {
		d = st.stacks[st.rounds].die
	}
	if d == none {
		d = int8(st.rng.IntN(8) / 2)
	}
	st.die, st.papayoo = d, seven(d)
	if log != nil {
		log.Add(game.Public, Event{Type: "die", Suit: SuitLetter(d), Card: CardName(st.papayoo)})
	}
}
