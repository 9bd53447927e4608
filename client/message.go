package client

import (
	"encoding/json"
	"fmt"

	"tapis/wire"
)

// Message is one message from the server: *Welcome, *State,
// *TableUpdate, *Error, *Pong, or *Other for the rest (chat, watchers,
// ...), whose raw JSON it keeps.
type Message interface {
	// Kind is the message's "type".
	Kind() string
}

// The server's messages as a client reads them (package wire has their
// fields): a game's views and events are left as JSON, to decode with
// the game's own shapes.
type (
	// Welcome is the first message of a connection.
	Welcome = wire.Welcome[json.RawMessage]
	// State is what the seat sees after every move, a new deal, or its
	// arrival.
	State = wire.State[json.RawMessage]
	// TableUpdate tells of a change of seats or connections.
	TableUpdate = wire.TableUpdate
	// Table is a table as everyone sees it.
	Table = wire.Table
	// SeatInfo is one seat as everyone sees it.
	SeatInfo = wire.SeatInfo
	// Result is the match's scores so far.
	Result = wire.Result
	// Error is the server's refusal of a message: a stable Code
	// ("stale", "refused", "too_fast", ...), for an engine's refusal a
	// stable Reason and its Args, English words, and the ID of the
	// message that caused it, when it had one. It is an error.
	Error = wire.Error
	// Pong answers a ping.
	Pong = wire.Pong
)

// Other is any other message (chat, chat_history, watchers, hello,
// muted): its type and JSON, for clients that want them.
type Other struct {
	Type string
	Raw  json.RawMessage
}

// Kind is the message's type.
func (o *Other) Kind() string { return o.Type }

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
	case wire.TypeWelcome:
		m = new(Welcome)
	case wire.TypeState:
		m = new(State)
	case wire.TypeTable:
		m = new(TableUpdate)
	case wire.TypeError:
		m = new(Error)
	case wire.TypePong:
		return &Pong{Type: wire.TypePong}, nil
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
