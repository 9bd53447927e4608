package postgres

// PostgreSQL's own lease behaviour: a takeover waits for a write under
// way; the fenced append's cost.

import (
	"context"
	"errors"
	"testing"
	"time"

	"tapis/store"
	"tapis/store/storetest"
)

// On PostgreSQL, a fenced write under way holds its lease: a node taking
// the table over waits for the write to commit, and so loads it. Here A's
// move, checked while A's lease was live, is held up by another
// transaction's row until after the lease expired; B's Acquire waits
// until A's move is in, and B then loads it.
func TestPostgresLeaseWaitsForWrite(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	defer s.Close()
	storetest.LeaseTable(t, s, "x")
	must(t, s.StartMatch(ctx, "x", 1, 1))
	// The row in the way: move 0, uncommitted, which A's insert must wait
	// for to learn whether it conflicts.
	block, err := s.pool.Begin(ctx)
	must(t, err)
	defer block.Rollback(ctx)
	_, err = block.Exec(ctx, `INSERT INTO tapis_moves (table_id, no, idx, seat, move) VALUES ('x', 1, 0, 0, '{}')`)
	must(t, err)

	a, err := s.Acquire(ctx, "x", "A", time.Minute)
	must(t, err)
	a, err = s.Renew(ctx, a, 300*time.Millisecond)
	must(t, err)
	aDone := make(chan error, 1)
	go func() { aDone <- s.Fenced(a).AppendMove(ctx, 1, 0, storetest.SignedMove(a, 0)) }()
	waitLocked(t, s, "%FROM tapis_leases%INSERT INTO tapis_moves%", aDone)
	storetest.WaitFree(t, s, "x")
	bDone := make(chan error, 1)
	var b store.Lease
	go func() {
		var err error
		b, err = s.Acquire(ctx, "x", "B", time.Minute)
		bDone <- err
	}()
	waitLocked(t, s, "%INSERT INTO tapis_leases%", bDone)
	must(t, block.Rollback(ctx))
	must(t, <-aDone)
	must(t, <-bDone)
	if b.Table != "x" || b.Node != "B" || b.Epoch != 2 || b.Until.IsZero() {
		t.Fatalf("B after A's write: lease %+v, want table x node B epoch 2", b)
	}
	sv, err := s.Load(ctx, "x")
	must(t, err)
	if len(sv.Match.Moves) != 1 {
		t.Fatalf("B loaded %d moves, want A's one", len(sv.Match.Moves))
	}
	if err := s.Fenced(a).AppendMove(ctx, 1, 1, storetest.SignedMove(a, 0)); !errors.Is(err, store.ErrLeaseLost) {
		t.Fatalf("A's next move: got error %v, want %v", err, store.ErrLeaseLost)
	}
}

// waitLocked returns once a statement like query waits for a lock; it
// fails if done, the statement's outcome, comes first.
func waitLocked(t *testing.T, s *Store, query string, done chan error) {
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
