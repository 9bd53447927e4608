package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"tapis/store"
	"tapis/store/sqldb"
)

// PostgreSQL's players, sessions, lobby, queue and chat. A call that
// writes several rows does it in one transaction (or one statement).

// isTaken reports whether err is the username index refusing a row.
func isTaken(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == "tapis_players_username"
}

// tx runs f in a transaction; f's own error, already worded, comes back
// as it is.
func (p *Store) tx(ctx context.Context, what string, f func(pgx.Tx) error) error {
	if p.closed.Load() {
		return store.ErrClosed
	}
	var werr error
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		werr = f(tx)
		return werr
	})
	switch {
	case werr != nil:
		return werr
	case err != nil:
		return p.fail(err, "%s", what)
	}
	return nil
}

// one runs a write that must change one row, else returns none.
func (p *Store) one(ctx context.Context, none error, what, sql string, args ...any) error {
	n, err := p.exec(ctx, sql, args...)
	switch {
	case isTaken(err):
		return store.ErrTaken
	case err != nil:
		return p.fail(err, "%s", what)
	case n != 1:
		return none
	}
	return nil
}

// CreatePlayer implements store.Players.
func (p *Store) CreatePlayer(ctx context.Context, pl store.Player) error {
	_, err := p.exec(ctx, `INSERT INTO tapis_players (id, name, username, username_key, password, created, deleted)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, pl.ID, pl.Name, pl.Username, pl.UsernameKey, pl.Password, pl.Created.UnixMilli(), pl.Deleted)
	switch {
	case isTaken(err):
		return store.ErrTaken
	case isUnique(err):
		return fmt.Errorf("store: postgres: player %s exists", pl.ID)
	case err != nil:
		return p.fail(err, "player %s", pl.ID)
	}
	return nil
}

// Player implements store.Players.
func (p *Store) Player(ctx context.Context, id string) (store.Player, error) {
	return p.player(ctx, sqldb.PlayerByID, id)
}

// PlayerByUsername implements store.Players.
func (p *Store) PlayerByUsername(ctx context.Context, key string) (store.Player, error) {
	if key == "" {
		return store.Player{}, store.ErrNotFound
	}
	return p.player(ctx, sqldb.PlayerByUsername, key)
}

// player reads the player q (sqldb.PlayerByID or sqldb.PlayerByUsername) finds.
func (p *Store) player(ctx context.Context, q sqldb.Query, arg string) (store.Player, error) {
	if p.closed.Load() {
		return store.Player{}, store.ErrClosed
	}
	pl, err := sqldb.ScanPlayer(p.pool.QueryRow(ctx, q.Postgres, arg).Scan)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.Player{}, store.ErrNotFound
	case err != nil:
		return store.Player{}, p.fail(err, "player")
	}
	return pl, nil
}

// RenamePlayer implements store.Players.
func (p *Store) RenamePlayer(ctx context.Context, id, name string) error {
	return p.tx(ctx, "renaming player "+id, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, sqldb.RenamePlayer.Postgres, name, id)
		switch {
		case err != nil:
			return p.fail(err, "renaming player %s", id)
		case tag.RowsAffected() != 1:
			return store.ErrNotFound
		}
		_, err = tx.Exec(ctx, sqldb.RenameSeats.Postgres, name, id)
		if err != nil {
			return p.fail(err, "renaming player %s's seats", id)
		}
		return nil
	})
}

// MoveSeats implements store.Players.
func (p *Store) MoveSeats(ctx context.Context, from, to, name string) error {
	_, err := p.pool.Exec(ctx, sqldb.MoveSeats.Postgres, to, name, from)
	if err != nil {
		return p.fail(err, "moving player %s's seats", from)
	}
	return nil
}

// ClaimUsername implements store.Players.
func (p *Store) ClaimUsername(ctx context.Context, id, username, key, password string) error {
	err := p.one(ctx, sqldb.ErrUnclaimed, "claiming a username",
		sqldb.SetUsername.Postgres,
		username, key, password, id)
	if errors.Is(err, sqldb.ErrUnclaimed) {
		// As in SQLite: the write was the check, the read names why.
		if _, err := p.Player(ctx, id); err != nil {
			return err
		}
		return store.ErrClaimed
	}
	return err
}

// SetPassword implements store.Players.
func (p *Store) SetPassword(ctx context.Context, id, password string) error {
	return p.one(ctx, store.ErrNotFound, "setting a password", sqldb.SetPassword.Postgres, password, id)
}

// DeletePlayer implements store.Players.
func (p *Store) DeletePlayer(ctx context.Context, id string) error {
	return p.tx(ctx, "deleting player "+id, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE tapis_players SET name = '', username = '', username_key = '', password = '', deleted = true
			WHERE id = $1`, id)
		switch {
		case err != nil:
			return p.fail(err, "deleting player %s", id)
		case tag.RowsAffected() != 1:
			return store.ErrNotFound
		}
		qs := []string{
			sqldb.DeletePlayerSessions.Postgres,
			sqldb.ForgetSeatNames.Postgres,
			sqldb.ForgetChatNames.Postgres,
			sqldb.LeaveQueue.Postgres,
		}
		for _, q := range sqldb.ForgetPlayer {
			qs = append(qs, q.Postgres)
		}
		for _, q := range qs {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return p.fail(err, "deleting player %s", id)
			}
		}
		return nil
	})
}

