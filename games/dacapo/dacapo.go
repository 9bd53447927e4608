// Package dacapo is the rules engine of Da Capo! (RULES.md §4): 2 to 6
// players race to empty their personal pile by building 1-to-10 piles in
// the centre, with a hand of 4, three helper piles each, and any opponent's
// face-up top card.
//
// Cards are the integers 1..10 and Joker (11; "J" in JSON). A turn is many
// moves: any number of builds, then the helper move that ends it, or End
// when the hand is empty and cannot be refilled. The state
// is a flat value (fixed arrays, counts for hands, helper piles linked in
// one pool of slots, no pointers but the immutable stacks of a scripted
// game), so Clone is a copy and playouts do not allocate.
//
// Where RULES.md leaves the engine a choice:
//   - The refill at the start of a turn, and the 4 cards an emptied hand
//     draws, happen by themselves (they are not moves). Whenever a card must
//     be drawn from an empty draw pile, the set-aside piles are shuffled
//     into a new one; if there are none, the hand stays short. A hand that
//     is empty during a turn draws as soon as cards exist again (a pile
//     completed later in the same turn).
//   - A turn whose hand is empty with nothing left to draw goes on while
//     any build is legal (own pile, helpers, an opponent's top), and the
//     player stops it when they choose with End (RULES.md, decision of
//     2026-11-24: building is optional). It ends by itself, without a
//     move, only when no build at all is legal.
//   - Building piles are positions 0..2, helper piles 0..2: a card may go
//     onto any empty position, and a hand card is named by value.
//   - A stack (REPLAY.md) gives the top part of each personal pile, of each
//     hand and of the draw pile, each optional; the seed deals the rest. A
//     stack for game i+1 of a match fixes that game's deal.
//   - A pile that reaches 10 is set aside before anything else happens; a
//     card that empties a personal pile then ends the game at once (the
//     owner wins, whoever played it), before an emptied hand draws.
//   - The stalemate rule counts turns that end with the draw pile and the
//     set-aside piles empty and no personal card (own or an opponent's)
//     played; as many such turns in a row as there are players end the game.
//   - Each winner scores the cards left in every other player's personal
//     pile (co-winners of a stalemate included). A match ends after the
//     game in which someone reaches match_target; the highest total wins,
//     ties share. Seat 0 starts the first game, then the start moves left
//     with each game, as the dealer would.
package dacapo

import (
	"encoding/json"

	"tapis/game"
)

// Table limits and the deck.
const (
	MinPlayers = 2
	MaxPlayers = 6
	// Joker is the card code of a Joker; 1..10 are the values.
	Joker = 11
	// Kinds is the size of an array indexed by card code (0 is unused).
	Kinds    = 12
	DeckSize = 165
	// HandSize is the hand a turn refills to.
	HandSize = 4
	// Piles is how many building piles may exist at once; Helpers how many
	// helper piles each player may have.
	Piles   = 3
	Helpers = 3
	// MaxPileSize is the largest pile_size any table may have: the one
	// RULES.md §4 allows at MinPlayers (players × (pile_size + 4) ≤ 165,
	// 2 × 82 = 164); the deck, not this constant, refuses more at more
	// players. It sizes the state's arrays.
	MaxPileSize = DeckSize/MinPlayers - HandSize
	// MaxMatchTarget bounds option match_target, so that a match stays
	// the length people play (the rulebook suggests 50): the history of
	// every match is kept, replayed and sent, and a match of tens of
	// thousands of moves costs every viewer of it. With the rulebook's
	// target, a match of purposeful play is some 1,500 to 3,000 moves
	// (measured in the issue 24 report).
	MaxMatchTarget = 50
	// Top is the value that completes a building pile.
	Top = 10
)

// perKind is how many cards of each code the deck holds: 15 of each.
const perKind = 15

// Game is Da Capo!'s entry in the game contract.
type Game struct{}

// Options are RULES.md's [option] fields for Da Capo!.
type Options struct {
	// PileSize is the number of cards in each personal pile.
	PileSize int `json:"pile_size"`
	// MatchTarget is the score that ends a match; 0 plays a single game.
	MatchTarget int `json:"match_target"`
}

// DefaultOptions are RULES.md's.
func DefaultOptions() Options { return Options{PileSize: 20} }

// Name implements game.Game.
func (Game) Name() string { return "dacapo" }

// Players implements game.Game.
func (Game) Players() (min, max int) { return MinPlayers, MaxPlayers }

// Options implements game.Game.
func (Game) Options() []game.Option {
	return []game.Option{
		{Name: "pile_size", Kind: "int", Default: 20, Min: 1, Max: MaxPileSize},
		{Name: "match_target", Kind: "int", Default: 0, Min: 0, Max: MaxMatchTarget},
	}
}

// ParseOptions decodes and checks an options object for a table of
// players; empty means defaults.
func ParseOptions(raw json.RawMessage, players int) (Options, error) {
	var in struct {
		PileSize    *int `json:"pile_size"`
		MatchTarget *int `json:"match_target"`
	}
	o := DefaultOptions()
	if err := game.DecodeOptions("dacapo", raw, &in); err != nil {
		return o, err
	}
	if in.PileSize != nil {
		o.PileSize = *in.PileSize
	}
	if in.MatchTarget != nil {
		o.MatchTarget = *in.MatchTarget
	}
	switch {
	case o.PileSize < 1 || o.PileSize > MaxPileSize:
		return o, deny("options", game.ReasonBadOption, map[string]any{"option": "pile_size", "value": o.PileSize, "min": 1, "max": MaxPileSize},
			"pile_size %d: must be 1 to %d", o.PileSize, MaxPileSize)
	case players*(o.PileSize+HandSize) > DeckSize:
		return o, deny("options", game.ReasonBadOption, map[string]any{"option": "pile_size", "value": o.PileSize, "min": 1, "max": DeckSize/players - HandSize},
			"pile_size %d: %d players need %d cards, the deck has %d", o.PileSize, players, players*(o.PileSize+HandSize), DeckSize)
	case o.MatchTarget < 0 || o.MatchTarget > MaxMatchTarget:
		return o, deny("options", game.ReasonBadOption, map[string]any{"option": "match_target", "value": o.MatchTarget, "min": 0, "max": MaxMatchTarget},
			"match_target %d: must be 0 (a single game) to %d", o.MatchTarget, MaxMatchTarget)
	}
	return o, nil
}

// New implements game.Game.
func (Game) New(c game.Config) (game.State, error) { return NewState(c) }

// NewState is New with Da Capo!'s own type, for tests and bots.
func NewState(c game.Config) (*State, error) {
	if err := game.CheckPlayers(Game{}, c.Players); err != nil {
		return nil, err
	}
	o, err := ParseOptions(c.Options, c.Players)
	if err != nil {
		return nil, err
	}
	st := &State{opt: o, n: int8(c.Players), rng: game.NewRNG(c.Seed)}
	if len(c.Stacks) > 0 {
		st.stacks = make([]stack, len(c.Stacks))
		for i, raw := range c.Stacks {
			if st.stacks[i], err = parseStack(raw, c.Players, o.PileSize); err != nil {
				return nil, deny("", game.ReasonBadStack, map[string]any{"round": i + 1}, "game %d stack: %v", i+1, err)
			}
		}
	}
	st.deal(c.Log)
	return st, nil
}
