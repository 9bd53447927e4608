package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"tapis/cluster"
	"tapis/cluster/natstest"
	"tapis/store"
)

// A node of a cluster closes a table whose time is up only if it can hold
// the table's lease, and only as the store has the table now: a table
// another node holds is in play there, and one another node played since
// this node read it is not due, whatever this node remembered of it.
func TestClusterNodeClosesOnlyWhatItHolds(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	now := time.Now()
	table := func(id string, active time.Time) {
		t.Helper()
		err := st.CreateTable(ctx, store.Table{ID: id, Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}, Host: -1,
			Created: active, Active: active}, nil)
		if err != nil {
			t.Fatal(err)
		}
	}
	table("held", now.Add(-time.Hour)) // due at start, but another node plays it
	table("free", now)                 // comes due while the node runs
	table("stale", now)                // comes due as the node read it, but was played since
	if _, err := st.Acquire(ctx, "held", "nodeB", time.Minute); err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(natstest.Start(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	cfg := lifeConfig(st)
	cfg.Cluster, cfg.Leases = cluster.New(nc, "nodeA"), st
	newHarness(t, cfg)
	// Another node played "stale" after this one read it.
	if err := st.Touch(ctx, "stale", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the free table to expire", func() bool { return closedAs(t, st, "free") == store.Expired })
	for _, id := range []string{"held", "stale"} {
		if got := closedAs(t, st, id); got != store.NotClosed {
			t.Fatalf("table %s was closed as %q by a node that should have left it", id, got)
		}
	}
}
