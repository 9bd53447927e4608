package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgSchema is the SQLite schema in PostgreSQL's types; a column added
// since the first version (turn_ms) is added to an existing table by
// ALTER TABLE ... IF NOT EXISTS. The tables carry a
// tapis_ prefix and no schema name, so they land in the connection's
// search_path: Tapis can share a database, and a schema of its own is one
// "?search_path=tapis" away. The advisory lock serialises two servers
// creating the tables at once, which CREATE TABLE IF NOT EXISTS alone
// does not (both may try to create the same table type). Sent without
// arguments, the statements run as one implicit transaction, so the lock
// holds to the end.
const pgSchema = `
SELECT pg_advisory_xact_lock(7415327391);
CREATE TABLE IF NOT EXISTS tapis_tables (
	id      text PRIMARY KEY,
	game    text NOT NULL,
	players integer NOT NULL,
	options text NOT NULL,
	created timestamptz NOT NULL
);
ALTER TABLE tapis_tables ADD COLUMN IF NOT EXISTS turn_ms bigint NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS tapis_seats (
	table_id   text NOT NULL,
	seat       integer NOT NULL,
	name       text NOT NULL,
	bot        text NOT NULL,
	token_hash text NOT NULL,
	PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS tapis_matches (
	table_id text NOT NULL,
	no       integer NOT NULL,
	seed     bigint NOT NULL,
	over     boolean NOT NULL DEFAULT false,
	PRIMARY KEY (table_id, no)
);
CREATE TABLE IF NOT EXISTS tapis_moves (
	table_id text NOT NULL,
	no       integer NOT NULL,
	idx      integer NOT NULL,
	seat     integer NOT NULL,
	move     text NOT NULL,
	PRIMARY KEY (table_id, no, idx)
);
`

// Postgres is a Store in a PostgreSQL database, for a server that already
// runs one or wants its game logs beside other data. Each write is one
// statement in its own transaction, committed before it returns; the
// server groups the commits of concurrent connections into one WAL flush,
// which is what the SQLite store's writer does by hand.
type Postgres struct {
	pool   *pgxpool.Pool
	closed atomic.Bool
	once   sync.Once
}

// pgMaxConns is how many connections a store opens unless its URL says
// otherwise (pgx would open as many as there are CPUs, at least 4). A
// commit waits for its WAL flush, and the server flushes the commits of
// every waiting connection at once, so more connections put more moves
// in a flush: from 1,000 tables at once, 4 connections appended about
// 10,000 moves/s on a 2-CPU machine, 16 about 16,000, 64 about 21,000.
// 16 leaves most of PostgreSQL's default 100 connections to others.
const pgMaxConns = 16

// OpenPostgres connects to the database at dbURL (postgres://user:password@
// host:port/database?options, see pgx's ParseConfig) and creates Tapis's
// tables there if they are missing. pool_max_conns in dbURL sets how many
// connections it may open (default pgMaxConns).
func OpenPostgres(ctx context.Context, dbURL string) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return nil, parseError(err)
	}
	if !strings.Contains(dbURL, "pool_max_conns=") {
		cfg.MaxConns = pgMaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: postgres: %w", err)
	}
	// The pool connects lazily: connect now, so that a wrong address or
	// password is reported as such, not as a failure to create tables.
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: postgres: %w", err)
	}
	if _, err := pool.Exec(ctx, pgSchema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: postgres: schema: %w", err)
	}
	return &Postgres{pool: pool}, nil
}

// parseError says what is wrong with a connection URL without quoting the
// URL: pgx's message masks the password only on a best-effort basis, and
// url.Parse's, which pgx may wrap, quotes it verbatim.
func parseError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("store: postgres: connection URL: %v", ue.Err)
	}
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		c := *pe
		c.ConnString = "postgres://…"
		return fmt.Errorf("store: postgres: connection URL: %v", &c)
	}
	return errors.New("store: postgres: connection URL does not parse")
}

// fail wraps a failed operation's error with what failed, formatted only
// now: the writes that succeed, most of them, format nothing. Once Close
// has begun, the pool refuses work with its own error; the caller gets
// ErrClosed, as from every other store.
func (p *Postgres) fail(err error, format string, args ...any) error {
	if errors.Is(err, ErrClosed) || p.closed.Load() {
		return ErrClosed
	}
	return fmt.Errorf("store: postgres: %s: %w", fmt.Sprintf(format, args...), err)
}

