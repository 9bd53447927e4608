package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"tapis/store"
)

// Leases in PostgreSQL are rows of tapis_leases timed by the database's
// clock_timestamp(), so every node compares against the same clock. A
// fenced write locks its lease row FOR SHARE in the statement that writes
// (pgFence): Acquire's and Renew's UPDATE of that row wait for the write
// to commit, and a write that comes after a takeover finds the row changed
// and writes nothing. So the writes of one epoch all commit before the
// next epoch begins, and the new owner, which loads the table after
// Acquire returns, sees every one of them.

// pgAcquire takes a lease in one statement. Two nodes inserting the same
// new row: the second waits for the first, then takes the DO UPDATE path
// against the row the first wrote, whose WHERE refuses it while it is
// live. The epoch stays only for the same node renewing a live lease.
const pgAcquire = `
	INSERT INTO tapis_leases AS l (table_id, node, epoch, until)
	SELECT $1, $2, 1, clock_timestamp() + $3::bigint * interval '1 microsecond'
	WHERE EXISTS (SELECT 1 FROM tapis_tables WHERE id = $1)
	ON CONFLICT (table_id) DO UPDATE
	SET epoch = CASE WHEN l.node = excluded.node AND l.until > clock_timestamp() THEN l.epoch ELSE l.epoch + 1 END,
		node = excluded.node, until = excluded.until
	WHERE l.node = excluded.node OR l.until <= clock_timestamp()
	RETURNING epoch, until`

