package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// SQLite's players, sessions, lobby, queue and chat. Writes go through
// the writer like every other (several rows of one call in one op, so
// all or none); reads query the database directly.

// CreatePlayer implements Players.
func (s *SQLite) CreatePlayer(ctx context.Context, p Player) error {
	return s.do(ctx, op{one: true, what: fmt.Sprintf("player %s exists", p.ID), conflict: ErrTaken,
		query: `INSERT INTO tapis_players (id, name, username, username_key, password, created, deleted)
		SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM tapis_players WHERE id = ?)`,
		args: []any{p.ID, p.Name, p.Username, p.UsernameKey, p.Password, p.Created.UnixMilli(), p.Deleted, p.ID}})
}

// Player implements Players.
func (s *SQLite) Player(ctx context.Context, id string) (Player, error) {
	return s.player(ctx, qPlayerByID, id)
}

// PlayerByUsername implements Players.
func (s *SQLite) PlayerByUsername(ctx context.Context, key string) (Player, error) {
	if key == "" {
		return Player{}, ErrNotFound
	}
	return s.player(ctx, qPlayerByUsername, key)
}

// player reads the player q (qPlayerByID or qPlayerByUsername) finds.
func (s *SQLite) player(ctx context.Context, q query, arg string) (Player, error) {
	if s.closed() {
		return Player{}, ErrClosed
	}
	p, err := scanPlayer(s.db.QueryRowContext(ctx, q.sqlite, arg).Scan)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Player{}, ErrNotFound
	case err != nil:
		return Player{}, fmt.Errorf("store: player: %v", err)
	}
	return p, nil
}

// RenamePlayer implements Players.
func (s *SQLite) RenamePlayer(ctx context.Context, id, name string) error {
	return s.do(ctx, op{one: true, refused: ErrNotFound, query: qRenamePlayer.sqlite, args: []any{name, id},
		with: []op{{query: qRenameSeats.sqlite,
			args: []any{name, id}}}})
}

// MoveSeats implements Players.
func (s *SQLite) MoveSeats(ctx context.Context, from, to, name string) error {
	return s.do(ctx, op{query: qMoveSeats.sqlite,
		args: []any{to, name, from}})
}

// ClaimUsername implements Players.
func (s *SQLite) ClaimUsername(ctx context.Context, id, username, key, password string) error {
	err := s.do(ctx, op{one: true, refused: errUnclaimed, conflict: ErrTaken,
		query: qSetUsername.sqlite,
		args:  []any{username, key, password, id}})
	if errors.Is(err, errUnclaimed) {
		return s.whyUnclaimed(ctx, id)
	}
	return err
}

// errUnclaimed is a claim's write that changed no row: the player is
// missing or has a username already, which whyUnclaimed tells apart.
var errUnclaimed = errors.New("store: claim refused")

// whyUnclaimed returns the error of a claim by id that changed nothing:
// ErrNotFound, or ErrClaimed. The write itself was the check (a player
// with a username is never changed); this read only names the reason.
func (s *SQLite) whyUnclaimed(ctx context.Context, id string) error {
	if _, err := s.Player(ctx, id); err != nil {
		return err
	}
	return ErrClaimed
}

// SetPassword implements Players.
func (s *SQLite) SetPassword(ctx context.Context, id, password string) error {
	return s.do(ctx, op{one: true, refused: ErrNotFound, query: qSetPassword.sqlite, args: []any{password, id}})
}

// DeletePlayer implements Players.
func (s *SQLite) DeletePlayer(ctx context.Context, id string) error {
	return s.do(ctx, op{one: true, refused: ErrNotFound,
		query: `UPDATE tapis_players SET name = '', username = '', username_key = '', password = '', deleted = 1 WHERE id = ?`, args: []any{id},
		with: []op{
			{query: qDeletePlayerSessions.sqlite, args: []any{id}},
			{query: qForgetSeatNames.sqlite, args: []any{id}},
			{query: qForgetChatNames.sqlite, args: []any{id}},
			{query: qLeaveQueue.sqlite, args: []any{id}},
		}})
}

