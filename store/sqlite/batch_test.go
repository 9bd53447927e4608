package sqlite

import (
	"context"
	"strings"
	"testing"

	"tapis/store"
)

// moveBatch is a batch of AppendMove's writes, as the writer takes them.
func moveBatch(moves ...moveOp) []op {
	batch := make([]op, len(moves))
	for i := range moves {
		batch[i] = op{move: &moves[i], err: make(chan error, 1)}
	}
	return batch
}

// The moves of one batch, committed together, are each checked as if
// alone: two moves of one match in order, a move out of order, a move of
// a match not started, and the moves around them appended.
func TestMovesInOneBatch(t *testing.T) {
	s := openTables(t)
	defer s.Close()
	ctx := context.Background()
	must(t, s.CreateTable(ctx, store.Table{ID: "idle", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}}, nil))
	batch := moveBatch(
		moveOp{matchKey{"a", 1}, 0, 0, `{"m":"a0"}`},
		moveOp{matchKey{"b", 1}, 0, 1, `{"m":"b0"}`},
		moveOp{matchKey{"a", 1}, 1, 1, `{"m":"a1"}`},
		moveOp{matchKey{"b", 1}, 3, 0, `{"m":"b3"}`},
		moveOp{matchKey{"idle", 1}, 0, 0, `{"m":"idle0"}`},
		moveOp{matchKey{"b", 1}, 1, 0, `{"m":"b1"}`},
	)
	s.commit(batch)
	want := []string{"", "", "", "out of order", "not started", ""}
	for i, o := range batch {
		err := <-o.err
		if (err == nil) != (want[i] == "") || err != nil && !strings.Contains(err.Error(), want[i]) {
			t.Errorf("move %d (%+v): %v, want %q", i, *o.move, err, want[i])
		}
	}
	checkMoves(t, s, "a", `{"m":"a0"}`, `{"m":"a1"}`)
	checkMoves(t, s, "b", `{"m":"b0"}`, `{"m":"b1"}`)
	// The writer's count of each match's moves is right: the next
	// ones follow.
	must(t, s.AppendMove(ctx, "a", 1, 2, store.Move{Move: []byte(`{"m":"a2"}`)}))
	must(t, s.AppendMove(ctx, "b", 1, 2, store.Move{Move: []byte(`{"m":"b2"}`)}))
}

// openTables opens a store with tables a and b, their first match
// started.
func openTables(t *testing.T) *Store {
	s := open(t)
	for _, id := range []string{"a", "b"} {
		must(t, s.CreateTable(context.Background(), store.Table{ID: id, Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}},
			&store.Start{No: 1, Seed: 1}))
	}
	return s
}

// checkMoves fails t unless the moves of table id's match are want.
func checkMoves(t *testing.T, s *Store, id string, want ...string) {
	t.Helper()
	saved, err := s.Load(context.Background(), id)
	must(t, err)
	var got []string
	for _, m := range saved.Match.Moves {
		got = append(got, string(m.Move))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("table %s: moves %v, want %v", id, got, want)
	}
}
