package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"tapis/store"
	"tapis/store/storetest"
)

// A batch of moves to PostgreSQL answers each move as appending it alone
// would: two moves of one match both go in, in order; a move out of order
// or to a match not started is refused; and a move PostgreSQL cannot
// store fails alone, the others of its batch going in.
func TestPostgresBatch(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	defer p.Close()
	for _, id := range []string{"a", "b", "c"} {
		must(t, storetest.FillTable(ctx, p, id, 1))
	}
	must(t, p.CreateTable(ctx, store.Table{ID: "unstarted", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}}, nil))
	mv := func(table string, index int, move string) *pgMove {
		return &pgMove{matchKey: matchKey{table, 1}, index: index, move: move, err: make(chan error, 1)}
	}
	batch := []*pgMove{
		mv("a", 1, `{"n":1}`), mv("a", 2, `{"n":2}`), mv("b", 5, `{}`), mv("unstarted", 0, `{}`), mv("c", 0, `{}`), mv("c", 1, `{"n":1}`),
	}
	p.appendMoves(batch)
	want := []string{"", "", "out of order", "out of order", "out of order", ""}
	for i, o := range batch {
		if err := <-o.err; (err == nil) != (want[i] == "") || err != nil && !strings.Contains(err.Error(), want[i]) {
			t.Errorf("move %d of %s: %v, want %q", o.index, o.table, err, want[i])
		}
	}
	// A NUL is no text for PostgreSQL: the batch's statement fails.
	batch = []*pgMove{mv("a", 3, `{"n":3}`), mv("b", 1, "\x00"), mv("c", 2, `{"n":2}`)}
	p.appendMoves(batch)
	for i, o := range batch {
		if err := <-o.err; (err == nil) != (i != 1) {
			t.Errorf("move %d of %s: %v", o.index, o.table, err)
		}
	}
	for id, n := range map[string]int{"a": 4, "b": 1, "c": 3} {
		l, err := p.Load(ctx, id)
		must(t, err)
		if len(l.Match.Moves) != n || n > 1 && string(l.Match.Moves[n-1].Move) != fmt.Sprintf(`{"n":%d}`, n-1) {
			t.Errorf("%s: %+v", id, l.Match.Moves)
		}
	}
}