// exec runs one write and returns the number of rows it changed.
func (p *Postgres) exec(ctx context.Context, sql string, args ...any) (int64, error) {
	if p.closed.Load() {
		return 0, ErrClosed
	}
	tag, err := p.pool.Exec(ctx, sql, args...)
	return tag.RowsAffected(), err
}

// isUnique reports whether err is a primary key refusing a second row.
func isUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// CreateTable implements Store. The table and its seats go in as one
// statement, so a table is never seen without its seats. A seat already
// recorded under the new table's id (SetSeat, like SQLite's, does not
// check the table) is replaced, as SQLite's store replaces it.
func (p *Postgres) CreateTable(ctx context.Context, t Table) error {
	opts := string(t.Options)
	if opts == "" {
		opts = "{}"
	}
	names := make([]string, len(t.Seats))
	bots := make([]string, len(t.Seats))
	hashes := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		names[i], bots[i], hashes[i] = s.Name, s.Bot, s.TokenHash
	}
	_, err := p.exec(ctx, `
		WITH t AS (
			INSERT INTO tapis_tables (id, game, players, options, created, turn_ms) VALUES ($1, $2, $3, $4, $5, $9)
		)
		INSERT INTO tapis_seats (table_id, seat, name, bot, token_hash)
		SELECT $1, s.n - 1, s.name, s.bot, s.token_hash
		FROM unnest($6::text[], $7::text[], $8::text[]) WITH ORDINALITY AS s(name, bot, token_hash, n)
		ON CONFLICT (table_id, seat) DO UPDATE
		SET name = excluded.name, bot = excluded.bot, token_hash = excluded.token_hash`,
		t.ID, t.Game, t.Players, opts, millis(t.Created), names, bots, hashes, t.TurnTime.Milliseconds())
	switch {
	case isUnique(err):
		return fmt.Errorf("store: postgres: table %s exists", t.ID)
	case err != nil:
		return p.fail(err, "table %s", t.ID)
	}
	return nil
}

// millis rounds t as the SQLite store does, which keeps milliseconds:
// a time reads back the same from every store.
func millis(t time.Time) time.Time { return time.UnixMilli(t.UnixMilli()) }

// SetSeat implements Store.
func (p *Postgres) SetSeat(ctx context.Context, table string, seat int, s Seat) error {
	n, err := p.exec(ctx, `
		INSERT INTO tapis_seats (table_id, seat, name, bot, token_hash)
		SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM tapis_tables WHERE id = $1 AND $2 >= 0 AND $2 < players)
		ON CONFLICT (table_id, seat) DO UPDATE
		SET name = excluded.name, bot = excluded.bot, token_hash = excluded.token_hash`,
		table, seat, s.Name, s.Bot, s.TokenHash)
	switch {
	case err != nil:
		return p.fail(err, "table %s: seat %d", table, seat)
	case n != 1:
		return fmt.Errorf("store: postgres: table %s has no seat %d", table, seat)
	}
	return nil
}

// StartMatch implements Store.
func (p *Postgres) StartMatch(ctx context.Context, table string, no int, seed uint64) error {
	_, err := p.exec(ctx, `INSERT INTO tapis_matches (table_id, no, seed) VALUES ($1, $2, $3)`, table, no, int64(seed))
	switch {
	case isUnique(err):
		return fmt.Errorf("store: postgres: table %s: match %d already started", table, no)
	case err != nil:
		return p.fail(err, "table %s: match %d", table, no)
	}
	return nil
}

// AppendMove implements Store in one statement, so one round trip. As in
// SQLite, the move goes in only as the next one of a started match, so a
// replay never meets a gap. Two writers of the same index both see it
// free; the primary key makes the second wait for the first and then
// refuses it, so a move is never recorded twice.
func (p *Postgres) AppendMove(ctx context.Context, table string, no, index int, m Move) error {
	n, err := p.exec(ctx, `
		INSERT INTO tapis_moves (table_id, no, idx, seat, move)
		SELECT $1::text, $2::integer, $3::integer, $4::integer, $5::text
		WHERE EXISTS (SELECT 1 FROM tapis_matches WHERE table_id = $1 AND no = $2)
		  AND (SELECT COALESCE(MAX(idx) + 1, 0) FROM tapis_moves WHERE table_id = $1 AND no = $2) = $3`,
		table, no, index, m.Seat, string(m.Move))
	switch {
	case isUnique(err):
		return fmt.Errorf("store: postgres: table %s: move %d of match %d is already recorded", table, index, no)
	case err != nil:
		return p.fail(err, "table %s: move %d of match %d", table, index, no)
	case n != 1:
		return fmt.Errorf("store: postgres: table %s: move %d of match %d out of order", table, index, no)
	}
	return nil
}

