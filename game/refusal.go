package game

import (
	"errors"
	"fmt"
	"strings"
)

// Refusal is why an engine refused something: a move Apply will not play,
// a move UnmarshalMove cannot read, or a Config New cannot start. Its
// Reason is a stable snake_case word that clients translate from their
// own dictionaries ("no_card_of_colour"), and Args are the values the
// translated sentence needs ({"colour": "red"}); neither changes when the
// English words are reworded, so no client ever parses Error's text.
//
// Error keeps the package-prefixed English sentence ("limits: hide: you
// hold no red card") for logs, tools and tests.
type Refusal struct {
	// Game is the engine's name, "limits".
	Game string
	// Action is the kind of move or step refused ("hide", "options"), or
	// empty.
	Action string
	// Reason is stable, snake_case, unique within its game; reasons shared
	// by every game (ReasonOver, ReasonNotYourTurn, ...) are declared here.
	Reason string
	// Args are JSON-ready values (strings, numbers, booleans, seats as
	// numbers) named in snake_case; nil when the reason says everything.
	Args map[string]any
	// Words is the English sentence, without the game and action prefix.
	Words string
}

// Error gives "game: action: words", the form engine errors always had.
func (r *Refusal) Error() string {
	var b strings.Builder
	b.WriteString(r.Game)
	b.WriteString(": ")
	if r.Action != "" {
		b.WriteString(r.Action)
		b.WriteString(": ")
	}
	b.WriteString(r.Words)
	return b.String()
}

// Refuse builds a Refusal whose Words are format applied to a.
func Refuse(game, action, reason string, args map[string]any, format string, a ...any) *Refusal {
	return &Refusal{Game: game, Action: action, Reason: reason, Args: args, Words: fmt.Sprintf(format, a...)}
}

// AsRefusal finds the Refusal in err's chain.
func AsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}

// Reasons every game may give, so that the same situation has the same
// word in every game and in every dictionary.
const (
	ReasonOver        = "game_over"          // the game is over
	ReasonNoSeat      = "no_such_seat"       // args: seat
	ReasonNotYourTurn = "not_your_turn"      // args: turn (the seat to act), when one seat is
	ReasonBadMove     = "not_a_move"         // the move is not one of this game's
	ReasonBadPlayers  = "bad_players"        // args: players, min, max
	ReasonBadOption   = "bad_option"         // args: option, value, min, max: out of range
	ReasonBadOptions  = "unreadable_options" // the options object cannot be read (unknown field, wrong type)
	ReasonBadStack    = "bad_stack"          // a stack (REPLAY.md) that cannot be dealt; args: round when one is named

	// The reasons of UnmarshalMove, for moves a client wrote by hand.
	ReasonUnreadable = "unreadable_move" // the JSON is not a move object (a syntax error, an unknown field, a wrong type)
	ReasonBadFields  = "bad_fields"      // args: type (the move's); the fields do not fit that type
	ReasonOutOfRange = "out_of_range"    // args: field, value, min, max
	ReasonTwice      = "given_twice"     // args: field, value: one card or slot named twice
)

// SharedReasons lists the reasons declared above, for the tests of the
// clients' dictionaries (a game lists only those it gives).
func SharedReasons() []string {
	return []string{ReasonOver, ReasonNoSeat, ReasonNotYourTurn, ReasonBadMove, ReasonBadPlayers,
		ReasonBadOption, ReasonBadOptions, ReasonBadStack, ReasonUnreadable, ReasonBadFields, ReasonOutOfRange, ReasonTwice}
}

// In returns a copy of r as refused by game in action, for a refusal made
// by a helper (a parser of cards or slots) that knows neither.
func (r *Refusal) In(game, action string) *Refusal {
	c := *r
	c.Game, c.Action = game, action
	return &c
}
