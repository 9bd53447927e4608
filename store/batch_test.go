package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// Moves appended to many tables at once, as the stores batch them: two
// appends of the same index race and exactly one wins, a move out of
// order or to a match not started is refused, and each table keeps the
// moves that won, in order.
func TestAppendConcurrent(t *testing.T) {
	const tables, moves = 40, 30
	ctx := context.Background()
	for name, k := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := k.open(t)
			defer s.Close()
			must(t, s.CreateTable(ctx, Table{ID: "unstarted", Game: "cabo", Players: 2, Seats: []Seat{{}, {}}}, nil))
			won := make([][]Move, tables)
			var wg sync.WaitGroup
			for tb := range tables {
				id := fmt.Sprintf("c%d", tb)
				must(t, fillTable(ctx, s, id, 0))
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
						cand := func(j int) Move {
							return Move{Seat: j, Move: json.RawMessage(fmt.Sprintf(`{"i":%d,"by":%d}`, i, j))}
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
		})
	}
}

// A batch of moves to PostgreSQL answers each move as appending it alone
// would: two moves of one match both go in, in order; a move out of order
// or to a match not started is refused; and a move PostgreSQL cannot
// store fails alone, the others of its batch going in.
func TestPostgresBatch(t *testing.T) {
	ctx := context.Background()
	p := postgresOpener(t)(t).(*Postgres)
	defer p.Close()
	for _, id := range []string{"a", "b", "c"} {
		must(t, fillTable(ctx, p, id, 1))
	}
	must(t, p.CreateTable(ctx, Table{ID: "unstarted", Game: "cabo", Players: 2, Seats: []Seat{{}, {}}}, nil))
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
