package server_test

import (
	"path/filepath"
	"testing"

	"tapis/game"
	"tapis/store"
	"tapis/store/sqlite"
)

// A server killed mid-game (its store closed without any shutdown, its
// goroutines abandoned) is replaced by a new one on the same database: the
// table comes back at the same move, the players' tokens seat them again
// with their view, and the game is finished.
func TestRestartMidGame(t *testing.T) {
	open := reopener(t)
	cfg := testConfig()
	cfg.Store = open()
	h1 := newHarness(t, cfg)
	a := h1.create("cabo", []string{"", "", "random"}, "Ann", "")
	b := h1.join(a.Table, "Bob")
	waiting := h1.create("cabo", []string{"", "", "random"}, "Cid", "")
	ca, cb := h1.dial(a.Table, a.Token), h1.dial(a.Table, b.Token)
	errs := make(chan error, 1)
	go func() {
		_, err := playRandom(ca, a.Seat, 1, 12)
		errs <- err
	}()
	last, err := playRandom(cb, b.Seat, 2, 12)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if last.Status != "playing" {
		t.Fatalf("the game ended before the crash (%d moves)", last.N)
	}
	// The crash: the database is closed under the server's feet, then the
	// server disappears.
	cfg.Store.Close()
	h1.stop()

	cfg2 := testConfig()
	cfg2.Store = open()
	t.Cleanup(func() { cfg2.Store.Close() })
	h2 := newHarness(t, cfg2)
	if _, err := h2.tryDial(a.Table, "not-a-token"); err == nil {
		t.Fatal("a made-up token was seated")
	}
	ca, cb = h2.dial(a.Table, a.Token), h2.dial(a.Table, b.Token)
	for _, c := range []struct {
		cl   *client
		seat game.Seat
	}{{ca, a.Seat}, {cb, b.Seat}} {
		w := c.cl.next("welcome")
		if w.Seat != c.seat || len(w.History) == 0 {
			t.Fatalf("after the restart: welcomed as seat %d with %d events", w.Seat, len(w.History))
		}
		if s := c.cl.next("state"); s.N < last.N || s.Status != "playing" {
			t.Fatalf("after the restart: at move %d (%s), was at %d", s.N, s.Status, last.N)
		}
	}
	// Put the states just read back in front, so the players act on them.
	ca, cb = h2.dial(a.Table, a.Token), h2.dial(a.Table, b.Token)
	go func() {
		_, err := playRandom(ca, a.Seat, 3, 1<<30)
		errs <- err
	}()
	end, err := playRandom(cb, b.Seat, 4, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if end.Status != "over" || len(end.Result.Winners) == 0 {
		t.Fatalf("the restored game ended as %+v", end)
	}
	sh := replayMatch(t, h2, a.Table)
	if !sh.states[len(sh.states)-1].Over() {
		t.Fatal("the stored game is not over")
	}
	// The table that was still waiting for a guest is back too.
	c := h2.join(waiting.Table, "Dee")
	cc := h2.dial(waiting.Table, c.Token)
	if w := cc.next("welcome"); w.Seat != 1 || w.Table.Status != "playing" {
		t.Fatalf("the waiting table came back as %+v", w)
	}
}

// reopener returns a function that opens one SQLite database of the test
// anew each time: a server's database before and after a crash.
func reopener(t *testing.T) func() store.Store {
	path := filepath.Join(t.TempDir(), "tapis.db")
	return func() store.Store {
		st, err := sqlite.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
}
