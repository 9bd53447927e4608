package store

// Stubs until the SQL stores keep players (this commit only: the Memory
// store comes first so that the packages above can code against it).

import (
	"context"
	"errors"
	"time"
)

// errPending is what the SQL stores answer until they keep players.
var errPending = errors.New("store: players not yet kept by this store")

// CreatePlayer implements Players.
func (s *SQLite) CreatePlayer(context.Context, Player) error { return errPending }

// Player implements Players.
func (s *SQLite) Player(context.Context, string) (Player, error) { return Player{}, errPending }

// PlayerByUsername implements Players.
func (s *SQLite) PlayerByUsername(context.Context, string) (Player, error) {
	return Player{}, errPending
}

// RenamePlayer implements Players.
func (s *SQLite) RenamePlayer(context.Context, string, string) error { return errPending }

// ClaimUsername implements Players.
func (s *SQLite) ClaimUsername(context.Context, string, string, string, string) error {
	return errPending
}

// SetPassword implements Players.
func (s *SQLite) SetPassword(context.Context, string, string) error { return errPending }

// DeletePlayer implements Players.
func (s *SQLite) DeletePlayer(context.Context, string) error { return errPending }

// PlayerTables implements Players.
func (s *SQLite) PlayerTables(context.Context, string) ([]PlayerTable, error) { return nil, errPending }

// CreateSession implements Players.
func (s *SQLite) CreateSession(context.Context, Session) error { return errPending }

// Session implements Players.
func (s *SQLite) Session(context.Context, string, time.Time) (Session, error) {
	return Session{}, errPending
}

// DeleteSession implements Players.
func (s *SQLite) DeleteSession(context.Context, string) error { return errPending }

// DeleteSessions implements Players.
func (s *SQLite) DeleteSessions(context.Context, string, string) error { return errPending }

// DeleteExpiredSessions implements Players.
func (s *SQLite) DeleteExpiredSessions(context.Context, time.Time) (int, error) { return 0, errPending }

// WaitingTables implements Lobby.
func (s *SQLite) WaitingTables(context.Context, string, int) ([]Table, error) { return nil, errPending }

// Enqueue implements Queue.
func (s *SQLite) Enqueue(context.Context, Entry) error { return errPending }

// LeaveQueue implements Queue.
func (s *SQLite) LeaveQueue(context.Context, string) error { return errPending }

// QueueEntry implements Queue.
func (s *SQLite) QueueEntry(context.Context, string) (Entry, error) { return Entry{}, errPending }

// Queued implements Queue.
func (s *SQLite) Queued(context.Context, string) ([]Entry, error) { return nil, errPending }

// SeatQueued implements Queue.
func (s *SQLite) SeatQueued(context.Context, []string, Table, *Start) error { return errPending }

// AppendChat implements Chats.
func (s *SQLite) AppendChat(context.Context, Line) (int, error) { return 0, errPending }

// Chat implements Chats.
func (s *SQLite) Chat(context.Context, string, int) ([]Line, error) { return nil, errPending }

// CreatePlayer implements Players.
func (s *Postgres) CreatePlayer(context.Context, Player) error { return errPending }

// Player implements Players.
func (s *Postgres) Player(context.Context, string) (Player, error) { return Player{}, errPending }

// PlayerByUsername implements Players.
func (s *Postgres) PlayerByUsername(context.Context, string) (Player, error) {
	return Player{}, errPending
}

// RenamePlayer implements Players.
func (s *Postgres) RenamePlayer(context.Context, string, string) error { return errPending }

// ClaimUsername implements Players.
func (s *Postgres) ClaimUsername(context.Context, string, string, string, string) error {
	return errPending
}

// SetPassword implements Players.
func (s *Postgres) SetPassword(context.Context, string, string) error { return errPending }

// DeletePlayer implements Players.
func (s *Postgres) DeletePlayer(context.Context, string) error { return errPending }

// PlayerTables implements Players.
func (s *Postgres) PlayerTables(context.Context, string) ([]PlayerTable, error) {
	return nil, errPending
}

// CreateSession implements Players.
func (s *Postgres) CreateSession(context.Context, Session) error { return errPending }

// Session implements Players.
func (s *Postgres) Session(context.Context, string, time.Time) (Session, error) {
	return Session{}, errPending
}

// DeleteSession implements Players.
func (s *Postgres) DeleteSession(context.Context, string) error { return errPending }

// DeleteSessions implements Players.
func (s *Postgres) DeleteSessions(context.Context, string, string) error { return errPending }

// DeleteExpiredSessions implements Players.
func (s *Postgres) DeleteExpiredSessions(context.Context, time.Time) (int, error) {
	return 0, errPending
}

// WaitingTables implements Lobby.
func (s *Postgres) WaitingTables(context.Context, string, int) ([]Table, error) {
	return nil, errPending
}

// Enqueue implements Queue.
func (s *Postgres) Enqueue(context.Context, Entry) error { return errPending }

// LeaveQueue implements Queue.
func (s *Postgres) LeaveQueue(context.Context, string) error { return errPending }

// QueueEntry implements Queue.
func (s *Postgres) QueueEntry(context.Context, string) (Entry, error) { return Entry{}, errPending }

// Queued implements Queue.
func (s *Postgres) Queued(context.Context, string) ([]Entry, error) { return nil, errPending }

// SeatQueued implements Queue.
func (s *Postgres) SeatQueued(context.Context, []string, Table, *Start) error { return errPending }

// AppendChat implements Chats.
func (s *Postgres) AppendChat(context.Context, Line) (int, error) { return 0, errPending }

// Chat implements Chats.
func (s *Postgres) Chat(context.Context, string, int) ([]Line, error) { return nil, errPending }
