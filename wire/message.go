package wire

import (
	"encoding/json"
	"fmt"
	"time"
)

// Welcome answers a new connection, once, first: who it is, the table,
// and the events of the current match the seat may see (the latest 500),
// so a returning player's log is whole again. Unless the table has the
// memory aid, those events are without the card values the seat saw
// privately (a Cabo peek's or draw's "seen"): states carry them once, as
// they happen, and a reconnection must not be a way to look again.
type Welcome[P any] struct {
	Type string `json:"type"` // "welcome"
	// Seat is the connection's seat, Spectator (-1) for one who watches.
	Seat    int   `json:"seat"`
	Table   Table `json:"table"`
	History []P   `json:"history"`
}

// TableUpdate tells of a change of seats or connections.
type TableUpdate struct {
	Type  string `json:"type"` // "table"
	Table Table  `json:"table"`
}

// State is what one seat sees after a move, a new deal, or its arrival:
// its view, its legal moves, and the move's events it may see. A view or
// an event never holds a card its seat may not see. The server writes it
// by hand for speed (table/codec/state.go), with the bytes json.Marshal gives
// this type.
type State[P any] struct {
	Type  string `json:"type"` // "state"
	Match int    `json:"match"`
	// N is the number of moves applied in this match so far: a move
	// answering this state carries it.
	N int `json:"n"`
	// Status is "playing" or "over".
	Status Status `json:"status"`
	// By is the seat whose move this state follows, -1 for a new deal or
	// a reconnection.
	By int `json:"by"`
	// Standin is true when the move was made for seat By by its stand-in
	// (its player away, or out of time), not by its player.
	Standin bool `json:"standin,omitempty"`
	// View is the seat's view, in the game's own shape.
	View P `json:"view"`
	// Legal is the seat's legal moves now, ready to send back; empty when
	// it must wait.
	Legal []json.RawMessage `json:"legal"`
	// ToMove is the seats that must act (several in simultaneous phases:
	// Cabo's first peek, Papayoo's pass).
	ToMove []int  `json:"to_move"`
	Result Result `json:"result"`
	// Rounds holds the round scores (Result.RoundScores) of every round
	// of this match completed so far, in order, one per seat: a score
	// sheet, whole for a page that joins mid-match. A game's totals may
	// differ from their sum where its rules say so (Cabo's reset at
	// exactly 100).
	Rounds [][]int `json:"rounds"`
	Events []P     `json:"events"`
	// TurnLeft is, at a table with a time per move, the milliseconds each
	// human seat that must act has left when the message is sent (0 once
	// a stand-in is choosing for it), keyed by seat: {"0": 29500}. A
	// duration, not a time, so that the client's clock does not matter.
	// Absent when no seat is on the clock.
	TurnLeft map[int]int64 `json:"turn_left_ms,omitempty"`
}

// Over reports whether the match is over.
func (s *State[P]) Over() bool { return s.Status == StatusOver }

// Moves reports whether seat must act in this state.
func (s *State[P]) Moves(seat int) bool {
	for _, t := range s.ToMove {
		if t == seat {
			return true
		}
	}
	return false
}

// Result is the match's scores so far.
type Result struct {
	// Rounds counts completed rounds (Limits: resolved accusations; Da
	// Capo!: finished games of a match).
	Rounds int `json:"round"`
	// Scores are cumulative, one per seat.
	Scores []int `json:"scores"`
	// RoundScores are the last completed round's, empty before the first.
	RoundScores []int `json:"round_scores"`
	// Winners lists the winning seats once the match is over; ties share.
	Winners []int `json:"winners"`
}

// StandinMoves tells a player who comes back what the stand-in played for
// their seat while they were away: sent once, after the welcome and the
// state, to the seat's first connection since.
type StandinMoves[P any] struct {
	Type string `json:"type"` // "standin_moves"
	Seat int    `json:"seat"`
	// Moves is how many moves the stand-in made; Events are their events
	// as the seat may see them (the last 100 at most), as in the
	// welcome's history.
	Moves  int `json:"moves"`
	Events []P `json:"events"`
}

