package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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
func (p *Postgres) tx(ctx context.Context, what string, f func(pgx.Tx) error) error {
	if p.closed.Load() {
		return ErrClosed
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
func (p *Postgres) one(ctx context.Context, none error, what, sql string, args ...any) error {
	n, err := p.exec(ctx, sql, args...)
	switch {
	case isTaken(err):
		return ErrTaken
	case err != nil:
		return p.fail(err, "%s", what)
	case n != 1:
		return none
	}
	return nil
}

// CreatePlayer implements Players.
func (p *Postgres) CreatePlayer(ctx context.Context, pl Player) error {
	_, err := p.exec(ctx, `INSERT INTO tapis_players (id, name, username, username_key, password, created, deleted)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, pl.ID, pl.Name, pl.Username, pl.UsernameKey, pl.Password, pl.Created.UnixMilli(), pl.Deleted)
	switch {
	case isTaken(err):
		return ErrTaken
	case isUnique(err):
		return fmt.Errorf("store: postgres: player %s exists", pl.ID)
	case err != nil:
		return p.fail(err, "player %s", pl.ID)
	}
	return nil
}

// Player implements Players.
func (p *Postgres) Player(ctx context.Context, id string) (Player, error) {
	return p.player(ctx, qPlayerByID, id)
}

// PlayerByUsername implements Players.
func (p *Postgres) PlayerByUsername(ctx context.Context, key string) (Player, error) {
	if key == "" {
		return Player{}, ErrNotFound
	}
	return p.player(ctx, qPlayerByUsername, key)
}

// player reads the player q (qPlayerByID or qPlayerByUsername) finds.
func (p *Postgres) player(ctx context.Context, q query, arg string) (Player, error) {
	if p.closed.Load() {
		return Player{}, ErrClosed
	}
	pl, err := scanPlayer(p.pool.QueryRow(ctx, q.pg, arg).Scan)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Player{}, ErrNotFound
	case err != nil:
		return Player{}, p.fail(err, "player")
	}
	return pl, nil
}

// RenamePlayer implements Players.
func (p *Postgres) RenamePlayer(ctx context.Context, id, name string) error {
	return p.tx(ctx, "renaming player "+id, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, qRenamePlayer.pg, name, id)
		switch {
		case err != nil:
			return p.fail(err, "renaming player %s", id)
		case tag.RowsAffected() != 1:
			return ErrNotFound
		}
		_, err = tx.Exec(ctx, qRenameSeats.pg, name, id)
		if err != nil {
			return p.fail(err, "renaming player %s's seats", id)
		}
		return nil
	})
}

// MoveSeats implements Players.
func (p *Postgres) MoveSeats(ctx context.Context, from, to, name string) error {
	_, err := p.pool.Exec(ctx, qMoveSeats.pg, to, name, from)
	if err != nil {
		return p.fail(err, "moving player %s's seats", from)
	}
	return nil
}

// ClaimUsername implements Players.
func (p *Postgres) ClaimUsername(ctx context.Context, id, username, key, password string) error {
	err := p.one(ctx, errUnclaimed, "claiming a username",
		qSetUsername.pg,
		username, key, password, id)
	if errors.Is(err, errUnclaimed) {
		// As in SQLite: the write was the check, the read names why.
		if _, err := p.Player(ctx, id); err != nil {
			return err
		}
		return ErrClaimed
	}
	return err
}

// SetPassword implements Players.
func (p *Postgres) SetPassword(ctx context.Context, id, password string) error {
	return p.one(ctx, ErrNotFound, "setting a password", qSetPassword.pg, password, id)
}

// DeletePlayer implements Players.
func (p *Postgres) DeletePlayer(ctx context.Context, id string) error {
	return p.tx(ctx, "deleting player "+id, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE tapis_players SET name = '', username = '', username_key = '', password = '', deleted = true
			WHERE id = $1`, id)
		switch {
		case err != nil:
			return p.fail(err, "deleting player %s", id)
		case tag.RowsAffected() != 1:
			return ErrNotFound
		}
		for _, q := range []string{
			qDeletePlayerSessions.pg,
			qForgetSeatNames.pg,
			qForgetChatNames.pg,
			qLeaveQueue.pg,
		} {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return p.fail(err, "deleting player %s", id)
			}
		}
		return nil
	})
}