// Acquire implements store.Leases.
func (p *Store) Acquire(ctx context.Context, table, node string, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckTTL(ttl); err != nil {
		return store.Lease{}, err
	}
	if p.closed.Load() {
		return store.Lease{}, store.ErrClosed
	}
	// A lease that was held when the insert looked and expired before the
	// holder was read is taken on the next round; a few rounds settle it,
	// as a lease lives far longer than a round trip.
	for range 3 {
		l := store.Lease{Table: table, Node: node}
		err := p.pool.QueryRow(ctx, pgAcquire, table, node, ttl.Microseconds()).Scan(&l.Epoch, &l.Until)
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return store.Lease{}, p.fail(err, "table %s: acquiring the lease", table)
		}
		h, err := p.Holder(ctx, table)
		if err == nil {
			return store.Lease{}, &store.LeaseHeldError{Holder: h}
		}
		if !errors.Is(err, store.ErrNotFound) {
			return store.Lease{}, err
		}
		// No lease row is made for a table that does not exist: anyone
		// may ask for any id, and must not fill the store doing it.
		var exists bool
		if err := p.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM tapis_tables WHERE id = $1)`, table).Scan(&exists); err != nil {
			return store.Lease{}, p.fail(err, "table %s: acquiring the lease", table)
		}
		if !exists {
			return store.Lease{}, fmt.Errorf("store: postgres: table %s: no such table to lease: %w", table, store.ErrNotFound)
		}
	}
	return store.Lease{}, fmt.Errorf("store: postgres: table %s: the lease changed hands too fast to acquire: %w", table, store.ErrLeaseHeld)
}

// Take implements store.Leases.
func (p *Store) Take(ctx context.Context, table, node string, from store.Lease, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckTTL(ttl); err != nil {
		return store.Lease{}, err
	}
	if p.closed.Load() {
		return store.Lease{}, store.ErrClosed
	}
	l := store.Lease{Table: table, Node: node}
	err := p.pool.QueryRow(ctx, `
		UPDATE tapis_leases SET node = $2, epoch = epoch + 1, until = clock_timestamp() + $5::bigint * interval '1 microsecond'
		WHERE table_id = $1 AND node = $3 AND epoch = $4
		RETURNING epoch, until`, table, node, from.Node, from.Epoch, ttl.Microseconds()).Scan(&l.Epoch, &l.Until)
	switch {
	case err == nil:
		return l, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return store.Lease{}, p.fail(err, "table %s: taking the lease", table)
	}
	// Not from's any more: free, or someone else's.
	return p.Acquire(ctx, table, node, ttl)
}

// Renew implements store.Leases.
func (p *Store) Renew(ctx context.Context, l store.Lease, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckTTL(ttl); err != nil {
		return store.Lease{}, err
	}
	if p.closed.Load() {
		return store.Lease{}, store.ErrClosed
	}
	err := p.pool.QueryRow(ctx, `
		UPDATE tapis_leases SET until = clock_timestamp() + $4::bigint * interval '1 microsecond'
		WHERE table_id = $1 AND node = $2 AND epoch = $3 AND until > clock_timestamp()
		RETURNING until`, l.Table, l.Node, l.Epoch, ttl.Microseconds()).Scan(&l.Until)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.Lease{}, store.LeaseLost(l, "renewal")
	case err != nil:
		return store.Lease{}, p.fail(err, "table %s: renewing the lease", l.Table)
	}
	return l, nil
}

// RenewAll implements store.Leases.
func (p *Store) RenewAll(ctx context.Context, node string, ttl time.Duration) ([]store.Lease, error) {
	if err := store.CheckTTL(ttl); err != nil {
		return nil, err
	}
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := p.pool.Query(ctx, `
		UPDATE tapis_leases SET until = clock_timestamp() + $2::bigint * interval '1 microsecond'
		WHERE node = $1 AND until > clock_timestamp()
		RETURNING table_id, epoch, until`, node, ttl.Microseconds())
	if err != nil {
		return nil, p.fail(err, "node %s: renewing its leases", node)
	}
	var ls []store.Lease
	l := store.Lease{Node: node}
	_, err = pgx.ForEachRow(rows, []any{&l.Table, &l.Epoch, &l.Until}, func() error {
		ls = append(ls, l)
		return nil
	})
	if err != nil {
		return nil, p.fail(err, "node %s: renewing its leases", node)
	}
	return ls, nil
}

// Release implements store.Leases. The row stays, with the epoch for the next
// holder to follow on from, and an until that is past on any clock.
func (p *Store) Release(ctx context.Context, l store.Lease) error {
	n, err := p.exec(ctx, `UPDATE tapis_leases SET until = '-infinity' WHERE table_id = $1 AND node = $2 AND epoch = $3`,
		l.Table, l.Node, l.Epoch)
	switch {
	case err != nil:
		return p.fail(err, "table %s: releasing the lease", l.Table)
	case n != 1:
		return store.LeaseLost(l, "release")
	}
	return nil
}

// Holder implements store.Leases.
func (p *Store) Holder(ctx context.Context, table string) (store.Lease, error) {
	if p.closed.Load() {
		return store.Lease{}, store.ErrClosed
	}
	l := store.Lease{Table: table}
	err := p.pool.QueryRow(ctx, `SELECT node, epoch, until FROM tapis_leases WHERE table_id = $1 AND until > clock_timestamp()`,
		table).Scan(&l.Node, &l.Epoch, &l.Until)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.Lease{}, fmt.Errorf("store: postgres: table %s: no lease: %w", table, store.ErrNotFound)
	case err != nil:
		return store.Lease{}, p.fail(err, "table %s: lease holder", table)
	}
	return l, nil
}

// NodeLoad implements store.Leases.
func (p *Store) NodeLoad(ctx context.Context) (map[string]int, error) {
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := p.pool.Query(ctx, `SELECT node, count(*) FROM tapis_leases WHERE until > clock_timestamp() GROUP BY node`)
	if err != nil {
		return nil, p.fail(err, "leases per node")
	}
	n := map[string]int{}
	var (
		node  string
		count int
	)
	_, err = pgx.ForEachRow(rows, []any{&node, &count}, func() error {
		n[node] = count
		return nil
	})
	if err != nil {
		return nil, p.fail(err, "leases per node")
	}
	return n, nil
}

// Fenced implements store.Leases.
func (p *Store) Fenced(l store.Lease) store.TableWriter { return pgFenced{p, l} }

// pgFenced is PostgreSQL's TableWriter for one lease.
type pgFenced struct {
	p *Store
	l store.Lease
}

// pgFence is the common head of every fenced write: l holds a row while
// the lease is held at its epoch, locked FOR SHARE until the write
// commits, which Acquire's and Renew's UPDATEs wait for. Concurrent writes
// under the same lease share the lock. $1 is the table, $2 the node, $3
// the epoch; a write's own parameters start at $4. Each statement selects
// whether the lease was held, then whether the write changed a row.
const pgFence = `
	WITH l AS (
		SELECT 1 FROM tapis_leases
		WHERE table_id = $1::text AND node = $2::text AND epoch = $3::bigint AND until > clock_timestamp()
		FOR SHARE
	)`

// fenced runs a write that starts with pgFence and returns whether the
// write changed a row; a lease no longer held is an error wrapping
// ErrLeaseLost.
func (f pgFenced) fenced(ctx context.Context, what, sql string, args ...any) (bool, error) {
	if f.p.closed.Load() {
		return false, store.ErrClosed
	}
	var held, wrote bool
	err := f.p.pool.QueryRow(ctx, pgFence+sql, append([]any{f.l.Table, f.l.Node, f.l.Epoch}, args...)...).Scan(&held, &wrote)
	switch {
	case err != nil:
		return false, err
	case !held:
		return false, store.LeaseLost(f.l, what)
	}
	return wrote, nil
}

// SetSeat implements store.TableWriter: the seat and the match start, if any,
// in one statement; the start goes in only if the seat did.
func (f pgFenced) SetSeat(ctx context.Context, seat int, s store.Seat, start *store.Start) error {
	var no *int
	var seed int64
	if start != nil {
		no, seed = &start.No, int64(start.Seed)
	}
	wrote, err := f.fenced(ctx, "a seat", `,
		s AS (
			INSERT INTO tapis_seats (table_id, seat, name, bot, token_hash, player)
			SELECT $1, $4, $5, $6, $7, $8
			WHERE EXISTS (SELECT 1 FROM l)
			  AND EXISTS (SELECT 1 FROM tapis_tables WHERE id = $1 AND $4::integer >= 0 AND $4::integer < players)
			ON CONFLICT (table_id, seat) DO UPDATE
			SET name = excluded.name, bot = excluded.bot, token_hash = excluded.token_hash, player = excluded.player
			RETURNING 1
		), m AS (
			INSERT INTO tapis_matches (table_id, no, seed)
			SELECT $1, $9::integer, $10 WHERE $9::integer IS NOT NULL AND EXISTS (SELECT 1 FROM s)
		)
		SELECT EXISTS (SELECT 1 FROM l), EXISTS (SELECT 1 FROM s)`,
		seat, s.Name, s.Bot, s.TokenHash, s.Player, no, seed)
	switch {
	case errors.Is(err, store.ErrLeaseLost):
		return err
	case isUnique(err) && start != nil:
		return fmt.Errorf("store: postgres: table %s: match %d already started", f.l.Table, start.No)
	case err != nil:
		return f.p.fail(err, "table %s: seat %d", f.l.Table, seat)
	}
	return noSeat(b2n(wrote), f.l.Table, seat)
}

// b2n is 1 for a write that changed a row, 0 for one that did not.
func b2n(wrote bool) int64 {
	if wrote {
		return 1
	}
	return 0
}

// StartMatch implements store.TableWriter.
func (f pgFenced) StartMatch(ctx context.Context, no int, seed uint64) error {
	_, err := f.fenced(ctx, "a match start", `,
		w AS (INSERT INTO tapis_matches (table_id, no, seed) SELECT $1, $4, $5 WHERE EXISTS (SELECT 1 FROM l) RETURNING 1)
		SELECT EXISTS (SELECT 1 FROM l), EXISTS (SELECT 1 FROM w)`, no, int64(seed))
	switch {
	case errors.Is(err, store.ErrLeaseLost):
		return err
	case isUnique(err):
		return fmt.Errorf("store: postgres: table %s: match %d already started", f.l.Table, no)
	case err != nil:
		return f.p.fail(err, "table %s: match %d", f.l.Table, no)
	}
	return nil
}

// AppendMove implements store.TableWriter with Store.AppendMove's checks: the
// move goes in only as the next one of a started match, and the primary
// key refuses a second writer of the same index.
func (f pgFenced) AppendMove(ctx context.Context, no, index int, m store.Move) error {
	wrote, err := f.fenced(ctx, "a move", `,
		w AS (
			INSERT INTO tapis_moves (table_id, no, idx, seat, move)
			SELECT $1::text, $4::integer, $5::integer, $6::integer, $7::text
			WHERE EXISTS (SELECT 1 FROM l)
			  AND EXISTS (SELECT 1 FROM tapis_matches WHERE table_id = $1 AND no = $4)
			  AND (SELECT COALESCE(MAX(idx) + 1, 0) FROM tapis_moves WHERE table_id = $1 AND no = $4) = $5
			RETURNING 1
		)
		SELECT EXISTS (SELECT 1 FROM l), EXISTS (SELECT 1 FROM w)`,
		no, index, m.Seat, string(m.Move))
	switch {
	case errors.Is(err, store.ErrLeaseLost):
		return err
	case isUnique(err):
		return fmt.Errorf("store: postgres: table %s: move %d of match %d is already recorded", f.l.Table, index, no)
	case err != nil:
		return f.p.fail(err, "table %s: move %d of match %d", f.l.Table, index, no)
	case !wrote:
		return fmt.Errorf("store: postgres: table %s: move %d of match %d out of order", f.l.Table, index, no)
	}
	return nil
}

// EndMatch implements store.TableWriter. Like Store.EndMatch, ending a match
// that was never started changes nothing and is no error.
func (f pgFenced) EndMatch(ctx context.Context, no int) error {
	_, err := f.fenced(ctx, "a match end", `,
		w AS (UPDATE tapis_matches SET over = true WHERE table_id = $1 AND no = $4 AND EXISTS (SELECT 1 FROM l) RETURNING 1)
		SELECT EXISTS (SELECT 1 FROM l), EXISTS (SELECT 1 FROM w)`, no)
	if err != nil && !errors.Is(err, store.ErrLeaseLost) {
		return f.p.fail(err, "table %s: end of match %d", f.l.Table, no)
	}
	return err
}

// CloseTable implements store.TableWriter.
func (f pgFenced) CloseTable(ctx context.Context, c store.Closed, reason string) error {
	if !c.Valid() {
		return fmt.Errorf("store: postgres: table %s: cannot close as %q", f.l.Table, c)
	}
	wrote, err := f.fenced(ctx, "closing the table", `,
		w AS (UPDATE tapis_tables SET closed = $4, reason = $5 WHERE id = $1 AND EXISTS (SELECT 1 FROM l) RETURNING 1)
		SELECT EXISTS (SELECT 1 FROM l), EXISTS (SELECT 1 FROM w)`, string(c), reason)
	switch {
	case errors.Is(err, store.ErrLeaseLost):
		return err
	case err != nil:
		return f.p.fail(err, "table %s: closing", f.l.Table)
	case !wrote:
		return fmt.Errorf("store: postgres: no table %s", f.l.Table)
	}
	return nil
}

// Touch implements store.TableWriter.
func (f pgFenced) Touch(ctx context.Context, at time.Time) error {
	wrote, err := f.fenced(ctx, "a touch", `,
		w AS (UPDATE tapis_tables SET active = $4 WHERE id = $1 AND EXISTS (SELECT 1 FROM l) RETURNING 1)
		SELECT EXISTS (SELECT 1 FROM l), EXISTS (SELECT 1 FROM w)`, at.UnixMilli())
	switch {
	case errors.Is(err, store.ErrLeaseLost):
		return err
	case err != nil:
		return f.p.fail(err, "table %s: touch", f.l.Table)
	case !wrote:
		return fmt.Errorf("store: postgres: no table %s", f.l.Table)
	}
	return nil
}
