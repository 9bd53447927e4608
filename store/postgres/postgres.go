// Package postgres is Tapis's store in a PostgreSQL database: for a
// server that runs one already, and for a cluster, whose nodes share it
// and fence their writes with its leases (lease.go). What it shares with
// SQLite's store, the schema's migrations and the statements both run, is
// in store/sqldb.
package postgres

import (
	"context"
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

	"tapis/store"
	"tapis/store/sqldb"
)

// Store is a store.Store in a PostgreSQL database, for a server that already
// runs one or wants its game logs beside other data. Each write is one
// statement in its own transaction, committed before it returns; the
// server groups the commits of concurrent connections into one WAL flush,
// which is what the SQLite store's writer does by hand.
type Store struct {
	pool   *pgxpool.Pool
	moves  *pgMoves // AppendMove's batches (moves.go)
	closed atomic.Bool
	once   sync.Once
}

// Store is a store.Store, a store.IntegrityChecker and store.Leases.
var (
	_ store.Store            = (*Store)(nil)
	_ store.IntegrityChecker = (*Store)(nil)
	_ store.Leases           = (*Store)(nil)
)

// pgMaxConns is how many connections a store opens unless its URL says
// otherwise (pgx would open as many as there are CPUs, at least 4). A
// commit waits for its WAL flush, and the server flushes the commits of
// every waiting connection at once, so more connections put more moves
// in a flush: from 1,000 tables at once, 4 connections appended about
// 10,000 moves/s on a 2-CPU machine, 16 about 16,000, 64 about 21,000.
// 16 leaves most of PostgreSQL's default 100 connections to others.
const pgMaxConns = 16

// Open connects to the database at dbURL (postgres://user:password@
// host:port/database?options, see pgx's ParseConfig) and creates Tapis's
// tables there if they are missing, or brings them up to date. Servers
// opening the same database at once migrate it one after the other. pool_max_conns in dbURL sets how many
// connections it may open (default pgMaxConns).
func Open(ctx context.Context, dbURL string) (*Store, error) {
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
	if err := sqldb.MigratePostgres(ctx, pool, sqldb.Last); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: postgres: schema: %w", err)
	}
	p := &Store{pool: pool, moves: newPGMoves(int(cfg.MaxConns))}
	go p.batcher()
	return p, nil
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
func (p *Store) fail(err error, format string, args ...any) error {
	if errors.Is(err, store.ErrClosed) || p.closed.Load() {
		return store.ErrClosed
	}
	return fmt.Errorf("store: postgres: %s: %w", fmt.Sprintf(format, args...), err)
}

// exec runs one write and returns the number of rows it changed.
func (p *Store) exec(ctx context.Context, sql string, args ...any) (int64, error) {
	if p.closed.Load() {
		return 0, store.ErrClosed
	}
	tag, err := p.pool.Exec(ctx, sql, args...)
	return tag.RowsAffected(), err
}

// isUnique reports whether err is a primary key refusing a second row.
func isUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// CreateTable implements store.Store. The table, its seats and its first
// match's start go in as one statement, so a table is never seen without
// its seats. A seat already recorded under the new table's id (SetSeat,
// like SQLite's, does not check the table) is replaced, as SQLite's store
// replaces it.
func (p *Store) CreateTable(ctx context.Context, t store.Table, start *store.Start) error {
	if p.closed.Load() {
		return store.ErrClosed
	}
	return p.createTable(ctx, p.pool, t, start)
}

// execer runs a statement: the pool, or a transaction (SeatQueued's).
type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// createTable is CreateTable's statement, run by x.
func (p *Store) createTable(ctx context.Context, x execer, t store.Table, start *store.Start) error {
	if err := store.CheckPlayers(t.Players); err != nil {
		return fmt.Errorf("store: postgres: table %s: %v", t.ID, err)
	}
	if len(t.Seats) > t.Players {
		return fmt.Errorf("store: postgres: table %s has no seat %d", t.ID, t.Players)
	}
	opts, active := sqldb.TableRow(t)
	names := make([]string, len(t.Seats))
	bots := make([]string, len(t.Seats))
	hashes := make([]string, len(t.Seats))
	players := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		names[i], bots[i], hashes[i], players[i] = s.Name, s.Bot, s.TokenHash, s.Player
	}
	// No match: no row of m (its WHERE is false).
	var no *int
	var seed int64
	if start != nil {
		no, seed = &start.No, int64(start.Seed)
	}
	_, err := x.Exec(ctx, `
		WITH t AS (
			INSERT INTO tapis_tables (id, game, players, options, created, turn_ms, creator, active, host, memory_aid, public, lang, rated, coach)
			VALUES ($1, $2, $3, $4, $5, $9, $10, $11, $14, $15, $16, $17, $19, $20)
		), m AS (
			INSERT INTO tapis_matches (table_id, no, seed) SELECT $1, $12::integer, $13 WHERE $12::integer IS NOT NULL
		)
		INSERT INTO tapis_seats (table_id, seat, name, bot, token_hash, player)
		SELECT $1, s.n - 1, s.name, s.bot, s.token_hash, s.player
		FROM unnest($6::text[], $7::text[], $8::text[], $18::text[]) WITH ORDINALITY AS s(name, bot, token_hash, player, n)
		ON CONFLICT (table_id, seat) DO UPDATE
		SET name = excluded.name, bot = excluded.bot, token_hash = excluded.token_hash, player = excluded.player`,
		t.ID, t.Game, t.Players, opts, t.Created.UnixMilli(), names, bots, hashes, t.TurnTime.Milliseconds(),
		t.Creator, active.UnixMilli(), no, seed, t.Host, t.MemoryAid, t.Public, t.Lang, players, t.Rated, t.Coach)
	switch {
	case isUnique(err):
		return fmt.Errorf("store: postgres: table %s exists", t.ID)
	case err != nil:
		return p.fail(err, "table %s", t.ID)
	}
	return nil
}

