package server_test

import (
	"context"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"tapis/cluster"
	"tapis/cluster/natstest"
	"tapis/game"
	"tapis/games"
	"tapis/store"
)

// ratedInStore writes a rated Cabo table of one player, p1, against a
// random bot, last active at active, with its match's first n moves (all
// of them, and no end, if n < 0: a crash after the last move).
func ratedInStore(t *testing.T, st store.Store, id string, active time.Time, n int) {
	t.Helper()
	ctx := context.Background()
	seats := []store.Seat{{Name: "Ada", TokenHash: "h1", Player: "p1"}, {Name: "random", Bot: "random"}}
	err := st.CreateTable(ctx, store.Table{ID: id, Game: "cabo", Players: 2, Seats: seats, Host: 0, Rated: true,
		TurnTime: time.Minute, Created: active, Active: active}, &store.Start{No: 1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	g := games.Named("cabo")
	s, err := g.New(game.Config{Players: 2, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i != n && !s.Over(); i++ {
		seat := s.ToMove().First()
		legal := s.Legal(seat, nil)
		m := legal[rng.IntN(len(legal))]
		if err := s.Apply(seat, m, nil); err != nil {
			t.Fatal(err)
		}
		js, err := g.MarshalMove(m)
		if err == nil {
			err = st.AppendMove(ctx, id, 1, i, store.Move{Seat: int(seat), Move: js})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Touch(ctx, id, active); err != nil {
		t.Fatal(err)
	}
}

// Findings 7 and 8 on a cluster: the node that holds, or can take, a
// table's lease rates the rated match abandoned there (the leaver last)
// and marks over a match that ended before a crash; a table another node
// holds is left to that node.
func TestClusterOwnerRatesLeaversAndMarksEnds(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	long := time.Now().Add(-time.Hour)
	ratedInStore(t, st, "left", long, 6)   // abandoned: nodeA rates it
	ratedInStore(t, st, "theirs", long, 6) // abandoned, but nodeB holds it
	ratedInStore(t, st, "ended", time.Now(), -1)
	if _, err := st.Acquire(ctx, "theirs", "nodeB", time.Minute); err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(natstest.Start(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	cfg := lifeConfig(st)
	cfg.Cluster, cfg.Leases = cluster.New(nc, "nodeA"), st
	h := newHarness(t, cfg)

	eventually(t, "the left table abandoned", func() bool { return closedAs(t, st, "left") == store.Abandoned })
	rows, err := st.MatchResults(ctx, "left", 1)
	if err != nil || len(rows) != 2 || rows[0].Player != "p1" || rows[0].Rank != 2 || rows[1].Rank >= 2 {
		t.Fatalf("the abandoned match's results: %+v %v; want p1 last (rank 2)", rows, err)
	}
	if got := closedAs(t, st, "theirs"); got != store.NotClosed {
		t.Fatalf("nodeA closed a table nodeB holds, as %q", got)
	}
	if rows, _ := st.MatchResults(ctx, "theirs", 1); len(rows) != 0 {
		t.Fatalf("nodeA rated a table nodeB holds: %+v", rows)
	}

	h.person().must(http.StatusOK, "GET", "/api/tables/ended/replay", nil, nil)
	sv, err := st.Load(ctx, "ended")
	if err != nil || sv.Match == nil || !sv.Match.Over {
		t.Fatalf("the ended match is not marked over: %+v %v", sv.Match, err)
	}
	if rows, err := st.MatchResults(ctx, "ended", 1); err != nil || len(rows) != 2 {
		t.Fatalf("the ended match's results: %+v %v", rows, err)
	}
}
