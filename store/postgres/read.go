package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"tapis/store"
)

// pgLatest selects tables with their latest match, if any; the caller
// adds the WHERE clause.
const pgLatest = `
	SELECT t.id, t.game, t.players, t.options, t.created, t.turn_ms, t.creator, t.active, t.closed, t.reason,
	  t.host, t.memory_aid, t.public, t.lang, t.rated, t.coach, m.no, m.seed, m.over
	FROM tapis_tables t LEFT JOIN LATERAL (
		SELECT no, seed, over FROM tapis_matches WHERE table_id = t.id ORDER BY no DESC LIMIT 1
	) m ON true
`

// pgOpen lists the open tables with what Summary needs, in one query.
// Tables sort by id in bytes (COLLATE "C"), as in SQLite and memory,
// whatever the database's collation.
const pgOpen = `
	SELECT t.id, t.game, t.players, t.created, t.creator, t.active, m.no IS NOT NULL,
	  (SELECT count(*) FROM tapis_seats s WHERE s.table_id = t.id AND s.seat >= 0 AND s.seat < t.players
	     AND (s.bot <> '' OR s.token_hash <> ''))
	FROM tapis_tables t LEFT JOIN LATERAL (
		SELECT no, over FROM tapis_matches WHERE table_id = t.id ORDER BY no DESC LIMIT 1
	) m ON true
	WHERE t.closed = '' AND m.over IS NOT TRUE
	ORDER BY t.id COLLATE "C"`

// Open implements store.Store in one round trip, whatever the number of tables.
// PostgreSQL holds each column to its type, so only a number of players
// out of bounds makes a Problem.
func (p *Store) Open(ctx context.Context) ([]store.Summary, error) {
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := p.pool.Query(ctx, pgOpen)
	if err != nil {
		return nil, p.fail(err, "open tables")
	}
	defer rows.Close()
	var out []store.Summary
	for rows.Next() {
		var sm store.Summary
		var created, active int64
		var seated int64
		if err := rows.Scan(&sm.ID, &sm.Game, &sm.Players, &created, &sm.Creator, &active, &sm.Started, &seated); err != nil {
			return nil, p.fail(err, "open tables")
		}
		sm.Created, sm.Active, sm.Seated = time.UnixMilli(created), time.UnixMilli(active), int(seated)
		if err := store.CheckPlayers(sm.Players); err != nil {
			sm.Problem = err.Error()
		}
		out = append(out, sm)
	}
	if err := rows.Err(); err != nil {
		return nil, p.fail(err, "open tables")
	}
	return out, nil
}

// Load implements store.Store in three round trips: the table, then its seats
// and moves together.
func (p *Store) Load(ctx context.Context, id string) (store.Saved, error) {
	var out []store.Saved
	err := p.read(ctx, "table "+id, func(tx pgx.Tx) error {
		var err error
		out, err = latest(ctx, tx, pgLatest+` WHERE t.id = $1`, id)
		if err != nil {
			return err
		}
		if len(out) == 0 {
			return errors.New("no such table")
		}
		return fill(ctx, tx, out)
	})
	if err != nil {
		return store.Saved{}, err
	}
	return out[0], nil
}

// Tables implements store.Store.
func (p *Store) Tables(ctx context.Context) ([]string, error) {
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := p.pool.Query(ctx, `SELECT id FROM tapis_tables ORDER BY id COLLATE "C"`)
	if err != nil {
		return nil, p.fail(err, "tables")
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, p.fail(err, "tables")
	}
	return ids, nil
}

// Check implements store.IntegrityChecker. PostgreSQL checksums and repairs its own
// pages (or says so in its log); what is checked here is that Tapis's
// tables are all there and readable, which a dropped table or a revoked
// privilege would break.
func (p *Store) Check(ctx context.Context) error {
	return p.read(ctx, "check", func(tx pgx.Tx) error {
		for _, t := range []string{"tapis_tables", "tapis_seats", "tapis_matches", "tapis_moves",
			"tapis_players", "tapis_sessions", "tapis_queue", "tapis_chat"} {
			rows, err := tx.Query(ctx, `SELECT * FROM `+t+` LIMIT 1`)
			if err != nil {
				return fmt.Errorf("%s: %w", t, err)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("%s: %w", t, err)
			}
		}
		return nil
	})
}

// read runs f in a read-only snapshot, so that the tables, seats and
// moves it reads in several queries agree with each other although
// writers go on.
func (p *Store) read(ctx context.Context, what string, f func(pgx.Tx) error) error {
	if p.closed.Load() {
		return store.ErrClosed
	}
	err := pgx.BeginTxFunc(ctx, p.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, f)
	if err != nil {
		return p.fail(err, "%s", what)
	}
	return nil
}

