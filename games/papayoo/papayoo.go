// Package papayoo is the rules engine of Papayoo (RULES.md §2): 3 to 8
// players pass cards to the left, a die names the suit whose 7 is the
// Papayoo, and everyone tries to take as few points as possible in tricks.
//
// Cards are indexes 0..59 (see cards.go) and every set of cards is a
// uint64, so the state is a flat value: Clone is a copy, and random
// playouts allocate nothing.
//
// Where RULES.md is silent, the engine decides:
//   - The pass is held until every seat has committed, then all passes
//     move at once (nobody sees what they receive before their own pass
//     is in, nor before anyone else's).
//   - A pass is chosen one card at a time (Legal's steps) or sent whole;
//     a chosen card cannot be taken back, and a multi-card pass may
//     complete a pass begun one card at a time.
//   - The die's faces 0-1 are spades, 2-3 hearts, 4-5 diamonds, 6-7 clubs.
//   - A round's stack fixes the hands as dealt (before the pass) of its
//     first seats, and optionally the die.
//   - A finished trick leaves the table at once (the view keeps it as
//     last_trick); the points each seat has taken this round are public.
//   - The game ends with the last round; nothing is dealt after it.
package papayoo

import (
	"encoding/json"

	"tapis/game"
)

// Table limits.
const (
	MinPlayers = 3
	MaxPlayers = 8
	// MaxRounds bounds the rounds option to what people play: 40 rounds
	// are five deals each at 8 players, some five hours by the rulebook's
	// "4 rounds ≈ 30 minutes", and at most 40 × 80 = 3,200 moves (a round
	// is every card played and every card passed: 75 to 80 moves). The
	// history of every match is kept, replayed and sent: a 1,000-round
	// match (80,000 moves) cost every viewer of it.
	MaxRounds = 40
)

// handSize and passSize are RULES.md's dealing table, by player count.
var (
	handSize = [MaxPlayers + 1]int8{3: 20, 4: 15, 5: 12, 6: 10, 7: 8, 8: 7}
	passSize = [MaxPlayers + 1]int8{3: 5, 4: 5, 5: 4, 6: 3, 7: 3, 8: 3}
)

// HandSize is how many cards each player is dealt at a table of n.
func HandSize(n int) int { return int(handSize[n]) }

// PassSize is how many cards each player passes at a table of n.
func PassSize(n int) int { return int(passSize[n]) }

// Game is Papayoo's entry in the game contract.
type Game struct{}

// Options are RULES.md's [option] fields for Papayoo.
type Options struct {
	// Rounds is the number of rounds; it defaults to the number of
	// players, so that everyone deals once.
	Rounds int `json:"rounds"`
}

// Name implements game.Game.
func (Game) Name() string { return "papayoo" }

// Players implements game.Game.
func (Game) Players() (min, max int) { return MinPlayers, MaxPlayers }

// Options implements game.Game. The default of rounds is the number of
// players, which an Option cannot state: it is given as nil (unset).
func (Game) Options() []game.Option {
	return []game.Option{{Name: "rounds", Kind: "int", Default: nil, Min: 1, Max: MaxRounds}}
}

// ParseOptions decodes and checks an options object for a table of
// players; empty means defaults.
func ParseOptions(raw json.RawMessage, players int) (Options, error) {
	var in struct {
		Rounds *int `json:"rounds"`
	}
	o := Options{Rounds: players}
	if err := game.DecodeOptions("papayoo", raw, &in); err != nil {
		return o, err
	}
	if in.Rounds != nil {
		o.Rounds = *in.Rounds
	}
	if o.Rounds < 1 || o.Rounds > MaxRounds {
		return o, deny("options", game.ReasonBadOption, map[string]any{"option": "rounds", "value": o.Rounds, "min": 1, "max": MaxRounds}, "rounds %d: must be 1 to %d", o.Rounds, MaxRounds)
	}
	return o, nil
}

// New implements game.Game.
func (Game) New(c game.Config) (game.State, error) { return NewState(c) }

// NewState is New with Papayoo's own type, for tests and bots.
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
			if st.stacks[i], err = parseStack(raw, c.Players); err != nil {
				return nil, deny("", game.ReasonBadStack, map[string]any{"round": i + 1}, "round %d stack: %v", i+1, err)
			}
		}
	}
	st.deal(c.Log)
	return st, nil
}

// Heuristic implements game.HeuristicGame.
func (Game) Heuristic(s game.Seat, seed uint64) game.Player { return NewHeuristic(s, seed) }
