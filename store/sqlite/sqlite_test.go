package sqlite

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapis/store"
	"tapis/store/storetest"
)

// The SQLite store passes the conformance suite.
func TestStore(t *testing.T) {
	storetest.Run(t, storetest.Backend{Durable: true, New: func(tb testing.TB) storetest.Opener {
		path := filepath.Join(tb.TempDir(), "t.db")
		return func(t testing.TB) store.Store {
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}})
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A table and its seats are written together or not at all: if a seat's
// write fails, the table is not there either, so a crash or an error can
// never leave a table without its seats for a restart to trip on. The
// failing seat write is planted (a table that does not exist); the
// writes around it in the same batch commit as usual.
func TestSQLiteTableAndSeatsTogether(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	o := op{query: `INSERT INTO tapis_tables (id, game, players, options, created) VALUES (?, ?, ?, ?, ?)`,
		args: []any{"half", "cabo", 2, "{}", 0},
		with: []op{seatOp("half", 0, store.Seat{Name: "Ann"}), {query: `INSERT INTO nowhere VALUES (1)`}}}
	if err := s.do(ctx, o); err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Fatalf("a failing seat write: %v, want the error naming it", err)
	}
	if _, err := s.Load(ctx, "half"); err == nil {
		t.Fatal("the table was kept without its seats")
	}
	var seats int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM tapis_seats WHERE table_id = 'half'`).Scan(&seats); err != nil || seats != 0 {
		t.Fatalf("%d seats kept (%v)", seats, err)
	}
	// The store goes on: the same table written whole is kept whole.
	if err := s.CreateTable(ctx, store.Table{ID: "half", Game: "cabo", Players: 2, Seats: []store.Seat{{Name: "Ann"}, {Bot: "random"}}}, nil); err != nil {
		t.Fatal(err)
	}
	sv, err := s.Load(ctx, "half")
	if err != nil || len(sv.Seats) != 2 || sv.Seats[1].Bot != "random" {
		t.Fatalf("after a whole write: %+v, %v", sv, err)
	}
}

// A row that does not hold what its columns should (a hand edit, a bad
// restore) is listed by Open with a Problem naming the column, beside
// the tables that read well; Load refuses it with an error.
func TestSQLiteOpenDamagedRows(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c", "d"} {
		must(t, storetest.FillTable(ctx, s, id, 2))
	}
	for _, q := range []string{
		`UPDATE tapis_tables SET players = 'many' WHERE id = 'b'`,
		`UPDATE tapis_tables SET created = x'00ff' WHERE id = 'c'`,
		`UPDATE tapis_tables SET players = 1000000 WHERE id = 'd'`,
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Open(ctx)
	must(t, err)
	want := map[string][]string{"a": nil, "b": {"players is text"}, "c": {"created is a blob"}, "d": {"1000000 players"}}
	if len(got) != len(want) {
		t.Fatalf("open: %+v", got)
	}
	for _, sm := range got {
		w := want[sm.ID]
		if len(w) == 0 && sm.Problem != "" || sm.Game != "cabo" {
			t.Errorf("table %s: %+v", sm.ID, sm)
		}
		for _, p := range w {
			if !strings.Contains(sm.Problem, p) {
				t.Errorf("table %s: problem %q, want it to say %q", sm.ID, sm.Problem, p)
			}
		}
		_, err := s.Load(ctx, sm.ID)
		if (err != nil) != (len(w) > 0) {
			t.Errorf("table %s: Load gives %v", sm.ID, err)
		}
	}
}

// Check finds a damaged page that Open does not read: the moves table's
// page. Load, which reads it, fails.
func TestSQLiteCheckFindsDamage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	must(t, storetest.FillTable(ctx, s, "a", 20))
	must(t, s.Check(ctx))
	var root, size int64
	if err := s.db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = 'tapis_moves'`).Scan(&root); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil {
		t.Fatal(err)
	}
	must(t, s.Close())
	// The page's header and cell pointers: its type byte no b-tree has.
	damage(t, path, (root-1)*size, bytes.Repeat([]byte{0xff}, 64))

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := storetest.OpenIDs(t, s); len(got) != 1 {
		t.Fatalf("open: %v", got)
	}
	if err := s.Check(ctx); err == nil || !strings.HasPrefix(err.Error(), "store: integrity check: ") {
		t.Fatalf("check of a damaged file: %v", err)
	}
	if l, err := s.Load(ctx, "a"); err == nil {
		t.Fatalf("the damaged moves loaded: %+v", l.Match)
	}
}

// damage overwrites the file at path with b from offset off.
func damage(t testing.TB, path string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