// PlayerTables implements Players.
func (p *Postgres) PlayerTables(ctx context.Context, player string) ([]PlayerTable, error) {
	if p.closed.Load() {
		return nil, ErrClosed
	}
	rows, err := p.pool.Query(ctx, `
		SELECT t.id, t.game, t.players, t.created, t.creator, t.active,
		  EXISTS (SELECT 1 FROM tapis_matches WHERE table_id = t.id),
		  (SELECT count(*) FROM tapis_seats s WHERE s.table_id = t.id AND s.seat >= 0 AND s.seat < t.players
		     AND (s.bot <> '' OR s.token_hash <> '')),
		  (SELECT min(seat) FROM tapis_seats WHERE table_id = t.id AND player = $1)
		FROM tapis_tables t
		WHERE t.id IN (SELECT table_id FROM tapis_seats WHERE player = $1) AND `+openTable+`
		ORDER BY t.created DESC, t.id COLLATE "C" DESC`, player)
	if err != nil {
		return nil, p.fail(err, "tables of player %s", player)
	}
	defer rows.Close()
	var out []PlayerTable
	for rows.Next() {
		var pt PlayerTable
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

// CreateSession implements Players.
func (p *Postgres) CreateSession(ctx context.Context, s Session) error {
	_, err := p.exec(ctx, qCreateSession.pg,
		s.Hash, s.Player, s.Created.UnixMilli(), s.Expires.UnixMilli())
	if err != nil {
		return p.fail(err, "new session")
	}
	return nil
}

// Session implements Players.
func (p *Postgres) Session(ctx context.Context, hash string, now time.Time) (Session, error) {
	if p.closed.Load() {
		return Session{}, ErrClosed
	}
	s := Session{Hash: hash}
	var created, expires int64
	err := p.pool.QueryRow(ctx, qSession.pg, hash, now.UnixMilli()).
		Scan(&s.Player, &created, &expires)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Session{}, ErrNotFound
	case err != nil:
		return Session{}, p.fail(err, "session")
	}
	s.Created, s.Expires = time.UnixMilli(created), time.UnixMilli(expires)
	return s, nil
}

// DeleteSession implements Players.
func (p *Postgres) DeleteSession(ctx context.Context, hash string) error {
	if _, err := p.exec(ctx, qDeleteSession.pg, hash); err != nil {
		return p.fail(err, "ending a session")
	}
	return nil
}

// DeleteSessions implements Players.
func (p *Postgres) DeleteSessions(ctx context.Context, player, except string) error {
	if _, err := p.exec(ctx, qDeleteSessions.pg, player, except); err != nil {
		return p.fail(err, "ending the sessions of %s", player)
	}
	return nil
}

// DeleteExpiredSessions implements Players.
func (p *Postgres) DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error) {
	n, err := p.exec(ctx, qDeleteExpiredSessions.pg, now.UnixMilli())
	if err != nil {
		return 0, p.fail(err, "ending expired sessions")
	}
	return int(n), nil
}

// WaitingTables implements Lobby, in one snapshot: the tables, then their
// seats.
func (p *Postgres) WaitingTables(ctx context.Context, game string, since time.Time, limit int) ([]Table, error) {
	var saved []Saved
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
	out := make([]Table, len(saved))
	for i := range saved {
		out[i] = saved[i].Table
	}
	return out, nil
}

// Enqueue implements Queue.
func (p *Postgres) Enqueue(ctx context.Context, e Entry) error {
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

// LeaveQueue implements Queue.
func (p *Postgres) LeaveQueue(ctx context.Context, player string) error {
	if _, err := p.exec(ctx, qLeaveQueue.pg, player); err != nil {
		return p.fail(err, "%s leaving the queue", player)
	}
	return nil
}

// QueueEntry implements Queue.
func (p *Postgres) QueueEntry(ctx context.Context, player string) (Entry, error) {
	if p.closed.Load() {
		return Entry{}, ErrClosed
	}
	e, err := scanEntry(p.pool.QueryRow(ctx, entryColumns+`WHERE player = $1`, player).Scan)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Entry{}, ErrNotFound
	case err != nil:
		return Entry{}, p.fail(err, "queue entry of %s", player)
	}
	return e, nil
}

// Queued implements Queue.
func (p *Postgres) Queued(ctx context.Context, game string) ([]Entry, error) {
	if p.closed.Load() {
		return nil, ErrClosed
	}
	rows, err := p.pool.Query(ctx, entryColumns+`WHERE table_id = '' AND ($1 = '' OR game = $1) ORDER BY joined, player COLLATE "C"`, game)
	if err != nil {
		return nil, p.fail(err, "queue")
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		e, err := scanEntry(rows.Scan)
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

// SeatQueued implements Queue. The entries are marked first, by an UPDATE
// that counts the rows still waiting: a node racing for the same players
// waits on their row locks, then finds them seated and changes fewer
// rows, so it writes nothing and gets ErrQueueChanged.
func (p *Postgres) SeatQueued(ctx context.Context, players []string, t Table, start *Start) error {
	seats := make([]int, len(players))
	for i, pl := range players {
		s, err := seatOf(t, pl)
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
			return ErrQueueChanged
		}
		return p.createTable(ctx, tx, t, start)
	})
}

// AppendChat implements Chats in one statement. Two lines of one table
// written at once may both take the same number: the primary key refuses
// the second, which tries again with the next.
func (p *Postgres) AppendChat(ctx context.Context, l Line) (int, error) {
	if p.closed.Load() {
		return 0, ErrClosed
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
		p.exec(ctx, `DELETE FROM tapis_chat WHERE table_id = $1 AND no <= $2`, l.Table, no-ChatKept)
		return no, nil
	}
}

// PruneChat implements Chats, as SQLite's does.
func (p *Postgres) PruneChat(ctx context.Context, before time.Time) (int, error) {
	n, err := p.exec(ctx, qPruneChat.pg, before.UnixMilli())
	if err != nil {
		return 0, p.fail(err, "pruning the chat")
	}
	return int(n), nil
}

// Chat implements Chats.
func (p *Postgres) Chat(ctx context.Context, table string, limit int) ([]Line, error) {
	if p.closed.Load() {
		return nil, ErrClosed
	}
	rows, err := p.pool.Query(ctx, qChat.pg, table, max(limit, 0))
	if err != nil {
		return nil, p.fail(err, "chat of %s", table)
	}
	defer rows.Close()
	out, err := scanLines(rows, table)
	if err != nil {
		return nil, p.fail(err, "chat of %s", table)
	}
	return out, nil
}
