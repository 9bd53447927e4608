package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tapis/store"
	"tapis/store/sqldb"
)

// SQLite's players, sessions, lobby, queue and chat. Writes go through
// the writer like every other (several rows of one call in one op, so
// all or none); reads query the database directly.

// CreatePlayer implements store.Players.
func (s *Store) CreatePlayer(ctx context.Context, p store.Player) error {
	return s.do(ctx, op{one: true, what: fmt.Sprintf("player %s exists", p.ID), conflict: store.ErrTaken,
		query: `INSERT INTO tapis_players (id, name, username, username_key, password, created, deleted)
		SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM tapis_players WHERE id = ?)`,
		args: []any{p.ID, p.Name, p.Username, p.UsernameKey, p.Password, p.Created.UnixMilli(), p.Deleted, p.ID}})
}

// Player implements store.Players.
func (s *Store) Player(ctx context.Context, id string) (store.Player, error) {
	return s.player(ctx, sqldb.PlayerByID, id)
}

// PlayerByUsername implements store.Players.
func (s *Store) PlayerByUsername(ctx context.Context, key string) (store.Player, error) {
	if key == "" {
		return store.Player{}, store.ErrNotFound
	}
	return s.player(ctx, sqldb.PlayerByUsername, key)
}

// player reads the player q (sqldb.PlayerByID or sqldb.PlayerByUsername) finds.
func (s *Store) player(ctx context.Context, q sqldb.Query, arg string) (store.Player, error) {
	if s.closed() {
		return store.Player{}, store.ErrClosed
	}
	p, err := sqldb.ScanPlayer(s.db.QueryRowContext(ctx, q.SQLite, arg).Scan)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return store.Player{}, store.ErrNotFound
	case err != nil:
		return store.Player{}, fmt.Errorf("store: player: %v", err)
	}
	return p, nil
}

// RenamePlayer implements store.Players.
func (s *Store) RenamePlayer(ctx context.Context, id, name string) error {
	return s.do(ctx, op{one: true, refused: store.ErrNotFound, query: sqldb.RenamePlayer.SQLite, args: []any{name, id},
		with: []op{{query: sqldb.RenameSeats.SQLite,
			args: []any{name, id}}}})
}

// MoveSeats implements store.Players.
func (s *Store) MoveSeats(ctx context.Context, from, to, name string) error {
	return s.do(ctx, op{query: sqldb.MoveSeats.SQLite,
		args: []any{to, name, from}})
}

// ClaimUsername implements store.Players.
func (s *Store) ClaimUsername(ctx context.Context, id, username, key, password string) error {
	err := s.do(ctx, op{one: true, refused: sqldb.ErrUnclaimed, conflict: store.ErrTaken,
		query: sqldb.SetUsername.SQLite,
		args:  []any{username, key, password, id}})
	if errors.Is(err, sqldb.ErrUnclaimed) {
		return s.whyUnclaimed(ctx, id)
	}
	return err
}

// whyUnclaimed returns the error of a claim by id that changed nothing:
// ErrNotFound, or ErrClaimed. The write itself was the check (a player
// with a username is never changed); this read only names the reason.
func (s *Store) whyUnclaimed(ctx context.Context, id string) error {
	if _, err := s.Player(ctx, id); err != nil {
		return err
	}
	return store.ErrClaimed
}

// SetPassword implements store.Players.
func (s *Store) SetPassword(ctx context.Context, id, password string) error {
	return s.do(ctx, op{one: true, refused: store.ErrNotFound, query: sqldb.SetPassword.SQLite, args: []any{password, id}})
}

// DeletePlayer implements store.Players.
func (s *Store) DeletePlayer(ctx context.Context, id string) error {
	return s.do(ctx, op{one: true, refused: store.ErrNotFound,
		query: `UPDATE tapis_players SET name = '', username = '', username_key = '', password = '', deleted = 1 WHERE id = ?`, args: []any{id},
		with: append([]op{
			{query: sqldb.DeletePlayerSessions.SQLite, args: []any{id}},
			{query: sqldb.ForgetSeatNames.SQLite, args: []any{id}},
			{query: sqldb.ForgetChatNames.SQLite, args: []any{id}},
			{query: sqldb.LeaveQueue.SQLite, args: []any{id}},
		}, forgetOps(id)...)})
}

