// Package cabo is the rules engine of Cabo (RULES.md §1): 2 to 5 players
// keep a row of face-down cards, remember what they peek at, and try to hold
// the lowest total when someone calls Cabo.
//
// Cards are the integers 0..13. Slots are fixed positions 0..hand_size-1; a
// slot emptied by a set stays empty. The state is a flat value (fixed arrays,
// no pointers but the immutable stacks of a scripted game), so Clone is a
// copy and playouts do not allocate.
package cabo

import (
	"encoding/json"

	"tapis/game"
)

// Table limits.
const (
	MinPlayers = 2
	MaxPlayers = 5
	MaxSlots   = 6
	DeckSize   = 52
	// Values runs 0..13; count[v] says how many of each the deck holds.
	Values = 14
)

// count is the deck ([decision] of RULES.md): two 0s, four each of 1..12,
// two 13s.
var count = [Values]int8{2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2}

// Game is Cabo's entry in the game contract.
type Game struct{}

// Options are RULES.md's [option] fields for Cabo.
type Options struct {
	HandSize      int  `json:"hand_size"`
	InitialPeek   int  `json:"initial_peek"`
	SwapOpponents bool `json:"swap_opponents"`
	ResetAt100To  int  `json:"reset_at_100_to"`
	// MaxResets is how often each player may drop back from exactly 100;
	// -1 (or null in JSON) is unlimited.
	MaxResets int `json:"max_resets"`
}

// DefaultOptions are the rulebook's.
func DefaultOptions() Options {
	return Options{HandSize: 4, InitialPeek: 2, ResetAt100To: 50, MaxResets: -1}
}

// Name implements game.Game.
func (Game) Name() string { return "cabo" }

// Players implements game.Game.
func (Game) Players() (min, max int) { return MinPlayers, MaxPlayers }

// Options implements game.Game.
func (Game) Options() []game.Option {
	return []game.Option{
		{Name: "hand_size", Kind: "int", Default: 4, Min: 4, Max: MaxSlots},
		{Name: "initial_peek", Kind: "int", Default: 2, Min: 0, Max: MaxSlots},
		{Name: "swap_opponents", Kind: "bool", Default: false},
		{Name: "reset_at_100_to", Kind: "int", Default: 50, Min: 0, Max: 99},
		{Name: "max_resets", Kind: "int", Default: nil, Min: 0, Max: MaxResets},
	}
}

// MaxResets bounds the max_resets option: more drops back than a match
// could ever reach, declared (Options) and enforced alike.
const MaxResets = 1000

// ParseOptions decodes and checks an options object; empty means defaults.
func ParseOptions(raw json.RawMessage) (Options, error) {
	var in struct {
		HandSize      *int  `json:"hand_size"`
		InitialPeek   *int  `json:"initial_peek"`
		SwapOpponents *bool `json:"swap_opponents"`
		ResetAt100To  *int  `json:"reset_at_100_to"`
		MaxResets     *int  `json:"max_resets"`
	}
	o := DefaultOptions()
	if err := game.DecodeOptions("cabo", raw, &in); err != nil {
		return o, err
	}
	if in.HandSize != nil {
		o.HandSize = *in.HandSize
		// The 6-card variant peeks at 3 unless told otherwise.
		if o.HandSize == 6 {
			o.InitialPeek = 3
		}
	}
	if in.InitialPeek != nil {
		o.InitialPeek = *in.InitialPeek
	}
	if in.SwapOpponents != nil {
		o.SwapOpponents = *in.SwapOpponents
	}
	if in.ResetAt100To != nil {
		o.ResetAt100To = *in.ResetAt100To
	}
	if in.MaxResets != nil {
		if *in.MaxResets < 0 {
			// -1 is how Options says unlimited; the JSON says it with null.
			return o, deny("options", game.ReasonBadOption, map[string]any{"option": "max_resets", "value": *in.MaxResets, "min": 0, "max": MaxResets}, "max_resets %d: must be 0 to %d (null: unlimited)", *in.MaxResets, MaxResets)
		}
		o.MaxResets = *in.MaxResets
	}
	return o, o.check()
}

func (o Options) check() error {
	switch {
	case o.HandSize < 4 || o.HandSize > MaxSlots:
		return deny("options", game.ReasonBadOption, map[string]any{"option": "hand_size", "value": o.HandSize, "min": 4, "max": MaxSlots}, "hand_size %d: must be 4 to %d", o.HandSize, MaxSlots)
	case o.InitialPeek < 0 || o.InitialPeek > o.HandSize:
		return deny("options", game.ReasonBadOption, map[string]any{"option": "initial_peek", "value": o.InitialPeek, "min": 0, "max": o.HandSize}, "initial_peek %d: must be 0 to hand_size (%d)", o.InitialPeek, o.HandSize)
	case o.ResetAt100To < 0 || o.ResetAt100To > 99:
		return deny("options", game.ReasonBadOption, map[string]any{"option": "reset_at_100_to", "value": o.ResetAt100To, "min": 0, "max": 99}, "reset_at_100_to %d: must be 0 to 99", o.ResetAt100To)
	case o.MaxResets < -1 || o.MaxResets > MaxResets:
		return deny("options", game.ReasonBadOption, map[string]any{"option": "max_resets", "value": o.MaxResets, "min": 0, "max": MaxResets}, "max_resets %d: must be 0 to %d (null: unlimited)", o.MaxResets, MaxResets)
	}
	return nil
}

// New implements game.Game.
func (g Game) New(c game.Config) (game.State, error) { return NewState(c) }

// NewState is New with Cabo's own type, for tests and bots in this package.
func NewState(c game.Config) (*State, error) {
	if err := game.CheckPlayers(Game{}, c.Players); err != nil {
		return nil, err
	}
	o, err := ParseOptions(c.Options)
	if err != nil {
		return nil, err
	}
	st := &State{opt: o, n: int8(c.Players), rng: game.NewRNG(c.Seed), caller: -1}
	if len(c.Stacks) > 0 {
		st.stacks = make([]stack, len(c.Stacks))
		for i, raw := range c.Stacks {
			if st.stacks[i], err = parseStack(raw, c.Players, o.HandSize); err != nil {
				return nil, deny("", game.ReasonBadStack, map[string]any{"round": i + 1}, "round %d stack: %v", i+1, err)
			}
		}
	}
	st.deal(0, c.Log)
	return st, nil
}