// latest runs a pgLatest query.
func latest(ctx context.Context, tx pgx.Tx, query string, args ...any) ([]store.Saved, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Saved
	for rows.Next() {
		var t store.Saved
		var opts, closed string
		var created, active int64
		var turn int64
		var no *int
		var seed *int64
		var over *bool
		if err := rows.Scan(&t.ID, &t.Game, &t.Players, &opts, &created, &turn, &t.Creator, &active, &closed, &t.Reason,
			&t.Host, &t.MemoryAid, &t.Public, &t.Lang, &t.Rated, &t.Coach, &no, &seed, &over); err != nil {
			return nil, err
		}
		if err := store.CheckPlayers(t.Players); err != nil {
			return nil, err
		}
		t.Options = json.RawMessage(opts)
		t.Created, t.Active = time.UnixMilli(created), time.UnixMilli(active)
		t.TurnTime = time.Duration(turn) * time.Millisecond
		t.Closed = store.Closed(closed)
		if no != nil {
			t.Match = &store.Match{No: *no, Seed: uint64(*seed), Over: *over}
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// fill reads the seats of tables and the moves of their latest matches,
// both queries sent at once.
func fill(ctx context.Context, tx pgx.Tx, tables []store.Saved) error {
	if len(tables) == 0 {
		return nil
	}
	at := make(map[string]*store.Saved, len(tables))
	ids := make([]string, 0, len(tables))
	var mids []string
	var nos []int
	for i := range tables {
		t := &tables[i]
		t.Seats = make([]store.Seat, t.Players)
		at[t.ID] = t
		ids = append(ids, t.ID)
		if t.Match != nil {
			mids, nos = append(mids, t.ID), append(nos, t.Match.No)
		}
	}
	var b pgx.Batch
	b.Queue(`SELECT table_id, seat, name, bot, token_hash, player FROM tapis_seats WHERE table_id = ANY($1)`, ids).
		Query(func(rows pgx.Rows) error { return scanSeats(rows, at) })
	b.Queue(`
		SELECT mv.table_id, mv.idx, mv.seat, mv.move
		FROM unnest($1::text[], $2::integer[]) AS l(table_id, no)
		JOIN tapis_moves mv ON mv.table_id = l.table_id AND mv.no = l.no
		ORDER BY mv.table_id, mv.idx`, mids, nos).
		Query(func(rows pgx.Rows) error { return scanMoves(rows, at) })
	return tx.SendBatch(ctx, &b).Close()
}

// scanSeats puts each seat row in its table; a seat outside the table's
// players is ignored, as SQLite's store does.
func scanSeats(rows pgx.Rows, at map[string]*store.Saved) error {
	for rows.Next() {
		var id string
		var i int
		var s store.Seat
		if err := rows.Scan(&id, &i, &s.Name, &s.Bot, &s.TokenHash, &s.Player); err != nil {
			return fmt.Errorf("seats: %w", err)
		}
		if t := at[id]; t != nil && i >= 0 && i < len(t.Seats) {
			t.Seats[i] = s
		}
	}
	return rows.Err()
}

// scanMoves appends each move row to its table's match, in index order.
func scanMoves(rows pgx.Rows, at map[string]*store.Saved) error {
	for rows.Next() {
		var id, mv string
		var idx int
		var m store.Move
		if err := rows.Scan(&id, &idx, &m.Seat, &mv); err != nil {
			return fmt.Errorf("moves: %w", err)
		}
		t := at[id]
		if t == nil || t.Match == nil {
			continue
		}
		if idx != len(t.Match.Moves) {
			return fmt.Errorf("moves of %s: move %d is missing", id, len(t.Match.Moves))
		}
		m.Move = json.RawMessage(mv)
		t.Match.Moves = append(t.Match.Moves, m)
	}
	return rows.Err()
}

// pgMatch selects a table with one match of it by number (pgLatest's
// columns).
const pgMatch = `
	SELECT t.id, t.game, t.players, t.options, t.created, t.turn_ms, t.creator, t.active, t.closed, t.reason,
	  t.host, t.memory_aid, t.public, t.lang, t.rated, t.coach, m.no, m.seed, m.over
	FROM tapis_tables t LEFT JOIN tapis_matches m ON m.table_id = t.id AND m.no = $2
	WHERE t.id = $1`

// Match implements store.Store, as Load does, in one snapshot.
func (p *Store) Match(ctx context.Context, id string, no int) (store.Saved, error) {
	var out []store.Saved
	err := p.read(ctx, "table "+id, func(tx pgx.Tx) error {
		var err error
		out, err = latest(ctx, tx, pgMatch, id, no)
		if err != nil {
			return err
		}
		if len(out) == 0 || out[0].Match == nil {
			return store.NoMatch(id, no)
		}
		return fill(ctx, tx, out)
	})
	if err != nil {
		return store.Saved{}, err
	}
	return out[0], nil
}