// forgetOps are the writes of sqldb.ForgetPlayer for player id.
func forgetOps(id string) []op {
	ops := make([]op, len(sqldb.ForgetPlayer))
	for i, q := range sqldb.ForgetPlayer {
		ops[i] = op{query: q.SQLite, args: []any{id}}
	}
	return ops
}

// PlayerTables implements store.Players.
func (s *Store) PlayerTables(ctx context.Context, player string) ([]store.PlayerTable, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, `
		SELECT t.id, t.game, t.players, t.created, t.creator, t.active,
		  EXISTS (SELECT 1 FROM tapis_matches WHERE table_id = t.id),
		  (SELECT COUNT(*) FROM tapis_seats s WHERE s.table_id = t.id AND s.seat >= 0 AND s.seat < t.players
		     AND (s.bot <> '' OR s.token_hash <> '')),
		  (SELECT MIN(seat) FROM tapis_seats WHERE table_id = t.id AND player = ? AND bot = '')
		FROM tapis_tables t
		WHERE t.id IN (SELECT table_id FROM tapis_seats WHERE player = ? AND bot = '') AND `+sqldb.OpenTable+`
		ORDER BY t.created DESC, t.id DESC`, player, player)
	if err != nil {
		return nil, fmt.Errorf("store: tables of player %s: %v", player, err)
	}
	defer rows.Close()
	var out []store.PlayerTable
	for rows.Next() {
		var pt store.PlayerTable
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

// CreateSession implements store.Players.
func (s *Store) CreateSession(ctx context.Context, ss store.Session) error {
	return s.exec(ctx, sqldb.CreateSession.SQLite,
		ss.Hash, ss.Player, ss.Created.UnixMilli(), ss.Expires.UnixMilli())
}

// Session implements store.Players.
func (s *Store) Session(ctx context.Context, hash string, now time.Time) (store.Session, error) {
	if s.closed() {
		return store.Session{}, store.ErrClosed
	}
	ss := store.Session{Hash: hash}
	var created, expires int64
	err := s.db.QueryRowContext(ctx, sqldb.Session.SQLite, hash, now.UnixMilli()).
		Scan(&ss.Player, &created, &expires)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return store.Session{}, store.ErrNotFound
	case err != nil:
		return store.Session{}, fmt.Errorf("store: session: %v", err)
	}
	ss.Created, ss.Expires = time.UnixMilli(created), time.UnixMilli(expires)
	return ss, nil
}

// DeleteSession implements store.Players.
func (s *Store) DeleteSession(ctx context.Context, hash string) error {
	return s.exec(ctx, sqldb.DeleteSession.SQLite, hash)
}

// DeleteSessions implements store.Players.
func (s *Store) DeleteSessions(ctx context.Context, player, except string) error {
	return s.exec(ctx, sqldb.DeleteSessions.SQLite, player, except)
}

// DeleteExpiredSessions implements store.Players.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error) {
	var n int64
	err := s.do(ctx, op{query: sqldb.DeleteExpiredSessions.SQLite, args: []any{now.UnixMilli()}, affected: &n})
	return int(n), err
}