// PlayerTables implements Players.
func (s *SQLite) PlayerTables(ctx context.Context, player string) ([]PlayerTable, error) {
	if s.closed() {
		return nil, ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, `
		SELECT t.id, t.game, t.players, t.created, t.creator, t.active,
		  EXISTS (SELECT 1 FROM tapis_matches WHERE table_id = t.id),
		  (SELECT COUNT(*) FROM tapis_seats s WHERE s.table_id = t.id AND s.seat >= 0 AND s.seat < t.players
		     AND (s.bot <> '' OR s.token_hash <> '')),
		  (SELECT MIN(seat) FROM tapis_seats WHERE table_id = t.id AND player = ?)
		FROM tapis_tables t
		WHERE t.id IN (SELECT table_id FROM tapis_seats WHERE player = ?) AND `+openTable+`
		ORDER BY t.created DESC, t.id DESC`, player, player)
	if err != nil {
		return nil, fmt.Errorf("store: tables of player %s: %v", player, err)
	}
	defer rows.Close()
	var out []PlayerTable
	for rows.Next() {
		var pt PlayerTable
		var created, active int64
		if err := rows.Scan(&pt.ID, &pt.Game, &pt.Players, &created, &pt.Creator, &active, &pt.Started, &pt.Seated, &pt.Seat); err != nil {
			return nil, fmt.Errorf("store: tables of player %s: %v", player, err)
		}
		pt.Created, pt.Active = time.UnixMilli(created), time.UnixMilli(active)
		out = append(out, pt)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: tables of player %s: %v", player, err)
	}
	return out, nil
}

// CreateSession implements Players.
func (s *SQLite) CreateSession(ctx context.Context, ss Session) error {
	return s.exec(ctx, qCreateSession.sqlite,
		ss.Hash, ss.Player, ss.Created.UnixMilli(), ss.Expires.UnixMilli())
}

// Session implements Players.
func (s *SQLite) Session(ctx context.Context, hash string, now time.Time) (Session, error) {
	if s.closed() {
		return Session{}, ErrClosed
	}
	ss := Session{Hash: hash}
	var created, expires int64
	err := s.db.QueryRowContext(ctx, qSession.sqlite, hash, now.UnixMilli()).
		Scan(&ss.Player, &created, &expires)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Session{}, ErrNotFound
	case err != nil:
		return Session{}, fmt.Errorf("store: session: %v", err)
	}
	ss.Created, ss.Expires = time.UnixMilli(created), time.UnixMilli(expires)
	return ss, nil
}

// DeleteSession implements Players.
func (s *SQLite) DeleteSession(ctx context.Context, hash string) error {
	return s.exec(ctx, qDeleteSession.sqlite, hash)
}

// DeleteSessions implements Players.
func (s *SQLite) DeleteSessions(ctx context.Context, player, except string) error {
	return s.exec(ctx, qDeleteSessions.sqlite, player, except)
}

// DeleteExpiredSessions implements Players.
func (s *SQLite) DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error) {
	var n int64
	err := s.do(ctx, op{query: qDeleteExpiredSessions.sqlite, args: []any{now.UnixMilli()}, affected: &n})
	return int(n), err
}

// WaitingTables implements Lobby.
func (s *SQLite) WaitingTables(ctx context.Context, game string, since time.Time, limit int) ([]Table, error) {
	if s.closed() {
		return nil, ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, `
		SELECT t.id FROM tapis_tables t
		WHERE t.public = 1 AND t.closed = '' AND (? = '' OR t.game = ?) AND t.active >= ?
		  AND NOT EXISTS (SELECT 1 FROM tapis_matches WHERE table_id = t.id)
		  AND (SELECT COUNT(*) FROM tapis_seats s WHERE s.table_id = t.id AND s.seat >= 0 AND s.seat < t.players
		         AND (s.bot <> '' OR s.token_hash <> '')) < t.players
		ORDER BY t.created DESC, t.id DESC LIMIT ?`, game, game, since.UnixMilli(), max(limit, 0))
	if err != nil {
		return nil, fmt.Errorf("store: waiting tables: %v", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: waiting tables: %v", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: waiting tables: %v", err)
	}
	out := make([]Table, 0, len(ids))
	for _, id := range ids {
		t, err := s.Load(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, t.Table)
	}
	return out, nil
}