// PlayerTables implements store.Players.
func (p *Store) PlayerTables(ctx context.Context, player string) ([]store.PlayerTable, error) {
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := p.pool.Query(ctx, `
		SELECT t.id, t.game, t.players, t.created, t.creator, t.active,
		  EXISTS (SELECT 1 FROM tapis_matches WHERE table_id = t.id),
		  (SELECT count(*) FROM tapis_seats s WHERE s.table_id = t.id AND s.seat >= 0 AND s.seat < t.players
		     AND (s.bot <> '' OR s.token_hash <> '')),
		  (SELECT min(seat) FROM tapis_seats WHERE table_id = t.id AND player = $1 AND bot = '')
		FROM tapis_tables t
		WHERE t.id IN (SELECT table_id FROM tapis_seats WHERE player = $1 AND bot = '') AND `+sqldb.OpenTable+`
		ORDER BY t.created DESC, t.id COLLATE "C" DESC`, player)
	if err != nil {
		return nil, p.fail(err, "tables of player %s", player)
	}
	defer rows.Close()
	var out []store.PlayerTable
	for rows.Next() {
		var pt store.PlayerTable
		var created, active int64
		if err := rows.Scan(&pt.ID, &pt.Game, &pt.Players, &created, &pt.Creator, &active, &pt.Started, &pt.Seated, &pt.Seat); err != nil {
			return nil, p.fail(err, "tables of player %s", player)
		}
		pt.Created, pt.Active = time.UnixMilli(created), time.UnixMilli(active)
		out = append(out, pt)
	}
	if err := rows.Err(); err != nil {
		return nil, p.fail(err, "tables of player %s", player)
	}
	return out, nil
}

// CreateSession implements store.Players.
func (p *Store) CreateSession(ctx context.Context, s store.Session) error {
	_, err := p.exec(ctx, sqldb.CreateSession.Postgres,
		s.Hash, s.Player, s.Created.UnixMilli(), s.Expires.UnixMilli())
	if err != nil {
		return p.fail(err, "new session")
	}
	return nil
}

// Session implements store.Players.
func (p *Store) Session(ctx context.Context, hash string, now time.Time) (store.Session, error) {
	if p.closed.Load() {
		return store.Session{}, store.ErrClosed
	}
	s := store.Session{Hash: hash}
	var created, expires int64
	err := p.pool.QueryRow(ctx, sqldb.Session.Postgres, hash, now.UnixMilli()).
		Scan(&s.Player, &created, &expires)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.Session{}, store.ErrNotFound
	case err != nil:
		return store.Session{}, p.fail(err, "session")
	}
	s.Created, s.Expires = time.UnixMilli(created), time.UnixMilli(expires)
	return s, nil
}

// DeleteSession implements store.Players.
func (p *Store) DeleteSession(ctx context.Context, hash string) error {
	if _, err := p.exec(ctx, sqldb.DeleteSession.Postgres, hash); err != nil {
		return p.fail(err, "ending a session")
	}
	return nil
}