// setSeat is SetSeat's statement: it writes nothing unless the table has
// that seat.
const setSeat = `
	INSERT INTO tapis_seats (table_id, seat, name, bot, token_hash, player)
	SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM tapis_tables WHERE id = $1 AND $2 >= 0 AND $2 < players)
	ON CONFLICT (table_id, seat) DO UPDATE
	SET name = excluded.name, bot = excluded.bot, token_hash = excluded.token_hash, player = excluded.player`

// SetSeat implements store.Store. With a match to start, the seat and the start
// are one transaction.
func (p *Store) SetSeat(ctx context.Context, table string, seat int, s store.Seat, start *store.Start) error {
	if start == nil {
		n, err := p.exec(ctx, setSeat, table, seat, s.Name, s.Bot, s.TokenHash, s.Player)
		if err != nil {
			return p.fail(err, "table %s: seat %d", table, seat)
		}
		return noSeat(n, table, seat)
	}
	if p.closed.Load() {
		return store.ErrClosed
	}
	// werr is the write's own error, already worded; BeginFunc returns it
	// after rolling back, or an error of its own (begin, commit).
	var werr error
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, setSeat, table, seat, s.Name, s.Bot, s.TokenHash, s.Player)
		switch {
		case err != nil:
			werr = p.fail(err, "table %s: seat %d", table, seat)
		case noSeat(tag.RowsAffected(), table, seat) != nil:
			werr = noSeat(tag.RowsAffected(), table, seat)
		default:
			_, err = tx.Exec(ctx, sqldb.StartMatch.Postgres, table, start.No, int64(start.Seed))
			werr = p.startResult(err, table, start.No)
		}
		return werr
	})
	switch {
	case werr != nil:
		return werr
	case err != nil:
		return p.fail(err, "table %s: seat %d and match %d", table, seat, start.No)
	}
	return nil
}

// noSeat says why a seat write that changed n rows failed, if it did.
func noSeat(n int64, table string, seat int) error {
	if n != 1 {
		return fmt.Errorf("store: postgres: table %s has no seat %d", table, seat)
	}
	return nil
}

// StartMatch implements store.Store.
func (p *Store) StartMatch(ctx context.Context, table string, no int, seed uint64) error {
	_, err := p.exec(ctx, sqldb.StartMatch.Postgres, table, no, int64(seed))
	return p.startResult(err, table, no)
}

// startResult is what a match start that failed with err returns.
func (p *Store) startResult(err error, table string, no int) error {
	switch {
	case isUnique(err):
		return fmt.Errorf("store: postgres: table %s: match %d already started", table, no)
	case err != nil:
		return p.fail(err, "table %s: match %d", table, no)
	}
	return nil
}

// AppendMove implements store.Store. The move goes in only as the next one of
// a started match, so a replay never meets a gap; it goes in with the
// moves of other tables appended at the same moment, in one statement
// (see appendMoves), and AppendMove returns once that is committed.
func (p *Store) AppendMove(ctx context.Context, table string, no, index int, m store.Move) error {
	if p.closed.Load() {
		return store.ErrClosed
	}
	return p.appendBatched(ctx, &pgMove{matchKey: matchKey{table, no}, index: index, seat: m.Seat, move: string(m.Move)})
}

// EndMatch implements store.Store.
func (p *Store) EndMatch(ctx context.Context, table string, no int) error {
	_, err := p.exec(ctx, sqldb.EndMatch.Postgres, table, no)
	if err != nil {
		return p.fail(err, "table %s: end of match %d", table, no)
	}
	return nil
}

// CloseTable implements store.Store.
func (p *Store) CloseTable(ctx context.Context, table string, c store.Closed, reason string) error {
	if !c.Valid() {
		return fmt.Errorf("store: postgres: table %s: cannot close as %q", table, c)
	}
	n, err := p.exec(ctx, sqldb.CloseTable.Postgres, string(c), reason, table)
	switch {
	case err != nil:
		return p.fail(err, "table %s: closing", table)
	case n != 1:
		return fmt.Errorf("store: postgres: no table %s", table)
	}
	return nil
}

// Touch implements store.Store.
func (p *Store) Touch(ctx context.Context, table string, at time.Time) error {
	n, err := p.exec(ctx, sqldb.Touch.Postgres, at.UnixMilli(), table)
	switch {
	case err != nil:
		return p.fail(err, "table %s: touch", table)
	case n != 1:
		return fmt.Errorf("store: postgres: no table %s", table)
	}
	return nil
}

// Close implements store.Store. It waits for the writes under way, moves
// queued for a batch included, which are then committed; later calls get
// ErrClosed.
func (p *Store) Close() error {
	p.once.Do(func() {
		p.closed.Store(true)
		close(p.moves.quit)
		<-p.moves.done
		p.pool.Close()
	})
	return nil
}