// Enqueue implements Queue.
func (s *SQLite) Enqueue(ctx context.Context, e Entry) error {
	return s.exec(ctx, `INSERT OR REPLACE INTO tapis_queue (player, name, game, players, bot, wait_ms, joined, table_id, seat)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Player, e.Name, e.Game, e.Players, e.Bot, e.Wait.Milliseconds(), e.Joined.UnixMilli(), e.Table, e.Seat)
}

// LeaveQueue implements Queue.
func (s *SQLite) LeaveQueue(ctx context.Context, player string) error {
	return s.exec(ctx, qLeaveQueue.sqlite, player)
}

// scanEntry reads one row of entryColumns, in either store.
func scanEntry(scan func(...any) error) (Entry, error) {
	var e Entry
	var wait, joined int64
	if err := scan(&e.Player, &e.Name, &e.Game, &e.Players, &e.Bot, &wait, &joined, &e.Table, &e.Seat); err != nil {
		return Entry{}, err
	}
	e.Wait, e.Joined = time.Duration(wait)*time.Millisecond, time.UnixMilli(joined)
	return e, nil
}

// QueueEntry implements Queue.
func (s *SQLite) QueueEntry(ctx context.Context, player string) (Entry, error) {
	if s.closed() {
		return Entry{}, ErrClosed
	}
	e, err := scanEntry(s.db.QueryRowContext(ctx, entryColumns+`WHERE player = ?`, player).Scan)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Entry{}, ErrNotFound
	case err != nil:
		return Entry{}, fmt.Errorf("store: queue entry of %s: %v", player, err)
	}
	return e, nil
}

// Queued implements Queue.
func (s *SQLite) Queued(ctx context.Context, game string) ([]Entry, error) {
	if s.closed() {
		return nil, ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, entryColumns+`WHERE table_id = '' AND (? = '' OR game = ?) ORDER BY joined, player`, game, game)
	if err != nil {
		return nil, fmt.Errorf("store: queue: %v", err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		e, err := scanEntry(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("store: queue: %v", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: queue: %v", err)
	}
	return out, nil
}

// SeatQueued implements Queue: the table as CreateTable writes it, and
// each entry marked seated only if it is still waiting, all in one op.
// The one writer runs ops one at a time, and each in a transaction, so
// two SeatQueued calls racing for a player cannot both see it waiting.
func (s *SQLite) SeatQueued(ctx context.Context, players []string, t Table, start *Start) error {
	o, err := createOp(t, start)
	if err != nil {
		return err
	}
	for _, p := range players {
		seat, err := seatOf(t, p)
		if err != nil {
			return err
		}
		o.with = append(o.with, op{one: true, refused: ErrQueueChanged,
			query: `UPDATE tapis_queue SET table_id = ?, seat = ? WHERE player = ? AND table_id = ''`, args: []any{t.ID, seat, p}})
	}
	return s.do(ctx, o)
}

// AppendChat implements Chats.
func (s *SQLite) AppendChat(ctx context.Context, l Line) (int, error) {
	var no int64
	err := s.do(ctx, op{one: true, what: fmt.Sprintf("no table %s", l.Table), ret: &no,
		query: `INSERT INTO tapis_chat (table_id, no, seat, player, name, text, at)
		SELECT ?, COALESCE((SELECT MAX(no) FROM tapis_chat WHERE table_id = ?), 0) + 1, ?, ?, ?, ?, ?
		WHERE EXISTS (SELECT 1 FROM tapis_tables WHERE id = ?) RETURNING no`,
		args: []any{l.Table, l.Table, l.Seat, l.Player, l.Name, l.Text, l.At.UnixMilli(), l.Table},
		with: []op{{query: `DELETE FROM tapis_chat WHERE table_id = ? AND no <= (SELECT MAX(no) FROM tapis_chat WHERE table_id = ?) - ?`,
			args: []any{l.Table, l.Table, ChatKept}}}})
	return int(no), err
}

// PruneChat implements Chats. The tables are found from the chat's own
// key (a table without chat costs nothing) and their row.
func (s *SQLite) PruneChat(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.do(ctx, op{affected: &n,
		query: qPruneChat.sqlite,
		args:  []any{before.UnixMilli()}})
	return int(n), err
}

// Chat implements Chats.
func (s *SQLite) Chat(ctx context.Context, table string, limit int) ([]Line, error) {
	if s.closed() {
		return nil, ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, qChat.sqlite, table, max(limit, 0))
	if err != nil {
		return nil, fmt.Errorf("store: chat of %s: %v", table, err)
	}
	defer rows.Close()
	out, err := scanLines(rows, table)
	if err != nil {
		return nil, fmt.Errorf("store: chat of %s: %v", table, err)
	}
	return out, nil
}