// DeleteSessions implements store.Players.
func (p *Store) DeleteSessions(ctx context.Context, player, except string) error {
	if _, err := p.exec(ctx, sqldb.DeleteSessions.Postgres, player, except); err != nil {
		return p.fail(err, "ending the sessions of %s", player)
	}
	return nil
}

// DeleteExpiredSessions implements store.Players.
func (p *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error) {
	n, err := p.exec(ctx, sqldb.DeleteExpiredSessions.Postgres, now.UnixMilli())
	if err != nil {
		return 0, p.fail(err, "ending expired sessions")
	}
	return int(n), nil
}

// WaitingTables implements store.Lobby, in one snapshot: the tables, then their
// seats.
func (p *Store) WaitingTables(ctx context.Context, game string, since time.Time, limit int) ([]store.Table, error) {
	var saved []store.Saved
	err := p.read(ctx, "waiting tables", func(tx pgx.Tx) error {
		var err error
		saved, err = latest(ctx, tx, pgLatest+`
			WHERE t.public AND t.closed = '' AND ($1 = '' OR t.game = $1) AND m.no IS NULL AND t.active >= $3
			  AND (SELECT count(*) FROM tapis_seats s WHERE s.table_id = t.id AND s.seat >= 0 AND s.seat < t.players
			         AND (s.bot <> '' OR s.token_hash <> '')) < t.players
			ORDER BY t.created DESC, t.id COLLATE "C" DESC LIMIT $2`, game, max(limit, 0), since.UnixMilli())
		if err != nil {
			return err
		}
		return fill(ctx, tx, saved)
	})
	if err != nil {
		return nil, err
	}
	out := make([]store.Table, len(saved))
	for i := range saved {
		out[i] = saved[i].Table
	}
	return out, nil
}

// Enqueue implements store.Queue.
func (p *Store) Enqueue(ctx context.Context, e store.Entry) error {
	_, err := p.exec(ctx, `INSERT INTO tapis_queue (player, name, game, players, bot, wait_ms, joined, table_id, seat)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (player) DO UPDATE SET name = excluded.name, game = excluded.game, players = excluded.players,
		  bot = excluded.bot, wait_ms = excluded.wait_ms, joined = excluded.joined, table_id = excluded.table_id, seat = excluded.seat`,
		e.Player, e.Name, e.Game, e.Players, e.Bot, e.Wait.Milliseconds(), e.Joined.UnixMilli(), e.Table, e.Seat)
	if err != nil {
		return p.fail(err, "queueing %s", e.Player)
	}
	return nil
}

// LeaveQueue implements store.Queue.
func (p *Store) LeaveQueue(ctx context.Context, player string) error {
	if _, err := p.exec(ctx, sqldb.LeaveQueue.Postgres, player); err != nil {
		return p.fail(err, "%s leaving the queue", player)
	}
	return nil
}

// QueueEntry implements store.Queue.
func (p *Store) QueueEntry(ctx context.Context, player string) (store.Entry, error) {
	if p.closed.Load() {
		return store.Entry{}, store.ErrClosed
	}
	e, err := sqldb.ScanEntry(p.pool.QueryRow(ctx, sqldb.EntryColumns+`WHERE player = $1`, player).Scan)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.Entry{}, store.ErrNotFound
	case err != nil:
		return store.Entry{}, p.fail(err, "queue entry of %s", player)
	}
	return e, nil
}

