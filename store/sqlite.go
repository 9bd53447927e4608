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
	db *sql.DB // for reads; the writer has a connection of its own
	// w is the writer's connection, held for the store's life so that
	// its statements, BEGIN and COMMIT included, are prepared once on
	// it, and reads never wait for a commit (WAL lets them read the last
	// one meanwhile).
	w     *sql.Conn
	stmts map[string]*sql.Stmt // prepared once on w; used by the writer only
	// next is the index of the next move of each match the writer has
	// appended to (the matches it started, or checked once, are known to
	// exist): a move's order is checked here rather than by a query. It
	// is the writer's alone, and forgotten when a commit fails.
	next map[matchKey]int
	ops  chan op
	quit chan struct{}
	done chan struct{}
	once sync.Once
}

// maxNext bounds SQLite.next: past it the writer forgets every match,
// and checks each again with a query at its next move.
const maxNext = 100_000

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
	// Two connections: the writer's (SQLite has one writer anyway, and
	// the writer goroutine is the only one that writes) and one for
	// reads.
	db.SetMaxOpenConns(2)
	if err := migrateSQLite(context.Background(), db, lastVersion); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: schema of %s: %v", path, err)
	}
	s := &SQLite{db: db, stmts: map[string]*sql.Stmt{}, next: map[matchKey]int{},
		ops: make(chan op, 1024), quit: make(chan struct{}), done: make(chan struct{})}
	if err := s.prepareWriter(); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %v", path, err)
	}
	go s.writer()
	return s, nil
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
func (s *SQLite) prepareWriter() error {
	w, err := s.db.Conn(context.Background())
	if err != nil {
		return err
	}
	s.w = w
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

// How the writer lingers for more writes before a commit (see pacer).
const (
	// lingerFor is how long: about what a few more writes take to
	// arrive from a thousand tables each moving twice a second.
	lingerFor = 2 * time.Millisecond
	// lingerBelow is the batch size at which it need not: the writes
	// already pile up while a commit runs.
	lingerBelow = 16
	// lingerProbe is how often it tries again once lingering stopped
	// paying: a lone caller's sequential writes lose lingerFor once
	// per lingerProbe, about 2%.
	lingerProbe = 100 * time.Millisecond
)

// pacer decides whether the writer waits a little for more writes before
// committing a batch. A commit's cost is mostly per transaction (WAL
// frames, locks, begin and commit), so at a steady 2,000 moves/s a batch
// of one move costs several times what it costs in a batch of five. But
// waiting only pays when writes come from callers that do not wait for
// this batch: a caller that writes again once answered (a lone table
// playing fast) would only be slowed. The pacer cannot tell callers
// apart; it learns from what lingering gained: it lingers while that was
// on average at least half a write, and once it was not, tries again only
// every lingerProbe.
type pacer struct {
	gain  float64   // moving average of the writes a linger gained
	probe time.Time // when to try lingering again, while gain is low
}

// linger reports whether a batch of n writes, taken at now, should wait
// for more.
func (p *pacer) linger(n int, now time.Time) bool {
	return n < lingerBelow && (p.gain >= 0.5 || !now.Before(p.probe))
}

// gained records that a linger ending at now gained n writes.
func (p *pacer) gained(n int, now time.Time) {
	p.gain = (p.gain + float64(n)) / 2
	if p.gain < 0.5 {
		p.probe = now.Add(lingerProbe)
	}
}

// closeWriter closes the writer's statements and connection:
// database/sql closes neither with the database, and SQLite checkpoints
// its WAL into the file only once nothing holds it.
func (s *SQLite) closeWriter() {
	for _, st := range s.stmts {
		st.Close()
	}
	s.w.Close()
}

// writer commits batches of waiting writes until Close.
func (s *SQLite) writer() {
	defer close(s.done)
	defer s.closeWriter()
	batch := make([]op, 0, 256)
	var pace pacer
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
		if now := time.Now(); pace.linger(len(batch), now) {
			n := len(batch)
			linger.Reset(lingerFor)
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
			pace.gained(len(batch)-n, time.Now())
		}
		s.commit(batch)
	}
}

