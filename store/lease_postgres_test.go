package store

// PostgreSQL's own lease behaviour: a takeover waits for a write under
// way; the fenced append's cost.

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// On PostgreSQL, a fenced write under way holds its lease: a node taking
// the table over waits for the write to commit, and so loads it. Here A's
// move, checked while A's lease was live, is held up by another
// transaction's row until after the lease expired; B's Acquire waits
// until A's move is in, and B then loads it.
func TestPostgresLeaseWaitsForWrite(t *testing.T) {
	ctx := context.Background()
	s := postgresOpener(t)(t).(*Postgres)
	defer s.Close()
	newLeaseTable(t, s, "x")
	must(t, s.StartMatch(ctx, "x", 1, 1))
	// The row in the way: move 0, uncommitted, which A's insert must wait
	// for to learn whether it conflicts.
	block, err := s.pool.Begin(ctx)
	must(t, err)
	defer block.Rollback(ctx)
	_, err = block.Exec(ctx, `INSERT INTO tapis_moves (table_id, no, idx, seat, move) VALUES ('x', 1, 0, 0, '{}')`)
	must(t, err)

	a, err := s.Acquire(ctx, "x", "A", long)
	must(t, err)
	a, err = s.Renew(ctx, a, 300*time.Millisecond)
	must(t, err)
	aDone := make(chan error, 1)
	go func() { aDone <- s.Fenced(a).AppendMove(ctx, 1, 0, move(a, 0)) }()
	waitLocked(t, s, "%FROM tapis_leases%INSERT INTO tapis_moves%", aDone)
	waitFree(t, s, "x")
	bDone := make(chan error, 1)
	var b Lease
	go func() {
		var err error
		b, err = s.Acquire(ctx, "x", "B", long)
		bDone <- err
	}()
	waitLocked(t, s, "%INSERT INTO tapis_leases%", bDone)
	must(t, block.Rollback(ctx))
	must(t, <-aDone)
	must(t, <-bDone)
	sameLease(t, "B after A's write", b, "x", "B", 2)
	sv, err := s.Load(ctx, "x")
	must(t, err)
	if len(sv.Match.Moves) != 1 {
		t.Fatalf("B loaded %d moves, want A's one", len(sv.Match.Moves))
	}
	wantErr(t, "A's next move", s.Fenced(a).AppendMove(ctx, 1, 1, move(a, 0)), ErrLeaseLost)
}

// waitLocked returns once a statement like query waits for a lock; it
// fails if done, the statement's outcome, comes first.
func waitLocked(t *testing.T, s *Postgres, query string, done chan error) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		must(t, s.pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND query LIKE $1`, query).Scan(&n))
		if n > 0 {
			return
		}
		select {
		case err := <-done:
			t.Fatalf("the statement like %q did not wait: it returned %v", query, err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no statement like %q waits for a lock after 10s", query)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// leaseBenchTables numbers the tables BenchmarkFencedAppendMove creates.
var leaseBenchTables atomic.Int64

// BenchmarkFencedAppendMove measures what the fence costs a move: one
// table's moves appended one after another, as its goroutine does,
// without a lease and under one.
func BenchmarkFencedAppendMove(b *testing.B) {
	ctx := context.Background()
	for name, k := range stores(b) {
		if name == "sqlite" {
			continue
		}
		for _, fenced := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/fenced=%v", name, fenced), func(b *testing.B) {
				s := k.open(b)
				defer s.Close()
				// A table of its own each time the benchmark is run.
				id := fmt.Sprint("lease-bench-", leaseBenchTables.Add(1))
				if err := s.CreateTable(ctx, Table{ID: id, Game: "cabo", Players: 2, Seats: []Seat{{}, {}}, Host: -1}, &Start{No: 1, Seed: 1}); err != nil {
					b.Fatal(err)
				}
				w := Unfenced(s, id)
				if fenced {
					l, err := s.(Leases).Acquire(ctx, id, "A", time.Hour)
					if err != nil {
						b.Fatal(err)
					}
					w = s.(Leases).Fenced(l)
				}
				m := Move{Seat: 0, Move: json.RawMessage(`{"type":"draw"}`)}
				b.ResetTimer()
				for i := range b.N {
					if err := w.AppendMove(ctx, 1, i, m); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// A node that knows the holder is gone takes the lease before it expires:
// the epoch grows and the gone holder's writes are fenced off at once. A
// take from a holder that is no longer the holder is refused, naming the
// one who is.
