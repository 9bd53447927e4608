package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	msqlite "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
	sqlite3 "modernc.org/sqlite/lib"

	"tapis/store"
	"tapis/store/sqldb"
)

// The writer: one goroutine, one connection, every write of the store
// (op), committed in batches. Reads go to the database directly.

// matchKey is a match: its table and number.
type matchKey struct {
	table string
	no    int
}

// maxNext bounds Store.next: past it the writer forgets every match,
// and checks each again with a query at its next move.
const maxNext = 100_000

// op is one write for the writer, with what it needs to say how it
// went.
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
	// run, if not nil, is a write that must read first (RecordRated):
	// it runs in the batch's transaction, all or none, and query is
	// unused.
	run func(tx *sql.Tx) error
	// move, if not nil, is a move to append (AppendMove), and query is
	// unused.
	move *moveOp
}

// moveOp is AppendMove's write.
type moveOp struct {
	matchKey
	index, seat int
	move        string
}

// The writer's own statements, prepared on its connection.
const (
	sqlBegin    = `BEGIN`
	sqlCommit   = `COMMIT`
	sqlRollback = `ROLLBACK`
	// sqlNextMove is the index of a match's next move, and whether the
	// match was started.
	sqlNextMove = `SELECT EXISTS (SELECT 1 FROM tapis_matches WHERE table_id = ? AND no = ?),
		(SELECT COALESCE(MAX(idx) + 1, 0) FROM tapis_moves WHERE table_id = ? AND no = ?)`
	sqlMove = `INSERT INTO tapis_moves (table_id, no, idx, seat, move) VALUES (?, ?, ?, ?, ?)`
)

// prepareWriter takes the writer's connection and prepares its own
// statements on it.
func (s *Store) prepareWriter() error {
	w, err := s.db.Conn(context.Background())
	if err != nil {
		return err
	}
	s.w = w
	// Checkpoints are the checkpointer's (checkpoint.go), never the
	// writer's: a per-connection setting.
	if _, err := w.ExecContext(context.Background(), `PRAGMA wal_autocheckpoint = 0`); err != nil {
		w.Close()
		return err
	}
	for _, q := range []string{sqlBegin, sqlCommit, sqlRollback, sqlNextMove, sqlMove} {
		st, err := w.PrepareContext(context.Background(), q)
		if err != nil {
			s.closeWriter()
			return err
		}
		s.stmts[q] = st
	}
	return nil
}

// closeWriter closes the writer's statements and connection:
// database/sql closes neither with the database, and SQLite checkpoints
// its WAL into the file only once nothing holds it.
func (s *Store) closeWriter() {
	for _, st := range s.stmts {
		st.Close()
	}
	s.w.Close()
}

// writer commits batches of waiting writes until Close.
func (s *Store) writer() {
	defer close(s.done)
	defer s.closeWriter()
	batch := make([]op, 0, 256)
	var pace sqldb.Pacer
	linger := time.NewTimer(time.Hour)
	linger.Stop()
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
		if now := time.Now(); pace.Linger(len(batch), now) {
			n := len(batch)
			linger.Reset(sqldb.LingerFor)
		wait:
			for len(batch) < cap(batch) {
				select {
				case o := <-s.ops:
					batch = append(batch, o)
				case <-linger.C:
					break wait
				case <-s.quit:
					break wait // commit what it has: its callers wait
				}
			}
			linger.Stop()
			pace.Gained(len(batch)-n, time.Now())
		}
		s.commit(batch)
	}
}

// commit runs a batch in one transaction and answers each write. A batch
// that has a write needing a *sql.Tx (run) gets one; the others, nearly
// all, run between a prepared BEGIN and COMMIT on the writer's
// connection, which costs less than database/sql's transaction.
func (s *Store) commit(batch []op) {
	if len(batch) == 1 && batch[0].move != nil {
		// A lone move (a table playing alone, a quiet server) commits
		// on its own: its INSERT is its transaction, committed before
		// the statement returns, with neither BEGIN nor COMMIT to run
		// (6 allocations and 100 bytes a move fewer).
		// appendMove counts the move in s.next only once its INSERT,
		// commit included, succeeded, and nothing else is in this
		// transaction: a failure leaves s.next right.
		batch[0].err <- s.appendMove(nil, batch[0].move)
		return
	}
	// Prepare new statements first, outside the transaction.
	needTx := false
	for _, o := range batch {
		needTx = needTx || o.run != nil
		if o.run == nil && o.move == nil && s.stmts[o.query] == nil {
			if st, err := s.w.PrepareContext(context.Background(), o.query); err == nil {
				s.stmts[o.query] = st
			}
		}
	}
	var tx *sql.Tx
	var err error
	if needTx {
		tx, err = s.w.BeginTx(context.Background(), nil)
	} else {
		_, err = s.stmts[sqlBegin].Exec()
	}
	if err != nil {
		for _, o := range batch {
			o.err <- fmt.Errorf("store: begin: %v", err)
		}
		return
	}
	errs := make([]error, len(batch))
	for i, o := range batch {
		if len(o.with) == 0 && o.run == nil {
			errs[i] = s.apply(tx, o)
			continue
		}
		errs[i] = s.applyAll(tx, o)
	}
	if tx != nil {
		err = tx.Commit()
	} else if _, err = s.stmts[sqlCommit].Exec(); err != nil {
		// Leave no transaction open; none may be, if SQLite ended it
		// itself, and then ROLLBACK fails to no harm.
		s.stmts[sqlRollback].Exec()
	}
	if err != nil {
		for i := range errs {
			errs[i] = fmt.Errorf("store: commit: %v", err)
		}
		// The moves it appended are not there after all.
		clear(s.next)
	}
	for i, o := range batch {
		o.err <- errs[i]
	}
}

