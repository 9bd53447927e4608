package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A table and its seats are written together or not at all: if a seat's
// write fails, the table is not there either, so a crash or an error can
// never leave a table without its seats for a restart to trip on. The
// failing seat write is planted (a table that does not exist); the
// writes around it in the same batch commit as usual.
func TestSQLiteTableAndSeatsTogether(t *testing.T) {
	s, err := OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	o := op{query: `INSERT INTO tables (id, game, players, options, created) VALUES (?, ?, ?, ?, ?)`,
		args: []any{"half", "cabo", 2, "{}", 0},
		with: []op{seatOp("half", 0, Seat{Name: "Ann"}), {query: `INSERT INTO nowhere VALUES (1)`}}}
	if err := s.do(ctx, o); err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Fatalf("a failing seat write: %v, want the error naming it", err)
	}
	if _, err := s.Load(ctx, "half"); err == nil {
		t.Fatal("the table was kept without its seats")
	}
	var seats int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM seats WHERE table_id = 'half'`).Scan(&seats); err != nil || seats != 0 {
		t.Fatalf("%d seats kept (%v)", seats, err)
	}
	// The store goes on: the same table written whole is kept whole.
	if err := s.CreateTable(ctx, Table{ID: "half", Game: "cabo", Players: 2, Seats: []Seat{{Name: "Ann"}, {Bot: "random"}}}); err != nil {
		t.Fatal(err)
	}
	sv, err := s.Load(ctx, "half")
	if err != nil || len(sv.Seats) != 2 || sv.Seats[1].Bot != "random" {
		t.Fatalf("after a whole write: %+v, %v", sv, err)
	}
}

// A database made before the time per move existed (its tables table has
// no turn_ms column) still opens: the column is added, its tables read
// back with no time per move, and new tables keep theirs. Opening it
// again finds the column there and adds nothing.
func TestSQLiteOldSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	old := `
CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL, created INTEGER NOT NULL);
CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, bot TEXT NOT NULL, token_hash TEXT NOT NULL, PRIMARY KEY (table_id, seat)) WITHOUT ROWID;
CREATE TABLE matches (table_id TEXT NOT NULL, no INTEGER NOT NULL, seed INTEGER NOT NULL, over INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_id, no)) WITHOUT ROWID;
CREATE TABLE moves (table_id TEXT NOT NULL, no INTEGER NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL, move TEXT NOT NULL, PRIMARY KEY (table_id, no, idx)) WITHOUT ROWID;
INSERT INTO tables VALUES ('old', 'cabo', 2, '{}', 1000);
INSERT INTO seats VALUES ('old', 0, 'Ann', '', 'h1'), ('old', 1, 'random', 'random', '');
INSERT INTO matches VALUES ('old', 1, 42, 0);
INSERT INTO moves VALUES ('old', 1, 0, 0, '{"type":"draw"}');
`
	if _, err := db.Exec(old); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ctx := context.Background()
	for round := 0; round < 2; round++ {
		s, err := OpenSQLite(path)
		if err != nil {
			t.Fatalf("opening an old database (round %d): %v", round, err)
		}
		got, err := s.Unfinished(ctx)
		if err != nil || len(got) != 1+round {
			t.Fatalf("unfinished: %+v, %v", got, err)
		}
		o := got[round] // "new" sorts before "old"
		if o.TurnTime != 0 || o.Seats[0].Name != "Ann" || o.Match == nil || o.Match.Seed != 42 || len(o.Match.Moves) != 1 {
			t.Fatalf("the old table read back as %+v (match %+v)", o.Table, o.Match)
		}
		if round == 0 {
			if err := s.CreateTable(ctx, Table{ID: "new", Game: "cabo", Players: 2, Seats: []Seat{{}, {}}, TurnTime: time.Minute}); err != nil {
				t.Fatal(err)
			}
		}
		n, err := s.Load(ctx, "new")
		if err != nil || n.TurnTime != time.Minute {
			t.Fatalf("a new table in the old database: %+v, %v", n.Table, err)
		}
		s.Close()
	}
}
