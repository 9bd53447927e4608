package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
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