// EndMatch implements Store.
func (p *Postgres) EndMatch(ctx context.Context, table string, no int) error {
	_, err := p.exec(ctx, `UPDATE tapis_matches SET over = true WHERE table_id = $1 AND no = $2`, table, no)
	if err != nil {
		return p.fail(err, "table %s: end of match %d", table, no)
	}
	return nil
}

// pgLatest selects tables with their latest match, if any; the caller
// adds the WHERE clause. Tables sort by id in bytes (COLLATE "C"), as in
// SQLite and memory, whatever the database's collation.
const pgLatest = `
	SELECT t.id, t.game, t.players, t.options, t.created, t.turn_ms, m.no, m.seed, m.over
	FROM tapis_tables t LEFT JOIN LATERAL (
		SELECT no, seed, over FROM tapis_matches WHERE table_id = t.id ORDER BY no DESC LIMIT 1
	) m ON true
`

// Unfinished implements Store in four round trips whatever the number of
// tables: the tables, then their seats and moves together.
func (p *Postgres) Unfinished(ctx context.Context) ([]Saved, error) {
	var out []Saved
	err := p.read(ctx, "unfinished tables", func(tx pgx.Tx) error {
		var err error
		out, err = latest(ctx, tx, pgLatest+` WHERE m.over IS NOT TRUE ORDER BY t.id COLLATE "C"`)
		if err != nil {
			return err
		}
		return fill(ctx, tx, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Load implements Store.
func (p *Postgres) Load(ctx context.Context, id string) (Saved, error) {
	var out []Saved
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
		return Saved{}, err
	}
	return out[0], nil
}

// read runs f in a read-only snapshot, so that the tables, seats and
// moves it reads in several queries agree with each other although
// writers go on.
func (p *Postgres) read(ctx context.Context, what string, f func(pgx.Tx) error) error {
	if p.closed.Load() {
		return ErrClosed
	}
	err := pgx.BeginTxFunc(ctx, p.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, f)
	if err != nil {
		return p.fail(err, "%s", what)
	}
	return nil
}

// latest runs a pgLatest query.
func latest(ctx context.Context, tx pgx.Tx, query string, args ...any) ([]Saved, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Saved
	for rows.Next() {
		var t Saved
		var opts string
		var created time.Time
		var turn int64
		var no *int
		var seed *int64
		var over *bool
		if err := rows.Scan(&t.ID, &t.Game, &t.Players, &opts, &created, &turn, &no, &seed, &over); err != nil {
			return nil, err
		}
		t.Options = json.RawMessage(opts)
		t.Created = millis(created)
		t.TurnTime = time.Duration(turn) * time.Millisecond
		if no != nil {
			t.Match = &Match{No: *no, Seed: uint64(*seed), Over: *over}
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// fill reads the seats of tables and the moves of their latest matches,
// both queries sent at once.
func fill(ctx context.Context, tx pgx.Tx, tables []Saved) error {
	if len(tables) == 0 {
		return nil
	}
	at := make(map[string]*Saved, len(tables))
	ids := make([]string, 0, len(tables))
	var mids []string
	var nos []int
	for i := range tables {
		t := &tables[i]
		t.Seats = make([]Seat, t.Players)
		at[t.ID] = t
		ids = append(ids, t.ID)
		if t.Match != nil {
			mids, nos = append(mids, t.ID), append(nos, t.Match.No)
		}
	}
	var b pgx.Batch
	b.Queue(`SELECT table_id, seat, name, bot, token_hash FROM tapis_seats WHERE table_id = ANY($1)`, ids).
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
func scanSeats(rows pgx.Rows, at map[string]*Saved) error {
	for rows.Next() {
		var id string
		var i int
		var s Seat
		if err := rows.Scan(&id, &i, &s.Name, &s.Bot, &s.TokenHash); err != nil {
			return fmt.Errorf("seats: %w", err)
		}
		if t := at[id]; t != nil && i >= 0 && i < len(t.Seats) {
			t.Seats[i] = s
		}
	}
	return rows.Err()
}

// scanMoves appends each move row to its table's match, in index order.
func scanMoves(rows pgx.Rows, at map[string]*Saved) error {
	for rows.Next() {
		var id, mv string
		var idx int
		var m Move
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

// Close implements Store. It waits for the writes under way, which are
// then committed; later calls get ErrClosed.
func (p *Postgres) Close() error {
	p.once.Do(func() {
		p.closed.Store(true)
		p.pool.Close()
	})
	return nil
}
