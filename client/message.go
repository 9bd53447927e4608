package client

import (
	"encoding/json"
	"fmt"
)

// Message is one message from the server: *Welcome, *State,
// *TableUpdate, *Error, *Pong, or *Other for the rest (chat, watchers,
// ...), whose raw JSON it keeps.
type Message interface {
	// Kind is the message's "type".
	Kind() string
}

// Table is a table as everyone sees it (the server's tableInfo).
type Table struct {
	ID      string          `json:"id"`
	Game    string          `json:"game"`
	Players int             `json:"players"`
	Options json.RawMessage `json:"options"`
	// Status is "waiting" (free seats), "playing" or "over".
	Status      string     `json:"status"`
	Match       int        `json:"match"`
	Seats       []SeatInfo `json:"seats"`
	TurnSeconds int        `json:"turn_seconds"`
	Watchers    int        `json:"watchers"`
	// Host is the creator's seat, -1 for none.
	Host      int  `json:"host"`
	MemoryAid bool `json:"memory_aid"`
	Rated     bool `json:"rated"`
}

// SeatInfo is one seat as everyone sees it.
type SeatInfo struct {
	Name string `json:"name"`
	// Bot is the level of a bot's seat, "" for a person's.
	Bot       string `json:"bot"`
	Free      bool   `json:"free"`
	Connected bool   `json:"connected"`
	// Standin is true while a bot plays for the seat's absent player.
	Standin bool `json:"standin"`
}

// Welcome is the first message of a connection.
type Welcome struct {
	// Seat is the connection's seat, -1 for a spectator.
	Seat  int   `json:"seat"`
	Table Table `json:"table"`
	// History is the events of the match so far that the seat may see.
	History []json.RawMessage `json:"history"`
}

// State is what the seat sees after every move, a new deal, or its
// arrival.
type State struct {
	Match int `json:"match"`
	// N is the number of moves applied in the match: a move answering
	// this state carries it.
	N int `json:"n"`
	// Status is "playing" or "over".
	Status string `json:"status"`
	// By is the seat whose move this state follows, -1 for a new deal or
	// a reconnection.
	By int `json:"by"`
	// View is the seat's view, in the game's own shape (docs/rules.md).
	View json.RawMessage `json:"view"`
	// Legal is the seat's legal moves now, ready to send; empty when it
	// must wait.
	Legal []json.RawMessage `json:"legal"`
	// ToMove is the seats that must act (several in simultaneous phases).
	ToMove []int  `json:"to_move"`
	Result Result `json:"result"`
	// Rounds is every completed round's scores, one per seat.
	Rounds [][]int           `json:"rounds"`
	Events []json.RawMessage `json:"events"`
	// TurnLeftMS is, at a table with a time per move, the milliseconds
	// each human seat that must act has left, keyed by seat ("0").
	TurnLeftMS map[string]int64 `json:"turn_left_ms"`
}

// Result is the match's scores so far.
type Result struct {
	Rounds      int   `json:"round"`
	Scores      []int `json:"scores"`
	RoundScores []int `json:"round_scores"`
	// Winners is filled once the match is over; ties share.
	Winners []int `json:"winners"`
}

// Over reports whether the match is over.
func (s *State) Over() bool { return s.Status == "over" }

// Moves reports whether seat must act in this state.
func (s *State) Moves(seat int) bool {
	for _, t := range s.ToMove {
		if t == seat {
			return true
		}
	}
	return false
}

// TableUpdate tells of a change of seats or connections.
type TableUpdate struct {
	Table Table `json:"table"`
}

// Error is the server's refusal of a message: a stable Code ("stale",
// "refused", "too_fast", ...), English words, and the ID of the message
// that caused it, when it had one.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"error"`
	ID      *int64 `json:"id"`
	// RetryAfter is, for "chat_slow", the seconds to wait.
	RetryAfter int `json:"retry_after"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("client: server refused: %s: %s", e.Code, e.Message)
}

// Pong answers a ping.
type Pong struct{}

// Other is any other message (chat, chat_history, watchers, hello,
// muted): its type and JSON, for clients that want them.
type Other struct {
	Type string
	Raw  json.RawMessage
}

func (*Welcome) Kind() string     { return "welcome" }
func (*State) Kind() string       { return "state" }
func (*TableUpdate) Kind() string { return "table" }
func (*Error) Kind() string       { return "error" }
func (*Pong) Kind() string        { return "pong" }
func (o *Other) Kind() string     { return o.Type }

// decode turns one server message into its type.
func decode(b []byte) (Message, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("client: a message that is not JSON: %v", err)
	}
	var m Message
	switch head.Type {
	case "welcome":
		m = new(Welcome)
	case "state":
		m = new(State)
	case "table":
		m = new(TableUpdate)
	case "error":
		m = new(Error)
	case "pong":
		return &Pong{}, nil
	case "":
		return nil, fmt.Errorf("client: a message without a type: %.100s", b)
	default:
		return &Other{Type: head.Type, Raw: append(json.RawMessage(nil), b...)}, nil
	}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("client: a %s message: %v", head.Type, err)
	}
	return m, nil
}
