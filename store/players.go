package store

import (
	"context"
	"errors"
	"time"
)

// What the store keeps about people, beside their tables: players and their
// sessions, the quick-match queue and each table's chat. All of it lives in
// the store, not in a server's memory, so that any node sharing the database
// sees the same players, sessions, queue and chat.

// ErrNotFound is returned when a player, a session or a queue entry asked
// for does not exist (or, for a session, has expired), and wrapped by
// Match's error for a missing table or match.
var ErrNotFound = errors.New("store: not found")

// ErrTaken is returned by ClaimUsername when another player holds the
// username (compared by its key).
var ErrTaken = errors.New("store: username taken")

// ErrClaimed is returned by ClaimUsername when the player holds a username
// already: a player has at most one, so that two claims sent at once
// cannot both succeed and leave one username with nobody signing in to it.
var ErrClaimed = errors.New("store: the player has a username already")

// ErrQueueChanged is returned by SeatQueued when one of the entries it was
// to seat has left the queue or been seated meanwhile (by another node):
// nothing was written.
var ErrQueueChanged = errors.New("store: queue changed")

// Player is a person the server knows: a guest, known by a session only,
// until they claim a username with a password.
type Player struct {
	// ID is the player's random identifier. It is not a secret (seats
	// and chat lines carry it) and never changes.
	ID string
	// Name is the name shown at tables, chosen by the player.
	Name string
	// Username is the name a claimed player signs in with, as typed;
	// empty for a guest. UsernameKey is its normalised form, unique
	// among players (account.UsernameKey makes it).
	Username    string
	UsernameKey string
	// Password is the argon2id PHC string of a claimed player's password
	// (account.Hash); empty for a guest.
	Password string
	Created  time.Time
	// Deleted: the player deleted their account. Their personal data
	// (name, username, password) is gone; finished games keep their seats
	// under "deleted player".
	Deleted bool
}

// Session is a signed-in browser: the hash of the token in its cookie
// (account.NewToken), whose player, and until when.
type Session struct {
	Hash    string
	Player  string
	Created time.Time
	Expires time.Time
}

// PlayerTable is one open table where a player has a seat: what the home
// page lists so that a player's seats follow them to any device.
type PlayerTable struct {
	Summary
	// Seat is the player's seat at the table.
	Seat int
}

// Players keeps players and their sessions.
type Players interface {
	// CreatePlayer records a new player (a guest, usually).
	CreatePlayer(ctx context.Context, p Player) error
	// Player returns a player by id (ErrNotFound if none).
	Player(ctx context.Context, id string) (Player, error)
	// PlayerByUsername returns the player whose UsernameKey is key
	// (ErrNotFound if none).
	PlayerByUsername(ctx context.Context, key string) (Player, error)
	// RenamePlayer changes a player's name, and the name on their seats
	// at tables that are not over, so that the table shows the new name.
	RenamePlayer(ctx context.Context, id, name string) error
	// ClaimUsername gives a guest a username and a password hash, in one
	// write that checks both: ErrTaken if another player holds the key,
	// ErrClaimed if this player has a username already (nothing is
	// changed then), ErrNotFound if there is no such player.
	ClaimUsername(ctx context.Context, id, username, key, password string) error
	// SetPassword replaces a claimed player's password hash.
	SetPassword(ctx context.Context, id, password string) error
	// DeletePlayer removes a player's personal data in one transaction:
	// name, username and password cleared, Deleted set, every session
	// deleted, the name on their seats and chat lines cleared (a seat
	// keeps its player id, so that a finished game still shows a deleted
	// player there), and their queue entry removed.
	DeletePlayer(ctx context.Context, id string) error
	// MoveSeats gives the seats of player from at tables that are open
	// (not closed, latest match not over) to player to, under name: a
	// guest who signs in to their account on the same browser keeps the
	// games they are playing. Finished games keep the guest.
	MoveSeats(ctx context.Context, from, to, name string) error
	// PlayerTables lists the open tables (not closed, latest match not
	// over or none yet) where the player has a seat, newest first; not a
	// seat they left to a bot (Seat.Bot set: it keeps their id for a
	// rated loss).
	PlayerTables(ctx context.Context, player string) ([]PlayerTable, error)

	// CreateSession records a new session.
	CreateSession(ctx context.Context, s Session) error
	// Session returns the session whose token hash is hash, if it has
	// not expired at now (ErrNotFound otherwise).
	Session(ctx context.Context, hash string, now time.Time) (Session, error)
	// DeleteSession ends one session; ending a missing one is not an
	// error.
	DeleteSession(ctx context.Context, hash string) error
	// DeleteSessions ends every session of a player but the one whose
	// hash is except ("" for none): sign out everywhere, a password
	// changed.
	DeleteSessions(ctx context.Context, player, except string) error
	// DeleteExpiredSessions removes the sessions expired at now and says
	// how many it removed.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error)
}

