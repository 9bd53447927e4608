package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"tapis/store"
)

// Moves appended to many tables at once, as the stores batch them: two
// appends of the same index race and exactly one wins, a move out of
// order or to a match not started is refused, and each table keeps the
// moves that won, in order.
func testAppendConcurrent(t *testing.T, bk Backend) {
	const tables, moves = 40, 30
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	must(t, s.CreateTable(ctx, store.Table{ID: "unstarted", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}}, nil))
	won := make([][]store.Move, tables)
	var wg sync.WaitGroup
	for tb := range tables {
		id := fmt.Sprintf("c%d", tb)
		must(t, FillTable(ctx, s, id, 0))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range moves {
				var errs [4]error
				var step sync.WaitGroup
				try := func(j int, f func() error) {
					step.Add(1)
					go func() { defer step.Done(); errs[j] = f() }()
				}
				cand := func(j int) store.Move {
					return store.Move{Seat: j, Move: json.RawMessage(fmt.Sprintf(`{"i":%d,"by":%d}`, i, j))}
				}
				try(0, func() error { return s.AppendMove(ctx, id, 1, i, cand(0)) })
				try(1, func() error { return s.AppendMove(ctx, id, 1, i, cand(1)) })
				try(2, func() error { return s.AppendMove(ctx, id, 1, i+5, cand(2)) })
				try(3, func() error { return s.AppendMove(ctx, "unstarted", 1, i, cand(3)) })
				step.Wait()
				if errs[2] == nil || errs[3] == nil {
					t.Errorf("%s: move %d: out of order: %v, match not started: %v", id, i, errs[2], errs[3])
					return
				}
				switch {
				case errs[0] == nil && errs[1] != nil:
					won[tb] = append(won[tb], cand(0))
				case errs[1] == nil && errs[0] != nil:
					won[tb] = append(won[tb], cand(1))
				default:
					t.Errorf("%s: move %d appended twice at once: %v, %v", id, i, errs[0], errs[1])
					return
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for tb := range tables {
		l, err := s.Load(ctx, fmt.Sprintf("c%d", tb))
		must(t, err)
		if len(l.Match.Moves) != moves {
			t.Fatalf("c%d: %d moves, want %d", tb, len(l.Match.Moves), moves)
		}
		for i, m := range l.Match.Moves {
			if m.Seat != won[tb][i].Seat || string(m.Move) != string(won[tb][i].Move) {
				t.Fatalf("c%d: move %d is %+v, want %+v", tb, i, m, won[tb][i])
			}
		}
	}
}
