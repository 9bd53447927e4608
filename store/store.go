// Package store keeps Tapis's tables durably: who sits where, and every game
// played there as (game, players, options, seed, moves), appended as it
// happens, so that a table is rebuilt after a restart by replaying its moves.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// ErrClosed is returned by a store that has been closed.
var ErrClosed = errors.New("store: closed")

// Seat is one place at a table.
type Seat struct {
	// Name is the player's display name; empty while a human seat is free.
	Name string `json:"name"`
	// Bot names the bot playing the seat ("random", "heuristic"); empty
	// for a human.
	Bot string `json:"bot"`
	// TokenHash is the SHA-256 of the seat's secret token, hex; the token
	// itself is never stored, so a stolen database does not seat anyone.
	TokenHash string `json:"token_hash"`
}

// Table is a table as created: its game, options and seats.
type Table struct {
	ID      string
	Game    string
	Players int
	Options json.RawMessage
	Created time.Time
	Seats   []Seat
	// TurnTime is the time per move: how long a human seat may take to
	// act before a stand-in bot makes that one move for it (0: no limit).
	// Stores keep it in milliseconds.
	TurnTime time.Duration
}

// Move is one applied move: the seat and REPLAY.md's move JSON.
type Move struct {
	Seat int             `json:"seat"`
	Move json.RawMessage `json:"move"`
}

// Match is one game played at a table ("play again" starts the next).
type Match struct {
	No    int
	Seed  uint64
	Moves []Move
	Over  bool
}

// Saved is a table as loaded back: its seats and its latest match, if any.
type Saved struct {
	Table
	Match *Match
}

// Store is where tables are kept. Every method is safe for concurrent use.
// Writes return once they are durable against a crash of the process.
type Store interface {
	// CreateTable records a new table and its seats.
	CreateTable(ctx context.Context, t Table) error
	// SetSeat records a seat change (a guest joining).
	SetSeat(ctx context.Context, table string, seat int, s Seat) error
	// StartMatch records the start of match no with its seed.
	StartMatch(ctx context.Context, table string, no int, seed uint64) error
	// AppendMove records move index (from 0) of a match.
	AppendMove(ctx context.Context, table string, no, index int, m Move) error
	// EndMatch marks a match as over.
	EndMatch(ctx context.Context, table string, no int) error
	// Unfinished returns every table whose latest match is not over,
	// or that has not started yet, with that match's moves in order.
	Unfinished(ctx context.Context) ([]Saved, error)
	// Load returns one table with its latest match, finished or not (for
	// audits, replays and tests).
	Load(ctx context.Context, table string) (Saved, error)
	// Close releases the store.
	Close() error
}
