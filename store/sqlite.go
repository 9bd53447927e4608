package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLite is the default Store: one database file, written by one goroutine
// that commits every write waiting at that moment in one transaction
// (group commit). A caller returns once its write is committed, so a move
// is durable before anyone is told of it, and a thousand busy tables cost
// a few commits per millisecond rather than a thousand.
type SQLite struct {
	db    *sql.DB
	stmts map[string]*sql.Stmt // prepared once; used by the writer only
	ops   chan op
	quit  chan struct{}
	done  chan struct{}
	once  sync.Once
}

type op struct {
	// one: the write must change exactly one row, else it is refused.
	one   bool
	query string
	args  []any
	what  string
	// with are more writes that stand or fall with this one (a table and
	// its seats), so that a crash never leaves half of them.
	with []op
	err  chan error
	// refused, if not nil, is the error of a write refused by one;
	// conflict that of a write refused by a unique index.
	refused, conflict error
	// ret, if not nil, receives the one value the write returns (its
	// query ends in RETURNING); no row returned refuses a write with one.
	ret *int64
	// affected, if not nil, receives how many rows the write changed.
	affected *int64
}

// OpenSQLite opens (creating if needed) the database at path.
func OpenSQLite(path string) (*SQLite, error) {
	q := url.Values{}
	// WAL with synchronous=NORMAL survives a killed process (not a power
	// cut, which may lose the last commits) and keeps commits cheap.
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "busy_timeout(5000)")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %v", path, err)
	}
	// One connection: SQLite has one writer anyway, and the writer
	// goroutine is the only one that writes.
	db.SetMaxOpenConns(1)
	if err := migrateSQLite(context.Background(), db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: schema of %s: %v", path, err)
	}
	s := &SQLite{db: db, stmts: map[string]*sql.Stmt{}, ops: make(chan op, 1024), quit: make(chan struct{}), done: make(chan struct{})}
	go s.writer()
	return s, nil
}

// writer commits batches of waiting writes until Close.
func (s *SQLite) writer() {
	defer close(s.done)
	batch := make([]op, 0, 256)
	for {
		select {
		case <-s.quit:
			s.fail(batch)
			return
		case o := <-s.ops:
			batch = append(batch[:0], o)
		}
	drain:
		for len(batch) < cap(batch) {
			select {
			case o := <-s.ops:
				batch = append(batch, o)
			default:
				break drain
			}
		}
		s.commit(batch)
	}
}

func (s *SQLite) commit(batch []op) {
	// Prepare new statements first: the one connection is the
	// transaction's once it begins.
	for _, o := range batch {
		if s.stmts[o.query] == nil {
			if st, err := s.db.Prepare(o.query); err == nil {
				s.stmts[o.query] = st
			}
		}
	}
	tx, err := s.db.Begin()
	if err != nil {
		for _, o := range batch {
			o.err <- fmt.Errorf("store: begin: %v", err)
		}
		return
	}
	errs := make([]error, len(batch))
	for i, o := range batch {
		if len(o.with) == 0 {
			errs[i] = s.apply(tx, o)
			continue
		}
		errs[i] = s.applyAll(tx, o)
	}
	if err := tx.Commit(); err != nil {
		for i := range errs {
			errs[i] = fmt.Errorf("store: commit: %v", err)
		}
	}
	for i, o := range batch {
		o.err <- errs[i]
	}
}

// apply runs one write in tx and says why it failed or was refused.
func (s *SQLite) apply(tx *sql.Tx, o op) error {
	var n int64 = 1
	var err error
	if o.ret != nil {
		err = s.queryRow(tx, o).Scan(o.ret)
		if errors.Is(err, sql.ErrNoRows) {
			n, err = 0, nil
		}
	} else {
		var res sql.Result
		if res, err = s.exec1(tx, o); err == nil {
			n, _ = res.RowsAffected()
		}
	}
	switch {
	case err != nil && o.conflict != nil && isSQLiteUnique(err):
		return o.conflict
	case err != nil:
		return fmt.Errorf("store: %v", err)
	case o.one && n != 1 && o.refused != nil:
		return o.refused
	case o.one && n != 1:
		return fmt.Errorf("store: write refused (%s)", o.what)
	}
	if o.affected != nil {
		*o.affected = n
	}
	return nil
}

