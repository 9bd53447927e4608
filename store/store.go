// Package store keeps Tapis's tables durably: who sits where, and every game
// played there as (game, players, options, seed, moves), appended as it
// happens, so that a table is rebuilt after a restart by replaying its moves.
//
// This package holds what every store is: the interfaces (Store and the
// ones it is made of, Leases for a cluster), their types and errors, and
// Memory, the store in a Go map. The stores in a database are packages of
// their own: store/sqlite (the default), store/postgres (a cluster's), and
// store/sqldb for what those two share (the schema's migrations, the SQL
// written once). store/storetest is the suite every store passes.
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
	// Player is the id of the player (store.Player) sitting there, if
	// the seat was taken by one: their seat follows them to any device
	// they are signed in on. Empty for a bot or a seat taken with a name
	// only; kept, with Bot set, on the seat of a player who left a
	// match to a bot, whom a rated end still ranks last.
	Player string `json:"player,omitempty"`
}

// taken reports whether somebody sits at the seat: a bot, or a human who
// was given a token.
func (s Seat) taken() bool { return s.Bot != "" || s.TokenHash != "" }

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
	// Creator is the address key of the client that created the table,
	// as the server gives it, so that it can bound the tables one client
	// keeps waiting.
	Creator string
	// Active is the last time a human was seen at the table (Touch moves
	// it on); CreateTable takes Created when it is zero.
	Active time.Time
	// Host is the seat its creator took, whose connection may give free
	// or abandoned seats to bots; -1 for none (a table created through
	// the API without a name, or before hosts were stored).
	Host int
	// MemoryAid is the table option under which a player's log repeats
	// the cards they looked at privately (Cabo's peeks); off, as the
	// rules have it, memory is part of the game.
	MemoryAid bool
	// Public tables are listed in the lobby while they wait for players;
	// the others are reached by their invite link only.
	Public bool
	// Lang is the language of the creator's page ("en", "fr"), shown in
	// the lobby.
	Lang string
	// Rated tables rate their matches (ratings.go): chosen at creation,
	// for signed-in players with a username only.
	Rated bool
	// Coach: the table's players may ask for hints (package analysis);
	// never at a rated table.
	Coach bool
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

// Saved is a table as loaded back: its seats and its latest match, if any,
// and whether it was closed, and why.
type Saved struct {
	Table
	Match  *Match
	Closed Closed
	// Reason says why a table was closed, in words (a broken table's
	// error); it may be empty.
	Reason string
}

// Start is the start of a match written in the same transaction as the
// write it goes with (a table created full, the last seat taken), so that
// a crash between the two never leaves a full table that never starts.
type Start struct {
	No   int
	Seed uint64
}

// Store is where tables are kept. Every method is safe for concurrent use.
// Writes return once they are durable against a crash of the process.
type Store interface {
	Players
	Lobby
	Queue
	Chats
	Ratings
	Secrets
	Friends
	Notifications
	History
	Clocks
	Analyses

	// CreateTable records a new table and its seats, and the start of
	// its first match if start is not nil: all of it or none.
	CreateTable(ctx context.Context, t Table, start *Start) error
	// SetSeat records a seat change (a guest joining), and the start of a
	// match if start is not nil: both or neither.
	SetSeat(ctx context.Context, table string, seat int, s Seat, start *Start) error
	// StartMatch records the start of match no with its seed ("play
	// again"; the first match starts with CreateTable or SetSeat).
	StartMatch(ctx context.Context, table string, no int, seed uint64) error
	// AppendMove records move index (from 0) of a match.
	AppendMove(ctx context.Context, table string, no, index int, m Move) error
	// EndMatch marks a match as over.
	EndMatch(ctx context.Context, table string, no int) error
	// Open summarises every table that is not closed and whose latest
	// match is not over or that has none yet, by id, without seats or
	// moves: what a server reads at start, loading a table's moves only
	// when it is needed. A table that cannot be read whole is listed with
	// a Problem rather than failing the call.
	Open(ctx context.Context) ([]Summary, error)
	// Load returns one table with its latest match and its moves in
	// order, finished or not, closed or not.
	Load(ctx context.Context, table string) (Saved, error)
	// Match returns one table with match no and its moves in order,
	// finished or not, closed or not: a finished match's history. A
	// missing table or match is an error wrapping ErrNotFound.
	Match(ctx context.Context, table string, no int) (Saved, error)
	// CloseTable closes a table as expired, abandoned or broken, with a
	// reason: Open no longer lists it, and Load says so. Closing a closed
	// table records the new state and reason.
	CloseTable(ctx context.Context, table string, c Closed, reason string) error
	// Touch records at as the last time a human was seen at the table.
	Touch(ctx context.Context, table string, at time.Time) error
	// Tables returns the id of every table, closed ones included, in
	// order: for audits such as tapis check.
	Tables(ctx context.Context) ([]string, error)
	// Close releases the store.
	Close() error
}

// IntegrityChecker is a store that can check its own storage for damage
// below the tables it keeps (pages, indexes), which replaying tables
// cannot see (tapis check). Every store is one. (Not to be
// confused with gametest.Checker, a game state's own invariants.)
type IntegrityChecker interface {
	// Check returns an error naming the problems found, nil if none.
	Check(ctx context.Context) error
}

// Memory is a Store and an IntegrityChecker, as the SQL stores are
// (store/sqlite, store/postgres).
var (
	_ Store            = (*Memory)(nil)
	_ IntegrityChecker = (*Memory)(nil)
)
