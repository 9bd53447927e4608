// Package limits is the rules engine of Limits (RULES.md §3): 2 to 6
// players place colour cards on a shared pile, each colour limited by a
// limit card plus the cards everyone hid face down, and accuse one another
// of having gone over.
//
// Colours are 0..4 (red, blue, purple, yellow, green); limit cards are
// their numbers 1..24 in RULES.md's LIMITS-DETAIL table (cards.go). The
// state is a flat value (fixed arrays and counts, no pointers), so Clone is
// a copy and playouts do not allocate.
//
// Where RULES.md is silent, this engine decides (each marked [decision] in
// the code):
//   - The exchange's 4 shown cards are all one colour, so which 2 go to the
//     pile and which 2 onto the draw pile is no choice: the move
//     {"type":"exchange","color":c} says all there is. The exchanger draws
//     its 4 cards before putting the 2 on the draw pile.
//   - The lead is a place: the leader cannot exchange or accuse with the
//     round's first card.
//   - At clean-up the active pile is turned face down and slid under the
//     draw pile, as at the table: its first card is drawn first.
//   - Refilling after an accusation starts with the next round's leader
//     (who took the limit card) and goes clockwise, each player filling up
//     in turn.
//   - A player with no card who cannot accuse anyone passes automatically:
//     REPLAY.md has no pass move (it cannot happen with 60 cards, as every
//     round starts with full hands and the leader has always placed).
//   - [decision, 2026-11-24] Round scores (Result.RoundScores) are what
//     the last round gave each seat: the accusation's +1 and -2 plus the
//     exchange points earned in that round, so that they add up to the
//     scores over a game.
package limits

import (
	"encoding/json"

	"tapis/game"
)

// Table limits.
const (
	MinPlayers = 2
	MaxPlayers = 6
	// MaxHand bounds a hand: 6 cards with 2 players, 5 otherwise.
	MaxHand = 6
)

// Game is Limits' entry in the game contract.
type Game struct{}

// Options are RULES.md's [option] fields for Limits: it has none, so the
// options object must be empty.
type Options struct{}

// Name implements game.Game.
func (Game) Name() string { return "limits" }

// Players implements game.Game.
func (Game) Players() (min, max int) { return MinPlayers, MaxPlayers }

// Options implements game.Game: Limits has no options.
func (Game) Options() []game.Option { return []game.Option{} }

// ParseOptions decodes and checks an options object; only an empty one (or
// none) is valid.
func ParseOptions(raw json.RawMessage) (Options, error) {
	var o Options
	return o, game.DecodeOptions("limits", raw, &o)
}

// handSize is the size of a full hand, hideCount the cards each player
// hides per round (RULES.md §3: 2 players hold 6 and hide 2).
func handSize(players int) int8 {
	if players == 2 {
		return 6
	}
	return 5
}

func hideCount(players int) int8 {
	if players == 2 {
		return 2
	}
	return 1
}

// New implements game.Game.
func (g Game) New(c game.Config) (game.State, error) { return NewState(c) }

// NewState is New with Limits' own type, for tests and bots in this
// package.
func NewState(c game.Config) (*State, error) {
	if err := game.CheckPlayers(Game{}, c.Players); err != nil {
		return nil, err
	}
	if _, err := ParseOptions(c.Options); err != nil {
		return nil, err
	}
	st := &State{
		n: int8(c.Players), handSize: handSize(c.Players), hideN: hideCount(c.Players),
		rng: game.NewRNG(c.Seed),
	}
	var sk *stack
	if len(c.Stacks) > 0 {
		// Limits deals once: only the first round's stack fixes anything.
		// Later ones are refused rather than silently ignored.
		if len(c.Stacks) > 1 {
			return nil, deny("", game.ReasonBadStack, map[string]any{"round": 2}, "%d stacks: the game deals only once, at the start (give one)", len(c.Stacks))
		}
		s, err := parseStack(c.Stacks[0], c.Players)
		if err != nil {
			return nil, deny("", game.ReasonBadStack, map[string]any{"round": 1}, "round 1 stack: %v", err)
		}
		sk = &s
	}
	st.deal(sk, c.Log)
	return st, nil
}