// isSQLiteUnique reports whether err is a constraint refusing a row: in
// the writes that set conflict, only a unique index can (the primary
// code, because whether the extended one is reported depends on the
// connection).
func isSQLiteUnique(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// queryRow runs a write that returns a row, with its statement prepared
// once.
func (s *SQLite) queryRow(tx *sql.Tx, o op) *sql.Row {
	if st := s.stmts[o.query]; st != nil {
		return tx.Stmt(st).QueryRow(o.args...)
	}
	return tx.QueryRow(o.query, o.args...)
}

// applyAll runs o and the writes that go with it in tx, all or none: the
// rest of the batch commits either way.
func (s *SQLite) applyAll(tx *sql.Tx, o op) error {
	if _, err := tx.Exec(`SAVEPOINT together`); err != nil {
		return fmt.Errorf("store: %v", err)
	}
	err := s.apply(tx, o)
	for _, w := range o.with {
		if err == nil {
			err = s.apply(tx, w)
		}
	}
	if err != nil {
		if _, rerr := tx.Exec(`ROLLBACK TO together`); rerr != nil {
			return fmt.Errorf("store: %v (and undoing it: %v)", err, rerr)
		}
	}
	if _, rerr := tx.Exec(`RELEASE together`); rerr != nil && err == nil {
		err = fmt.Errorf("store: %v", rerr)
	}
	return err
}

// exec1 runs one write in tx with its statement prepared once: parsing
// SQL again for every move would cost more than the insert itself.
func (s *SQLite) exec1(tx *sql.Tx, o op) (sql.Result, error) {
	if st := s.stmts[o.query]; st != nil {
		return tx.Stmt(st).Exec(o.args...)
	}
	return tx.Exec(o.query, o.args...)
}

// fail answers the writes still waiting when the store closes.
func (s *SQLite) fail([]op) {
	for {
		select {
		case o := <-s.ops:
			o.err <- ErrClosed
		default:
			return
		}
	}
}

// exec queues one write and waits for its commit.
func (s *SQLite) exec(ctx context.Context, query string, args ...any) error {
	return s.do(ctx, op{query: query, args: args})
}

func (s *SQLite) do(ctx context.Context, o op) error {
	o.err = make(chan error, 1)
	select {
	case s.ops <- o:
	case <-s.quit:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-o.err:
		return err
	case <-s.done:
		// The writer may have answered just before it stopped.
		select {
		case err := <-o.err:
			return err
		default:
			return ErrClosed
		}
	}
}

// CreateTable implements Store.
func (s *SQLite) CreateTable(ctx context.Context, t Table, start *Start) error {
	o, err := createOp(t, start)
	if err != nil {
		return err
	}
	return s.do(ctx, o)
}

// createOp is CreateTable's write: the table, its seats and its first
// match's start, all or none. SeatQueued adds its own writes to it.
func createOp(t Table, start *Start) (op, error) {
	if err := checkPlayers(t.Players); err != nil {
		return op{}, fmt.Errorf("store: table %s: %v", t.ID, err)
	}
	opts := string(t.Options)
	if opts == "" {
		opts = "{}"
	}
	active := t.Active
	if active.IsZero() {
		active = t.Created
	}
	o := op{query: `INSERT INTO tables (id, game, players, options, created, turn_ms, creator, active, host, memory_aid, public, lang) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		args: []any{t.ID, t.Game, t.Players, opts, t.Created.UnixMilli(), t.TurnTime.Milliseconds(), t.Creator, active.UnixMilli(), t.Host, t.MemoryAid,
			t.Public, t.Lang}}
	for i, seat := range t.Seats {
		o.with = append(o.with, seatOp(t.ID, i, seat))
	}
	if start != nil {
		o.with = append(o.with, startOp(t.ID, start.No, start.Seed))
	}
	return o, nil
}

// seatOp writes seat number seat of table, refused unless the table has
// that seat.
func seatOp(table string, seat int, st Seat) op {
	return op{one: true, what: fmt.Sprintf("table %s has no seat %d", table, seat),
		query: `INSERT OR REPLACE INTO seats (table_id, seat, name, bot, token_hash, player)
		SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tables WHERE id = ? AND ? >= 0 AND ? < players)`,
		args: []any{table, seat, st.Name, st.Bot, st.TokenHash, st.Player, table, seat, seat}}
}

// startOp writes the start of match no; the primary key refuses a match
// started twice.
func startOp(table string, no int, seed uint64) op {
	return op{query: `INSERT INTO matches (table_id, no, seed) VALUES (?, ?, ?)`, args: []any{table, no, int64(seed)}}
}

// SetSeat implements Store.
func (s *SQLite) SetSeat(ctx context.Context, table string, seat int, st Seat, start *Start) error {
	o := seatOp(table, seat, st)
	if start != nil {
		o.with = []op{startOp(table, start.No, start.Seed)}
	}
	return s.do(ctx, o)
}

// StartMatch implements Store.
func (s *SQLite) StartMatch(ctx context.Context, table string, no int, seed uint64) error {
	return s.do(ctx, startOp(table, no, seed))
}

// AppendMove implements Store.
func (s *SQLite) AppendMove(ctx context.Context, table string, no, index int, m Move) error {
	// The move goes in only as the next one of a started match, so a
	// replay never meets a gap.
	return s.do(ctx, op{one: true, what: fmt.Sprintf("table %s: move %d of match %d out of order", table, index, no),
		query: `INSERT INTO moves (table_id, no, idx, seat, move)
		SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM matches WHERE table_id = ? AND no = ?)
		  AND (SELECT COALESCE(MAX(idx) + 1, 0) FROM moves WHERE table_id = ? AND no = ?) = ?`,
		args: []any{table, no, index, m.Seat, string(m.Move), table, no, table, no, index}})
}

// EndMatch implements Store.
func (s *SQLite) EndMatch(ctx context.Context, table string, no int) error {
	return s.exec(ctx, `UPDATE matches SET over = 1 WHERE table_id = ? AND no = ?`, table, no)
}

// CloseTable implements Store.
func (s *SQLite) CloseTable(ctx context.Context, table string, c Closed, reason string) error {
	if !c.valid() {
		return fmt.Errorf("store: table %s: cannot close as %q", table, c)
	}
	return s.do(ctx, op{one: true, what: fmt.Sprintf("no table %s", table),
		query: `UPDATE tables SET closed = ?, reason = ? WHERE id = ?`, args: []any{string(c), reason, table}})
}

// Touch implements Store.
func (s *SQLite) Touch(ctx context.Context, table string, at time.Time) error {
	return s.do(ctx, op{one: true, what: fmt.Sprintf("no table %s", table),
		query: `UPDATE tables SET active = ? WHERE id = ?`, args: []any{at.UnixMilli(), table}})
}

// closed reports whether Close has begun: reads then answer ErrClosed,
// as writes do, rather than database/sql's own error.
func (s *SQLite) closed() bool {
	select {
	case <-s.quit:
		return true
	default:
		return false
	}
}

// Close implements Store. Writes not yet committed fail with ErrClosed;
// committed ones stay.
func (s *SQLite) Close() error {
	s.once.Do(func() { close(s.quit) })
	<-s.done
	return s.db.Close()
}
