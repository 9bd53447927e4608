package server_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"tapis/cluster"
	"tapis/cluster/natstest"
	"tapis/store"
)

// A turn-based table's deadline in a cluster (issue 29): the table sleeps
// in the store the nodes share, its deadline passes, both nodes look for
// the tables due, and one of them (the first to take its lease) wakes it:
// the move is made for Ann once, and her next time starts.
func TestClusterTurnBasedDeadlineOnce(t *testing.T) {
	st := store.NewMemory()
	url := natstest.Start(t)
	var mu sync.Mutex
	now := time.Unix(2_000_000_000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	node := func(name string) *harness {
		nc, err := nats.Connect(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		cfg := lifeConfig(st)
		cfg.Cluster, cfg.Leases, cfg.Now = cluster.New(nc, name), st, clock
		return newHarness(t, cfg)
	}
	a, _ := node("nodeA"), node("nodeB")
	var ann seatResp
	req := map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "Ann", "turn_based": true}
	if code := a.post("/api/tables", req, &ann); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	clockOf := func() store.Clock {
		c, ok, err := st.Clock(context.Background(), ann.Table)
		if err != nil || !ok {
			t.Fatalf("the clock: %v %v", ok, err)
		}
		return c
	}
	annDue := func(c store.Clock) bool {
		return c.Match == 1 && !c.Due[ann.Seat].IsZero() && c.Deadline.Equal(c.Due[ann.Seat].Add(24*time.Hour))
	}
	var c store.Clock
	eventually(t, "Ann due, the bot done", func() bool { c = clockOf(); return annDue(c) })
	before := movesBy(storedMoves(t, a, ann.Table), ann.Seat)

	mu.Lock()
	now = c.Deadline.Add(time.Minute)
	mu.Unlock()
	var after store.Clock
	eventually(t, "the move made for Ann and her next time begun", func() bool {
		after = clockOf()
		return after.N > c.N && annDue(after) && after.Due[ann.Seat].Equal(clock())
	})
	if n := movesBy(storedMoves(t, a, ann.Table), ann.Seat); n != before+1 || after.Timeouts[ann.Seat] != 1 {
		t.Fatalf("after her deadline, %d moves made for Ann (want %d), timeouts %v", n, before+1, after.Timeouts)
	}
}