// Watchers tells how many watch the table. Spectators coming and going
// change only this count, sent at most once a second, rather than the
// whole table to every connection each time.
type Watchers struct {
	Type  string `json:"type"` // "watchers"
	Count int    `json:"count"`
}

// ChatLine is one line of a table's chat: plain text, never markup.
type ChatLine struct {
	// No numbers the table's lines from 1, in order.
	No int `json:"no"`
	// Seat is the writer's seat, -1 for a spectator (Spectator).
	Seat int       `json:"seat"`
	Name string    `json:"name"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
	// Spectator marks a spectator's line; From is then who they are for
	// "mute" (empty on a line of an anonymous spectator read back from
	// the store).
	Spectator bool   `json:"spectator"`
	From      string `json:"from,omitempty"`
}

// Chat is a new line of the chat, sent to every connection.
type Chat struct {
	Type string   `json:"type"` // "chat"
	Line ChatLine `json:"line"`
}

// ChatHistory is the last 50 lines of the chat, in order, sent right
// after the welcome and the state when there are any.
type ChatHistory struct {
	Type  string     `json:"type"` // "chat_history"
	Lines []ChatLine `json:"lines"`
}

// Hello answers a spectator's hello: its name as cleaned, and the From
// its lines carry.
type Hello struct {
	Type string `json:"type"` // "hello"
	Name string `json:"name"`
	From string `json:"from"`
}

// Muted tells everyone that the host muted a spectator.
type Muted struct {
	Type      string `json:"type"` // "muted"
	Spectator string `json:"spectator"`
	Name      string `json:"name"`
}

// Gone tells a connection that it is no longer at the table: its seat
// was left ("left") or the table closed by its host ("closed"). The
// socket closes after it.
type Gone struct {
	Type string `json:"type"` // "left" or "closed"
}

// Error refuses a message, which changed nothing. It never names a card
// the receiving seat may not know: its words are the engine's (which
// checks turn and seat before anything else) or the server's own.
type Error struct {
	Type string `json:"type"` // "error"
	// Code is stable, one of the Code constants: clients translate it.
	Code string `json:"code"`
	// Reason is, when an engine refused the move (CodeRefused,
	// CodeBadMove), its stable snake_case reason ("no_card_of_colour",
	// game.Refusal), and Args the values its sentence needs
	// ({"colour":"red"}): clients translate these rather than Message.
	Reason string         `json:"reason,omitempty"`
	Args   map[string]any `json:"args,omitempty"`
	// Message is English words for people and logs.
	Message string `json:"error"`
	// ID is the ID of the message that caused the error, if it had one.
	ID *int64 `json:"id,omitempty"`
	// RetryAfter is, for CodeChatSlow, in how many seconds the next line
	// will be taken.
	RetryAfter int `json:"retry_after,omitempty"`
}

// Error gives the code and the words.
func (e *Error) Error() string {
	return fmt.Sprintf("wire: server refused: %s: %s", e.Code, e.Message)
}

// Pong answers a ping.
type Pong struct {
	Type string `json:"type"` // "pong"
}

// Kind is the message's type, the same for every value: a client reading
// messages switches on the value's Go type, and these methods let them
// share one interface.
func (*Welcome[P]) Kind() string      { return TypeWelcome }
func (*TableUpdate) Kind() string     { return TypeTable }
func (*State[P]) Kind() string        { return TypeState }
func (*StandinMoves[P]) Kind() string { return TypeStandinMoves }
func (*Watchers) Kind() string        { return TypeWatchers }
func (*Chat) Kind() string            { return TypeChat }
func (*ChatHistory) Kind() string     { return TypeChatHistory }
func (*Hello) Kind() string           { return TypeHello }
func (*Muted) Kind() string           { return TypeMuted }
func (*Error) Kind() string           { return TypeError }
func (*Pong) Kind() string            { return TypePong }

// Kind is the Gone message's type, TypeLeft or TypeClosed: the one
// message whose type says which of two things happened.
func (g *Gone) Kind() string { return g.Type }