// apply runs one write in tx (nil: the writer's connection, inside its
// BEGIN) and says why it failed or was refused.
func (s *Store) apply(tx *sql.Tx, o op) error {
	if o.run != nil {
		return o.run(tx)
	}
	if o.move != nil {
		return s.appendMove(tx, o.move)
	}
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
	case err != nil && o.conflict != nil && isUnique(err):
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

// appendMove appends m if it is the next move of a started match, so a
// replay never meets a gap. The match's next index is looked up once,
// then kept in s.next; the primary key still refuses a move recorded
// twice.
func (s *Store) appendMove(tx *sql.Tx, m *moveOp) error {
	next, ok := s.next[m.matchKey]
	if !ok {
		var started bool
		err := s.stmt(tx, sqlNextMove).QueryRow(m.table, m.no, m.table, m.no).Scan(&started, &next)
		switch {
		case err != nil:
			return fmt.Errorf("store: %v", err)
		case !started:
			return fmt.Errorf("store: write refused (table %s: match %d not started)", m.table, m.no)
		}
	}
	if m.index != next {
		return fmt.Errorf("store: write refused (table %s: move %d of match %d out of order)", m.table, m.index, m.no)
	}
	if _, err := s.stmt(tx, sqlMove).Exec(m.table, m.no, m.index, m.seat, m.move); err != nil {
		return fmt.Errorf("store: %v", err)
	}
	if !ok && len(s.next) >= maxNext {
		clear(s.next)
	}
	s.next[m.matchKey] = m.index + 1
	return nil
}

// isUnique reports whether err is a constraint refusing a row: in
// the writes that set conflict, only a unique index can (the primary
// code, because whether the extended one is reported depends on the
// connection).
func isUnique(err error) bool {
	var e *msqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// isBusy reports whether err is SQLite's "database is locked": with the
// unix-excl VFS, another process has the file open.
func isBusy(err error) bool {
	var e *msqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}

// stmt is the statement prepared for query, in tx if there is one.
func (s *Store) stmt(tx *sql.Tx, query string) *sql.Stmt {
	st := s.stmts[query]
	if tx != nil {
		return tx.Stmt(st)
	}
	return st
}

// queryRow runs a write that returns a row, with its statement prepared
// once.
func (s *Store) queryRow(tx *sql.Tx, o op) *sql.Row {
	if s.stmts[o.query] != nil {
		return s.stmt(tx, o.query).QueryRow(o.args...)
	}
	if tx != nil {
		return tx.QueryRow(o.query, o.args...)
	}
	return s.w.QueryRowContext(context.Background(), o.query, o.args...)
}

// execIn runs a statement not prepared, in tx or else on the writer's
// connection.
func (s *Store) execIn(tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if tx != nil {
		return tx.Exec(query, args...)
	}
	return s.w.ExecContext(context.Background(), query, args...)
}

// applyAll runs o and the writes that go with it in tx, all or none: the
// rest of the batch commits either way.
func (s *Store) applyAll(tx *sql.Tx, o op) error {
	if _, err := s.execIn(tx, `SAVEPOINT together`); err != nil {
		return fmt.Errorf("store: %v", err)
	}
	err := s.apply(tx, o)
	for _, w := range o.with {
		if err == nil {
			err = s.apply(tx, w)
		}
	}
	if err != nil {
		if _, rerr := s.execIn(tx, `ROLLBACK TO together`); rerr != nil {
			return fmt.Errorf("store: %v (and undoing it: %v)", err, rerr)
		}
	}
	if _, rerr := s.execIn(tx, `RELEASE together`); rerr != nil && err == nil {
		err = fmt.Errorf("store: %v", rerr)
	}
	return err
}

// exec1 runs one write in tx with its statement prepared once: parsing
// SQL again for every move would cost more than the insert itself.
func (s *Store) exec1(tx *sql.Tx, o op) (sql.Result, error) {
	if s.stmts[o.query] != nil {
		return s.stmt(tx, o.query).Exec(o.args...)
	}
	return s.execIn(tx, o.query, o.args...)
}

// fail answers the writes still waiting when the store closes.
func (s *Store) fail([]op) {
	for {
		select {
		case o := <-s.ops:
			o.err <- store.ErrClosed
		default:
			return
		}
	}
}

// exec queues one write and waits for its commit.
func (s *Store) exec(ctx context.Context, query string, args ...any) error {
	return s.do(ctx, op{query: query, args: args})
}

func (s *Store) do(ctx context.Context, o op) error {
	o.err = make(chan error, 1)
	select {
	case s.ops <- o:
	case <-s.quit:
		return store.ErrClosed
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
			return store.ErrClosed
		}
	}
}