// WaitingTables implements store.Lobby.
func (s *Store) WaitingTables(ctx context.Context, game string, since time.Time, limit int) ([]store.Table, error) {
	if s.closed() {
		return nil, store.ErrClosed
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
	out := make([]store.Table, 0, len(ids))
	for _, id := range ids {
		t, err := s.Load(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, t.Table)
	}
	return out, nil
}

// Enqueue implements store.Queue.
func (s *Store) Enqueue(ctx context.Context, e store.Entry) error {
	return s.exec(ctx, `INSERT OR REPLACE INTO tapis_queue (player, name, game, players, bot, wait_ms, joined, table_id, seat)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Player, e.Name, e.Game, e.Players, e.Bot, e.Wait.Milliseconds(), e.Joined.UnixMilli(), e.Table, e.Seat)
}

// LeaveQueue implements store.Queue.
func (s *Store) LeaveQueue(ctx context.Context, player string) error {
	return s.exec(ctx, sqldb.LeaveQueue.SQLite, player)
}

// QueueEntry implements store.Queue.
func (s *Store) QueueEntry(ctx context.Context, player string) (store.Entry, error) {
	if s.closed() {
		return store.Entry{}, store.ErrClosed
	}
	e, err := sqldb.ScanEntry(s.db.QueryRowContext(ctx, sqldb.EntryColumns+`WHERE player = ?`, player).Scan)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return store.Entry{}, store.ErrNotFound
	case err != nil:
		return store.Entry{}, fmt.Errorf("store: queue entry of %s: %v", player, err)
	}
	return e, nil
}

// Queued implements store.Queue.
func (s *Store) Queued(ctx context.Context, game string) ([]store.Entry, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, sqldb.EntryColumns+`WHERE table_id = '' AND (? = '' OR game = ?) ORDER BY joined, player`, game, game)
	if err != nil {
		return nil, fmt.Errorf("store: queue: %v", err)
	}
	defer rows.Close()
	var out []store.Entry
	for rows.Next() {
		e, err := sqldb.ScanEntry(rows.Scan)
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

// SeatQueued implements store.Queue: the table as CreateTable writes it, and
// each entry marked seated only if it is still waiting, all in one op.
// The one writer runs ops one at a time, and each in a transaction, so
// two SeatQueued calls racing for a player cannot both see it waiting.
func (s *Store) SeatQueued(ctx context.Context, players []string, t store.Table, start *store.Start) error {
	o, err := createOp(t, start)
	if err != nil {
		return err
	}
	for _, p := range players {
		seat, err := t.SeatOf(p)
		if err != nil {
			return err
		}
		o.with = append(o.with, op{one: true, refused: store.ErrQueueChanged,
			query: `UPDATE tapis_queue SET table_id = ?, seat = ? WHERE player = ? AND table_id = ''`, args: []any{t.ID, seat, p}})
	}
	return s.do(ctx, o)
}

// AppendChat implements store.Chats.
func (s *Store) AppendChat(ctx context.Context, l store.Line) (int, error) {
	var no int64
	err := s.do(ctx, op{one: true, what: fmt.Sprintf("no table %s", l.Table), ret: &no,
		query: `INSERT INTO tapis_chat (table_id, no, seat, player, name, text, at)
		SELECT ?, COALESCE((SELECT MAX(no) FROM tapis_chat WHERE table_id = ?), 0) + 1, ?, ?, ?, ?, ?
		WHERE EXISTS (SELECT 1 FROM tapis_tables WHERE id = ?) RETURNING no`,
		args: []any{l.Table, l.Table, l.Seat, l.Player, l.Name, l.Text, l.At.UnixMilli(), l.Table},
		with: []op{{query: `DELETE FROM tapis_chat WHERE table_id = ? AND no <= (SELECT MAX(no) FROM tapis_chat WHERE table_id = ?) - ?`,
			args: []any{l.Table, l.Table, store.ChatKept}}}})
	return int(no), err
}

// PruneChat implements store.Chats. The tables are found from the chat's own
// key (a table without chat costs nothing) and their row.
func (s *Store) PruneChat(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.do(ctx, op{affected: &n,
		query: sqldb.PruneChat.SQLite,
		args:  []any{before.UnixMilli()}})
	return int(n), err
}

// Chat implements store.Chats.
func (s *Store) Chat(ctx context.Context, table string, limit int) ([]store.Line, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, sqldb.Chat.SQLite, table, max(limit, 0))
	if err != nil {
		return nil, fmt.Errorf("store: chat of %s: %v", table, err)
	}
	defer rows.Close()
	out, err := sqldb.ScanLines(rows, table)
	if err != nil {
		return nil, fmt.Errorf("store: chat of %s: %v", table, err)
	}
	return out, nil
}

// Secret implements store.Secrets. It is read once per server start, so it
// goes through the writer like any write, then reads what was kept.
func (s *Store) Secret(ctx context.Context) ([]byte, error) {
	if err := s.exec(ctx, sqldb.NewSecret.SQLite,
		sqldb.SecretName, store.NewSecret()); err != nil {
		return nil, fmt.Errorf("store: the server's secret: %w", err)
	}
	if s.closed() {
		return nil, store.ErrClosed
	}
	var b []byte
	if err := s.db.QueryRowContext(ctx, sqldb.Secret.SQLite, sqldb.SecretName).Scan(&b); err != nil {
		return nil, fmt.Errorf("store: the server's secret: %v", err)
	}
	return store.CheckSecret(b)
}
