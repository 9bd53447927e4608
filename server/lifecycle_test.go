package server_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tapis/server"
	"tapis/store"
	"tapis/store/sqlite"
)

// counting is a store that counts its loads.
type counting struct {
	store.Store
	loads atomic.Int64
}

func (c *counting) Load(ctx context.Context, id string) (store.Saved, error) {
	c.loads.Add(1)
	return c.Store.Load(ctx, id)
}

// status reads a table's status through the API: its code and status.
func status(t *testing.T, h *harness, id string) (int, string) {
	t.Helper()
	resp, err := http.Get(h.hs.URL + "/api/tables/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var in struct{ Status, Code string }
	json.NewDecoder(resp.Body).Decode(&in)
	return resp.StatusCode, in.Status + in.Code
}

func closedAs(t *testing.T, st store.Store, id string) store.Closed {
	t.Helper()
	sv, err := st.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return sv.Closed
}

// Finding 1: a restarted server reads no table's moves until someone
// needs that table, then plays it from where it was.
func TestStartIsLazy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tapis.db")
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, withStore(testConfig(), db))
	var ids []string
	for i := 0; i < 50; i++ {
		ids = append(ids, h.create("cabo", []string{"", "random"}, "Ann", "").Table)
	}
	ann := h.create("cabo", []string{"", "random"}, "Ann", "")
	c := h.dial(ann.Table, ann.Token)
	last, err := playRandom(c, ann.Seat, 1, 6)
	if err != nil {
		t.Fatal(err)
	}
	h.stop()
	db.Close()

	db2, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db2.Close() })
	cs := &counting{Store: db2}
	h2 := newHarness(t, withStore(testConfig(), cs))
	if n := cs.loads.Load(); n != 0 {
		t.Fatalf("the server loaded %d tables at start", n)
	}
	c = h2.dial(ann.Table, ann.Token)
	c.next("welcome")
	if m := c.next("state"); m.N < last.N {
		t.Fatalf("after the restart, move %d; was %d", m.N, last.N)
	}
	if code, st := status(t, h2, ids[7]); code != http.StatusOK || st != "playing" {
		t.Fatalf("another table: %d %s", code, st)
	}
	if n := cs.loads.Load(); n != 2 {
		t.Fatalf("%d tables loaded, want the 2 asked for", n)
	}
}

func withStore(cfg server.Config, st store.Store) server.Config {
	cfg.Store = st
	return cfg
}

// lifeConfig is a server whose tables' times are short.
func lifeConfig(st store.Store) server.Config {
	cfg := withStore(testConfig(), st)
	cfg.IdleTimeout = 50 * time.Millisecond
	cfg.WaitingTTL = 300 * time.Millisecond
	cfg.AbandonAfter = 600 * time.Millisecond
	cfg.SweepEvery = 20 * time.Millisecond
	return cfg
}

// Finding 1: a table waiting for players that nobody comes to expires;
// an unfinished match everyone left is closed as abandoned; both stay in
// the store, closed, and neither comes back after a restart.
func TestWaitingTablesExpireAndLeftMatchesAreAbandoned(t *testing.T) {
	db := sqliteStore(t)
	h := newHarness(t, lifeConfig(db))
	waiting := h.create("cabo", []string{"", ""}, "Ann", "")
	left := h.create("cabo", []string{"", "random"}, "Bob", "")
	c := h.dial(left.Table, left.Token)
	if _, err := playRandom(c, left.Seat, 1, 3); err != nil {
		t.Fatal(err)
	}
	c.ws.CloseNow()
	eventually(t, "expired", func() bool { return closedAs(t, db, waiting.Table) == store.Expired })
	eventually(t, "abandoned", func() bool { return closedAs(t, db, left.Table) == store.Abandoned })
	// A closed table's page says why (issue 26: it was "not found");
	// nobody plays there any more.
	for id, why := range map[string]string{waiting.Table: "expired", left.Table: "abandoned"} {
		if code, got := closedWhy(t, h, id); code != http.StatusOK || got != why {
			t.Fatalf("table %s, closed, answers %d %q, want %q", id, code, got, why)
		}
		if _, err := h.tryDial(id, ""); err == nil {
			t.Fatalf("table %s, closed, opened a socket", id)
		}
		if sv, err := db.Load(context.Background(), id); err != nil || len(sv.Seats) != 2 {
			t.Fatalf("table %s is not kept in the store: %v", id, err)
		}
	}
	// A restart does not bring them back, and a waiting table that
	// expired while the server was down is closed at start.
	late := h.create("cabo", []string{"", ""}, "Cy", "")
	h.stop()
	time.Sleep(350 * time.Millisecond) // longer than WaitingTTL, with the server down
	h2 := newHarness(t, lifeConfig(db))
	if got := closedAs(t, db, late.Table); got != store.Expired {
		t.Fatalf("a table that waited past its time while the server was down is %q", got)
	}
	for id, why := range map[string]string{waiting.Table: "expired", left.Table: "abandoned", late.Table: "expired"} {
		if code, got := closedWhy(t, h2, id); code != http.StatusOK || got != why {
			t.Fatalf("after a restart, closed table %s answers %d %q, want %q", id, code, got, why)
		}
		if _, err := h2.tryDial(id, ""); err == nil {
			t.Fatalf("after a restart, closed table %s opened a socket", id)
		}
	}
}