// Lobby lists the public tables waiting for players.
type Lobby interface {
	// WaitingTables returns up to limit public tables that are not
	// closed, have no match yet, have a free human seat and were active
	// at since or later (Table.Active: a person was seen there; the zero
	// time for any), with their seats, newest first; game "" means every
	// game.
	WaitingTables(ctx context.Context, game string, since time.Time, limit int) ([]Table, error)
}

// Entry is one player waiting in the quick-match queue.
type Entry struct {
	Player string
	// Name is the player's name, to seat them without another read.
	Name string
	Game string
	// Players is the number of players wanted; 0 takes any number the
	// game allows.
	Players int
	// Bot is the level of the bots given the free seats after the wait.
	Bot string
	// Wait is how long to wait for people before bots take the free
	// seats; negative: never.
	Wait   time.Duration
	Joined time.Time
	// Table and Seat say where the player was seated; Table is empty
	// while the player waits.
	Table string
	Seat  int
}

// Queue is the quick-match queue: at most one entry per player.
type Queue interface {
	// Enqueue puts a player in the queue, replacing any entry they had
	// (a player is in at most one queue).
	Enqueue(ctx context.Context, e Entry) error
	// LeaveQueue removes the player's entry; leaving when not queued is
	// not an error.
	LeaveQueue(ctx context.Context, player string) error
	// QueueEntry returns the player's entry, waiting or seated
	// (ErrNotFound if none).
	QueueEntry(ctx context.Context, player string) (Entry, error)
	// Queued returns the entries still waiting (no table) for a game,
	// oldest first; game "" means every game.
	Queued(ctx context.Context, game string) ([]Entry, error)
	// SeatQueued creates table t (and its first match if start is not
	// nil), as CreateTable does, and marks the entries of the given
	// players as seated there, at the seat whose Player is theirs, all
	// in one transaction, if every one of them is still waiting in the
	// queue; otherwise it writes nothing and returns ErrQueueChanged.
	SeatQueued(ctx context.Context, players []string, t Table, start *Start) error
}

// Line is one line of a table's chat.
type Line struct {
	Table string
	// No numbers a table's lines from 1 in order; AppendChat assigns it.
	No int
	// Seat is the writer's seat, -1 for a spectator.
	Seat int
	// Player is the writer's player id; Name their name when they wrote.
	Player string
	Name   string
	Text   string
	At     time.Time
}

// ChatKept is how many of a table's last chat lines are kept: AppendChat
// deletes the older ones, so that a table's chat is bounded on disk
// whatever is written there (issue 24). Servers show the last 50.
const ChatKept = 500

// Chats keeps every table's chat: its last ChatKept lines, until the table
// has been done with (closed, or its latest match over) for a retention
// time that PruneChat is given.
type Chats interface {
	// AppendChat records a line and returns its number, deleting the
	// table's lines older than its last ChatKept.
	AppendChat(ctx context.Context, l Line) (int, error)
	// Chat returns the last limit lines of a table's chat, in order.
	Chat(ctx context.Context, table string, limit int) ([]Line, error)
	// PruneChat deletes the whole chat of every table that is not open
	// (closed, or its latest match over) and where no human has been
	// seen (Touch; else since its creation) since before, and returns
	// how many lines went. An open table keeps its chat however old.
	PruneChat(ctx context.Context, before time.Time) (int, error)
}
