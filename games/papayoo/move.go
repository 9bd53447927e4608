package papayoo

import (
	"encoding/json"
	"fmt"
	"math/bits"

	"tapis/game"
)

// Kind is what a move does.
type Kind uint8

// The kinds of move. A pass is chosen one card at a time (PassCard, the
// steps that Legal lists) or all at once (Pass, what a client sends).
const (
	PassCard Kind = iota + 1 // one card of the pass
	Play                     // play a card to the trick
	Pass                     // several cards of the pass at once
)

// A Move packs into a game.Move as kind<<61 | cards<<1 | single: cards is
// the set of cards (bit i for card i), single (bit 0) is set for the
// one-card kinds, PassCard and Play, and clear for Pass.
//
// Why bit 0: Legal lists only one-card steps, so a multi-card Pass is never
// in Legal though Apply accepts it. Its code differs from every step's in
// both the top bits and bit 0, more than 8 bits apart, so no small
// corruption of a legal code (what the conformance suite tries) is a pass
// Apply would take.
const (
	kindShift = 61
	single    = 1
	cardBits  = game.Move(allCards) << 1
	passCard  = game.Move(PassCard)<<kindShift | single
	play      = game.Move(Play)<<kindShift | single
	passAll   = game.Move(Pass) << kindShift
	cardShift = 1
	kindMask  = 7 << kindShift
)

func kindOf(gm game.Move) Kind    { return Kind(gm >> kindShift) }
func cardsOf(gm game.Move) uint64 { return uint64(gm>>cardShift) & allCards }
func cardOf(gm game.Move) int8    { return int8(bits.TrailingZeros64(uint64(gm >> cardShift))) }

// wellFormed reports whether gm is the one code of a Papayoo move.
func wellFormed(gm game.Move) bool {
	if gm&^(kindMask|cardBits|single) != 0 {
		return false
	}
	k := bits.OnesCount64(cardsOf(gm))
	switch kindOf(gm) {
	case PassCard, Play:
		return gm&single != 0 && k == 1
	case Pass:
		return gm&single == 0 && k >= 2
	}
	return false
}

// PassMove is the move that passes the cards of set (one card: a step).
func PassMove(set uint64) game.Move {
	if bits.OnesCount64(set) == 1 {
		return passCard | game.Move(set)<<cardShift
	}
	return passAll | game.Move(set)<<cardShift
}

// PlayMove is the move that plays card c.
func PlayMove(c int8) game.Move { return play | game.Move(1)<<uint(c+cardShift) }

// MoveKind tells a move's kind and its card set (0 for a code that is not
// a Papayoo move).
func MoveKind(gm game.Move) (Kind, uint64) {
	if !wellFormed(gm) {
		return 0, 0
	}
	k := kindOf(gm)
	if k == PassCard {
		k = Pass
	}
	return k, cardsOf(gm)
}

// moveJSON is the wire form of every Papayoo move (REPLAY.md).
type moveJSON struct {
	Type  string   `json:"type"`
	Cards []string `json:"cards,omitempty"`
	Card  *string  `json:"card,omitempty"`
}

// MarshalMove implements game.Game.
func (Game) MarshalMove(gm game.Move) ([]byte, error) {
	if !wellFormed(gm) {
		return nil, fmt.Errorf("papayoo: %#x is not a move", uint64(gm))
	}
	if kindOf(gm) == Play {
		name := CardName(cardOf(gm))
		return json.Marshal(moveJSON{Type: "play", Card: &name})
	}
	return json.Marshal(moveJSON{Type: "pass", Cards: names(cardsOf(gm))})
}

// UnmarshalMove implements game.Game. A pass of one card is a step of the
// pass; of several, the pass at once (see Move).
func (Game) UnmarshalMove(data []byte) (game.Move, error) {
	var j moveJSON
	if err := game.DecodeStrict(data, &j); err != nil {
		return 0, deny("move", game.ReasonUnreadable, nil, "%v", err)
	}
	switch j.Type {
	case "pass":
		if j.Card != nil {
			return 0, deny("pass", game.ReasonBadFields, map[string]any{"type": "pass"}, `takes "cards", not "card"`)
		}
		if len(j.Cards) == 0 {
			return 0, deny("pass", game.ReasonBadFields, map[string]any{"type": "pass"}, "no card given")
		}
		var set uint64
		for _, name := range j.Cards {
			c, err := ParseCard(name)
			if err != nil {
				return 0, deny("pass", reasonBadCard, map[string]any{"card": name}, "%v", err)
			}
			if set&(1<<uint(c)) != 0 {
				return 0, deny("pass", game.ReasonTwice, map[string]any{"field": "card", "value": name}, "card %s given twice", name)
			}
			set |= 1 << uint(c)
		}
		return PassMove(set), nil
	case "play":
		if j.Cards != nil || j.Card == nil {
			return 0, deny("play", game.ReasonBadFields, map[string]any{"type": "play"}, `takes "card" only`)
		}
		c, err := ParseCard(*j.Card)
		if err != nil {
			return 0, deny("play", reasonBadCard, map[string]any{"card": *j.Card}, "%v", err)
		}
		return PlayMove(c), nil
	}
	return 0, deny("move", game.ReasonBadMove, map[string]any{"type": j.Type}, "unknown type %q", j.Type)
}