// closedWhy reads why a table is closed through the API ("" for an open
// one), and the answer's code.
func closedWhy(t *testing.T, h *harness, id string) (int, string) {
	t.Helper()
	var in struct{ Closed string }
	code, _ := h.get("/api/tables/"+id, &in)
	return code, in.Closed
}

// Finding 2: a match nobody is connected to does not play on: its bots
// and stand-ins wait for someone to come back (or watch).
func TestNobodyThereNothingPlays(t *testing.T) {
	cfg := testConfig()
	cfg.AwayAfter = 10 * time.Millisecond
	h := newHarness(t, cfg)
	ann := h.create("cabo", []string{"", "random"}, "Ann", "")
	c := h.dial(ann.Table, ann.Token)
	c.next("state")
	c.ws.CloseNow()
	<-c.done
	// Long enough for a stand-in to have played many moves.
	time.Sleep(300 * time.Millisecond)
	if n := stored(t, h, ann.Table); n > 1 {
		t.Fatalf("%d moves were played with nobody at the table", n)
	}
	// A spectator comes: the stand-in plays for Ann.
	h.dial(ann.Table, "")
	eventually(t, "played for Ann", func() bool { return stored(t, h, ann.Table) > 2 })
}

// Finding 6: a table that cannot be restored (a stored move its game
// refuses, an unknown game) is logged with its id, marked broken in the
// store and skipped; the server starts and serves the others.
func TestBrokenTablesAreSkipped(t *testing.T) {
	db := sqliteStore(t)
	ctx := context.Background()
	now := time.Now()
	seats := []store.Seat{{Name: "Ann", TokenHash: "x"}, {Name: "random", Bot: "random"}}
	for _, tab := range []store.Table{
		{ID: "badmove", Game: "cabo", Players: 2, Options: json.RawMessage(`{}`), Created: now, Seats: seats},
		{ID: "nogame", Game: "chess", Players: 2, Options: json.RawMessage(`{}`), Created: now, Seats: seats},
		{ID: "badseat", Game: "cabo", Players: 2, Options: json.RawMessage(`{}`), Created: now, Seats: seats},
		{ID: "good", Game: "cabo", Players: 2, Options: json.RawMessage(`{}`), Created: now, Seats: seats},
	} {
		if err := db.CreateTable(ctx, tab, &store.Start{No: 1, Seed: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.AppendMove(ctx, "badmove", 1, 0, store.Move{Seat: 0, Move: json.RawMessage(`{"type":"swap"}`)}); err != nil {
		t.Fatal(err)
	}
	// A seat far out of the table would index past the engine's arrays.
	if err := db.AppendMove(ctx, "badseat", 1, 0, store.Move{Seat: 1 << 20, Move: json.RawMessage(`{"type":"peek_initial","slots":[0,1]}`)}); err != nil {
		t.Fatal(err)
	}
	log := &errorLog{}
	cfg := withStore(testConfig(), db)
	cfg.Logger = slog.New(log)
	h := newHarness(t, cfg)
	if code, st := status(t, h, "good"); code != http.StatusOK || st != "playing" {
		t.Fatalf("the good table: %d %s", code, st)
	}
	for _, id := range []string{"badmove", "badseat", "nogame"} {
		// One is found broken when it is loaded, the other at start.
		if code, st := status(t, h, id); code != http.StatusNotFound || (st != "broken" && st != "no_table") {
			t.Fatalf("broken table %s: %d %s", id, code, st)
		}
		if got := closedAs(t, db, id); got != store.Broken {
			t.Fatalf("table %s is %q in the store, want broken", id, got)
		}
		if !strings.Contains(strings.Join(log.records(), "\n"), id) {
			t.Fatalf("the log does not name %s: %v", id, log.records())
		}
	}
}

// Finding 1: restore applies the per-client limit on waiting tables: past
// it, a client's extra waiting tables are expired at start.
func TestRestoreAppliesTheWaitingLimit(t *testing.T) {
	db := sqliteStore(t)
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		tab := store.Table{ID: "w" + string(rune('a'+i)), Game: "cabo", Players: 2, Options: json.RawMessage(`{}`), Created: time.Now(),
			Seats: []store.Seat{{Name: "Ann", TokenHash: "x"}, {}}, Creator: "127.0.0.9"}
		if err := db.CreateTable(ctx, tab, nil); err != nil {
			t.Fatal(err)
		}
	}
	cfg := withStore(testConfig(), db)
	cfg.Limits.Waiting = 3
	newHarness(t, cfg)
	expired := 0
	for i := 0; i < 5; i++ {
		if closedAs(t, db, "w"+string(rune('a'+i))) == store.Expired {
			expired++
		}
	}
	if expired != 2 {
		t.Fatalf("%d of 5 waiting tables of one client expired at start, want 2 (the limit is 3)", expired)
	}
}