// commit runs a batch in one transaction and answers each write. A batch
// that has a write needing a *sql.Tx (run) gets one; the others, nearly
// all, run between a prepared BEGIN and COMMIT on the writer's
// connection, which costs less than database/sql's transaction.
func (s *SQLite) commit(batch []op) {
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
func (s *SQLite) apply(tx *sql.Tx, o op) error {
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

// appendMove appends m if it is the next move of a started match, so a
// replay never meets a gap. The match's next index is looked up once,
// then kept in s.next; the primary key still refuses a move recorded
// twice.
func (s *SQLite) appendMove(tx *sql.Tx, m *moveOp) error {
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

// isSQLiteUnique reports whether err is a constraint refusing a row: in
// the writes that set conflict, only a unique index can (the primary
// code, because whether the extended one is reported depends on the
// connection).
func isSQLiteUnique(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// stmt is the statement prepared for query, in tx if there is one.
func (s *SQLite) stmt(tx *sql.Tx, query string) *sql.Stmt {
	st := s.stmts[query]
	if tx != nil {
		return tx.Stmt(st)
	}
	return st
}

// queryRow runs a write that returns a row, with its statement prepared
// once.
func (s *SQLite) queryRow(tx *sql.Tx, o op) *sql.Row {
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
func (s *SQLite) execIn(tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if tx != nil {
		return tx.Exec(query, args...)
	}
	return s.w.ExecContext(context.Background(), query, args...)
}

// applyAll runs o and the writes that go with it in tx, all or none: the
// rest of the batch commits either way.
func (s *SQLite) applyAll(tx *sql.Tx, o op) error {
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
func (s *SQLite) exec1(tx *sql.Tx, o op) (sql.Result, error) {
	if s.stmts[o.query] != nil {
		return s.stmt(tx, o.query).Exec(o.args...)
	}
	return s.execIn(tx, o.query, o.args...)
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
	opts, active := t.row()
	o := op{query: `INSERT INTO tapis_tables (id, game, players, options, created, turn_ms, creator, active, host, memory_aid, public, lang, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		args: []any{t.ID, t.Game, t.Players, opts, t.Created.UnixMilli(), t.TurnTime.Milliseconds(), t.Creator, active.UnixMilli(), t.Host, t.MemoryAid,
			t.Public, t.Lang, t.Rated}}
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
		query: `INSERT OR REPLACE INTO tapis_seats (table_id, seat, name, bot, token_hash, player)
		SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tapis_tables WHERE id = ? AND ? >= 0 AND ? < players)`,
		args: []any{table, seat, st.Name, st.Bot, st.TokenHash, st.Player, table, seat, seat}}
}

// startOp writes the start of match no; the primary key refuses a match
// started twice.
func startOp(table string, no int, seed uint64) op {
	return op{query: qStartMatch.sqlite, args: []any{table, no, int64(seed)}}
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
	// replay never meets a gap (see appendMove).
	return s.do(ctx, op{move: &moveOp{matchKey: matchKey{table, no}, index: index, seat: m.Seat, move: string(m.Move)}})
}

// EndMatch implements Store.
func (s *SQLite) EndMatch(ctx context.Context, table string, no int) error {
	return s.exec(ctx, qEndMatch.sqlite, table, no)
}

// CloseTable implements Store.
func (s *SQLite) CloseTable(ctx context.Context, table string, c Closed, reason string) error {
	if !c.valid() {
		return fmt.Errorf("store: table %s: cannot close as %q", table, c)
	}
	return s.do(ctx, op{one: true, what: fmt.Sprintf("no table %s", table),
		query: qCloseTable.sqlite, args: []any{string(c), reason, table}})
}

// Touch implements Store.
func (s *SQLite) Touch(ctx context.Context, table string, at time.Time) error {
	return s.do(ctx, op{one: true, what: fmt.Sprintf("no table %s", table),
		query: qTouch.sqlite, args: []any{at.UnixMilli(), table}})
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
