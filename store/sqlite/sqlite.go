// Package sqlite is Tapis's default store: one SQLite file (modernc.org's
// pure Go driver), written by one goroutine that commits the writes
// waiting at that moment in one transaction. What it shares with
// PostgreSQL's store, the schema's migrations and the statements both
// run, is in store/sqldb.
package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"sync"
	"time"

	"tapis/store"
	"tapis/store/sqldb"
)

// Store is the default store.Store: one database file, written by one goroutine
// that commits every write waiting at that moment in one transaction
// (group commit). A caller returns once its write is committed, so a move
// is durable before anyone is told of it, and a thousand busy tables cost
// a few commits per millisecond rather than a thousand.
type Store struct {
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
	// ckDone is closed when the checkpointer (checkpoint.go) has stopped.
	ckDone chan struct{}
	once   sync.Once
}

// Store is a store.Store and a store.IntegrityChecker.
var (
	_ store.Store            = (*Store)(nil)
	_ store.IntegrityChecker = (*Store)(nil)
)

// Open opens (creating if needed) the database at path.
func Open(path string) (*Store, error) {
	q := url.Values{}
	// The unix-excl VFS locks the file against other processes for as
	// long as the store has it open, and keeps the WAL's index in this
	// process's memory rather than in a shared -shm file: a transaction
	// then takes its WAL locks without a system call (the default VFS
	// makes six fcntl calls a commit, a quarter of a lone move's CPU).
	// Connections of this process, the store's two, share the index as
	// before; another process (the sqlite3 shell, a backup tool, a second
	// server on the same file) finds the database locked until the store
	// closes or its process dies.
	q.Add("vfs", "unix-excl")
	// WAL with synchronous=NORMAL: a commit is in the WAL file, written
	// to the kernel, before it returns, so it survives a killed process;
	// only a power cut or a crash of the system may lose the last commits
	// (FULL would fsync every commit: 4 to 5 times the CPU of a lone move
	// and 20 times its latency, docs/performance.md).
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "busy_timeout(5000)")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %v", path, err)
	}
	// Three connections: the writer's (SQLite has one writer anyway, and
	// the writer goroutine is the only one that writes), the
	// checkpointer's (checkpoint.go) and one for reads.
	db.SetMaxOpenConns(3)
	if err := sqldb.MigrateSQLite(context.Background(), db, sqldb.Last); err != nil {
		db.Close()
		if isBusy(err) {
			return nil, fmt.Errorf("store: %s is open in another process (a running server keeps its database locked): %v", path, err)
		}
		return nil, fmt.Errorf("store: schema of %s: %v", path, err)
	}
	s := &Store{db: db, stmts: map[string]*sql.Stmt{}, next: map[matchKey]int{},
		ops: make(chan op, 1024), quit: make(chan struct{}), done: make(chan struct{})}
	if err := s.prepareWriter(); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %v", path, err)
	}
	if err := s.startCheckpointer(); err != nil {
		s.closeWriter()
		db.Close()
		return nil, fmt.Errorf("store: %s: %v", path, err)
	}
	go s.writer()
	return s, nil
}

// CreateTable implements store.Store.
func (s *Store) CreateTable(ctx context.Context, t store.Table, start *store.Start) error {
	o, err := createOp(t, start)
	if err != nil {
		return err
	}
	return s.do(ctx, o)
}

// createOp is CreateTable's write: the table, its seats and its first
// match's start, all or none. SeatQueued adds its own writes to it.
func createOp(t store.Table, start *store.Start) (op, error) {
	if err := store.CheckPlayers(t.Players); err != nil {
		return op{}, fmt.Errorf("store: table %s: %v", t.ID, err)
	}
	opts, active := sqldb.TableRow(t)
	o := op{query: `INSERT INTO tapis_tables (id, game, players, options, created, turn_ms, creator, active, host, memory_aid, public, lang, rated, coach) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		args: []any{t.ID, t.Game, t.Players, opts, t.Created.UnixMilli(), t.TurnTime.Milliseconds(), t.Creator, active.UnixMilli(), t.Host, t.MemoryAid,
			t.Public, t.Lang, t.Rated, t.Coach}}
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
func seatOp(table string, seat int, st store.Seat) op {
	return op{one: true, what: fmt.Sprintf("table %s has no seat %d", table, seat),
		query: `INSERT OR REPLACE INTO tapis_seats (table_id, seat, name, bot, token_hash, player)
		SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tapis_tables WHERE id = ? AND ? >= 0 AND ? < players)`,
		args: []any{table, seat, st.Name, st.Bot, st.TokenHash, st.Player, table, seat, seat}}
}

// startOp writes the start of match no; the primary key refuses a match
// started twice.
func startOp(table string, no int, seed uint64) op {
	return op{query: sqldb.StartMatch.SQLite, args: []any{table, no, int64(seed)}}
}

// SetSeat implements store.Store.
func (s *Store) SetSeat(ctx context.Context, table string, seat int, st store.Seat, start *store.Start) error {
	o := seatOp(table, seat, st)
	if start != nil {
		o.with = []op{startOp(table, start.No, start.Seed)}
	}
	return s.do(ctx, o)
}

// StartMatch implements store.Store.
func (s *Store) StartMatch(ctx context.Context, table string, no int, seed uint64) error {
	return s.do(ctx, startOp(table, no, seed))
}

// AppendMove implements store.Store.
func (s *Store) AppendMove(ctx context.Context, table string, no, index int, m store.Move) error {
	// The move goes in only as the next one of a started match, so a
	// replay never meets a gap (see appendMove).
	return s.do(ctx, op{move: &moveOp{matchKey: matchKey{table, no}, index: index, seat: m.Seat, move: string(m.Move)}})
}

// EndMatch implements store.Store.
func (s *Store) EndMatch(ctx context.Context, table string, no int) error {
	return s.exec(ctx, sqldb.EndMatch.SQLite, table, no)
}

// CloseTable implements store.Store.
func (s *Store) CloseTable(ctx context.Context, table string, c store.Closed, reason string) error {
	if !c.Valid() {
		return fmt.Errorf("store: table %s: cannot close as %q", table, c)
	}
	return s.do(ctx, op{one: true, what: fmt.Sprintf("no table %s", table),
		query: sqldb.CloseTable.SQLite, args: []any{string(c), reason, table}})
}

// Touch implements store.Store.
func (s *Store) Touch(ctx context.Context, table string, at time.Time) error {
	return s.do(ctx, op{one: true, what: fmt.Sprintf("no table %s", table),
		query: sqldb.Touch.SQLite, args: []any{at.UnixMilli(), table}})
}

// closed reports whether Close has begun: reads then answer ErrClosed,
// as writes do, rather than database/sql's own error.
func (s *Store) closed() bool {
	select {
	case <-s.quit:
		return true
	default:
		return false
	}
}

// Close implements store.Store. Writes not yet committed fail with ErrClosed;
// committed ones stay.
func (s *Store) Close() error {
	s.once.Do(func() { close(s.quit) })
	<-s.done
	<-s.ckDone
	return s.db.Close()
}