// Queued implements store.Queue.
func (p *Store) Queued(ctx context.Context, game string) ([]store.Entry, error) {
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := p.pool.Query(ctx, sqldb.EntryColumns+`WHERE table_id = '' AND ($1 = '' OR game = $1) ORDER BY joined, player COLLATE "C"`, game)
	if err != nil {
		return nil, p.fail(err, "queue")
	}
	defer rows.Close()
	var out []store.Entry
	for rows.Next() {
		e, err := sqldb.ScanEntry(rows.Scan)
		if err != nil {
			return nil, p.fail(err, "queue")
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, p.fail(err, "queue")
	}
	return out, nil
}

// SeatQueued implements store.Queue. The entries are marked first, by an UPDATE
// that counts the rows still waiting: a node racing for the same players
// waits on their row locks, then finds them seated and changes fewer
// rows, so it writes nothing and gets ErrQueueChanged.
func (p *Store) SeatQueued(ctx context.Context, players []string, t store.Table, start *store.Start) error {
	seats := make([]int, len(players))
	for i, pl := range players {
		s, err := t.SeatOf(pl)
		if err != nil {
			return err
		}
		seats[i] = s
	}
	return p.tx(ctx, "seating the queue at "+t.ID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE tapis_queue q SET table_id = $1, seat = s.seat
			FROM unnest($2::text[], $3::integer[]) AS s(player, seat)
			WHERE q.player = s.player AND q.table_id = ''`, t.ID, players, seats)
		switch {
		case err != nil:
			return p.fail(err, "seating the queue at %s", t.ID)
		case tag.RowsAffected() != int64(len(players)):
			return store.ErrQueueChanged
		}
		return p.createTable(ctx, tx, t, start)
	})
}

// AppendChat implements store.Chats in one statement. Two lines of one table
// written at once may both take the same number: the primary key refuses
// the second, which tries again with the next.
func (p *Store) AppendChat(ctx context.Context, l store.Line) (int, error) {
	if p.closed.Load() {
		return 0, store.ErrClosed
	}
	for try := 0; ; try++ {
		var no int
		err := p.pool.QueryRow(ctx, `INSERT INTO tapis_chat (table_id, no, seat, player, name, text, at)
			SELECT $1, COALESCE((SELECT max(no) FROM tapis_chat WHERE table_id = $1), 0) + 1, $2, $3, $4, $5, $6
			WHERE EXISTS (SELECT 1 FROM tapis_tables WHERE id = $1) RETURNING no`,
			l.Table, l.Seat, l.Player, l.Name, l.Text, l.At.UnixMilli()).Scan(&no)
		switch {
		case isUnique(err) && try < 100:
			continue
		case errors.Is(err, pgx.ErrNoRows):
			return 0, fmt.Errorf("store: postgres: no table %s", l.Table)
		case err != nil:
			return 0, p.fail(err, "chat of %s", l.Table)
		}
		// The lines past ChatKept go, apart from the insert: the line is
		// stored whatever happens to the delete, and a delete that fails
		// (or a crash between the two) leaves a few lines too many, which
		// the next line's delete takes.
		p.exec(ctx, `DELETE FROM tapis_chat WHERE table_id = $1 AND no <= $2`, l.Table, no-store.ChatKept)
		return no, nil
	}
}

// PruneChat implements store.Chats, as SQLite's does.
func (p *Store) PruneChat(ctx context.Context, before time.Time) (int, error) {
	n, err := p.exec(ctx, sqldb.PruneChat.Postgres, before.UnixMilli())
	if err != nil {
		return 0, p.fail(err, "pruning the chat")
	}
	return int(n), nil
}

// Chat implements store.Chats.
func (p *Store) Chat(ctx context.Context, table string, limit int) ([]store.Line, error) {
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := p.pool.Query(ctx, sqldb.Chat.Postgres, table, max(limit, 0))
	if err != nil {
		return nil, p.fail(err, "chat of %s", table)
	}
	defer rows.Close()
	out, err := sqldb.ScanLines(rows, table)
	if err != nil {
		return nil, p.fail(err, "chat of %s", table)
	}
	return out, nil
}

// Secret implements store.Secrets. Under READ COMMITTED, an insert meeting
// another node's, not yet committed, waits for it and then does nothing;
// the SELECT, a statement of its own, sees whichever row was committed.
func (p *Store) Secret(ctx context.Context) ([]byte, error) {
	if _, err := p.exec(ctx, sqldb.NewSecret.Postgres,
		sqldb.SecretName, store.NewSecret()); err != nil {
		return nil, p.fail(err, "the server's secret")
	}
	var b []byte
	if err := p.pool.QueryRow(ctx, sqldb.Secret.Postgres, sqldb.SecretName).Scan(&b); err != nil {
		return nil, p.fail(err, "the server's secret")
	}
	return store.CheckSecret(b)
}
