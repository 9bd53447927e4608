package table

import (
	"context"
	"database/sql"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/clocktest"
	"tapis/store"
	"tapis/store/sqlite"
	"tapis/table/tableset"
)

// A deadline is kept across a restart: the server stops while the table
// sleeps with Ann due, the clock passes her deadline while it is down,
// and the server started again on the same database makes the move for
// her, once, then waits for her next one with a fresh deadline.
func TestTurnBasedDeadlineAcrossRestart(t *testing.T) {
	open := reopener(t)
	clk := clocktest.New(time.Unix(2_000_000_000, 0))
	st := open()
	d := newDaysHost(t, st, clk, nil)
	ann := d.create(map[string]any{"turn_based": true, "turn_seconds": 3600})
	id, seat := ann.Table, ann.Seat
	c := d.waitsFor(id, seat)
	d.stop()
	st.Close()

	clk.Set(c.Deadline.Add(time.Minute))
	d = newDaysHost(t, open(), clk, nil)
	until(t, "the move made for Ann after the restart", func() bool { return d.movesBy(id, seat) > 0 })
	c = d.waitsFor(id, seat)
	if n := d.movesBy(id, seat); n != 1 || c.Timeouts[seat] != 1 || !c.Deadline.Equal(c.Due[seat].Add(time.Hour)) || !c.Due[seat].Equal(clk.Now()) {
		t.Fatalf("after the restart: %d moves made for Ann (want 1), clock %+v at %v", n, c, clk.Now())
	}
	// Looked for again, the passed deadline is not played twice.
	d.s.wakeNow()
	if c2 := d.waitsFor(id, seat); c2.N != c.N || d.movesBy(id, seat) != 1 {
		t.Fatalf("woken again: %+v, %d moves for Ann", c2, d.movesBy(id, seat))
	}
}

// reopener returns a function that opens the same SQLite database each
// time, a new one for the test, closed when the test ends: a server's
// restart.
func reopener(t *testing.T) func() store.Store {
	return reopenerAt(t, filepath.Join(t.TempDir(), "tapis.db"))
}

// reopenerAt is reopener for the database at path.
func reopenerAt(t *testing.T, path string) func() store.Store {
	return func() store.Store {
		st, err := sqlite.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
}

// A bot's turn is a deadline too: a server stopped while a bot of a
// turn-based table was choosing its move (it takes an hour here) leaves
// the table due at once, and the server started again wakes it, the bot
// moves, and the table sleeps again waiting for Ann.
func TestTurnBasedBotTurnAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tapis.db")
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	clk := clocktest.New(time.Unix(2_000_000_000, 0))
	d := newDaysHost(t, st, clk, func(c *Config) { c.BotDelay = time.Hour })
	ann := d.create(map[string]any{"turn_based": true})
	bot := 1 - ann.Seat
	until(t, "the bot due at once", func() bool {
		c := d.clock(ann.Table)
		return c.Match == 1 && !c.Due[bot].IsZero() && c.Deadline.Equal(c.Due[bot])
	})
	d.stop()
	st.Close()
	if st, err = sqlite.Open(path); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d.st = st
	if d.movesBy(ann.Table, bot) != 0 {
		t.Fatal("the bot moved before the restart")
	}
	d = newDaysHost(t, st, clk, nil)
	d.waitsFor(ann.Table, ann.Seat)
	if n := d.movesBy(ann.Table, bot); n != 1 {
		t.Fatalf("after the restart the bot made %d moves, want 1", n)
	}
}

// A sleeping turn-based table wakes for a move over HTTP, which is
// played and answered, and for a socket, which finds its seat's state;
// it goes back to sleep when they are done. GET /api/me/turns lists it
// asleep where it is Ann's turn, with her deadline.
func TestTurnBasedWakes(t *testing.T) {
	clk := clocktest.New(time.Unix(2_000_000_000, 0))
	d := newDaysHost(t, store.NewMemory(), clk, nil)
	ann := d.create(map[string]any{"turn_based": true})
	id, seat := ann.Table, ann.Seat
	c := d.waitsFor(id, seat)

	var turns struct{ Turns []Turn }
	if code := d.do("GET", "/api/me/turns", "ann", nil, &turns); code != http.StatusOK || len(turns.Turns) != 1 {
		t.Fatalf("Ann's turns: %d %+v", code, turns)
	}
	if tu := turns.Turns[0]; tu.Table != id || int(tu.Seat) != seat || tu.N != c.N || tu.Deadline == nil || !tu.Deadline.Equal(c.Deadline) {
		t.Fatalf("Ann's turn at the sleeping table: %+v, its clock %+v", tu, c)
	}
	if d.at(id) != tableset.Dormant {
		t.Fatalf("listing the turns woke the table: %v", d.at(id))
	}

	// By a move over HTTP with the seat's token: its state read first
	// wakes the table too, which goes back to sleep.
	var st stateMsg
	if code := d.do("GET", "/api/tables/"+id+"/state?token="+ann.Token, "", nil, &st); code != http.StatusOK || st.N != c.N {
		t.Fatalf("Ann's state: %d %+v", code, st)
	}
	d.waitsFor(id, seat)
	moves := d.movesBy(id, seat)
	code := d.do("POST", "/api/tables/"+id+"/moves?token="+ann.Token, "", map[string]any{"n": c.N, "move": st.Legal[0]}, &st)
	if code != http.StatusOK || st.Type != "state" || st.N != c.N+1 || d.movesBy(id, seat) != moves+1 {
		t.Fatalf("a move to the sleeping table: %d %+v, %d moves stored", code, st, d.movesBy(id, seat))
	}
	c = d.waitsFor(id, seat)

	// By a socket.
	srv := httptest.NewServer(d.h)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/tables/"+id+"/ws?token="+ann.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	for seen := ""; !strings.Contains(seen, `"type":"state"`); {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		seen = string(b)
	}
	if r := d.at(id); r != tableset.Loaded {
		t.Fatalf("with Ann's socket open the table is %v", r)
	}
	ws.Close(websocket.StatusNormalClosure, "")
	if c2 := d.waitsFor(id, seat); !c2.Deadline.Equal(c.Deadline) {
		t.Fatalf("a visit moved Ann's deadline from %v to %v", c.Deadline, c2.Deadline)
	}
}

// Ten thousand idle turn-based tables cost their server no goroutine
// each and little memory: made, played to their person's turn and put
// to sleep, they leave the goroutine count where it was, and the heap
// grows by the store's rows (a memory store here) and a summary each.
func TestTurnBasedIdleTablesCostNothing(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	clk := clocktest.New(time.Unix(2_000_000_000, 0))
	d := newDaysHost(t, store.NewMemory(), clk, func(c *Config) { c.MaxTables = 2 * n })
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	// One table first, so that what every table shares (the games'
	// tables, the pools) is counted before.
	first := d.create(map[string]any{"turn_based": true})
	d.waitsFor(first.Table, first.Seat)
	g0, h0 := runtime.NumGoroutine(), heap()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = d.create(map[string]any{"turn_based": true}).Table
	}
	var loaded, dormant int
	defer func() {
		if t.Failed() {
			t.Logf("%d tables loaded, %d dormant", loaded, dormant)
		}
	}()
	until(t, "every table asleep", func() bool {
		loaded, dormant = d.s.tables.Count()
		return loaded == 0 && dormant == n+1
	})
	// A table is counted asleep before its goroutine has returned: the
	// last of them may still be ending (CI met 33 of 10,000 so). A
	// goroutine kept per table never ends, and the wait fails.
	g1 := runtime.NumGoroutine()
	defer func() {
		if t.Failed() {
			t.Logf("goroutines %d before, %d after", g0, g1)
		}
	}()
	until(t, "the sleeping tables' goroutines to end", func() bool {
		g1 = runtime.NumGoroutine()
		return g1 <= g0+5
	})
	h1 := heap()
	per := (int64(h1) - int64(h0)) / int64(n)
	t.Logf("%d idle turn-based tables: goroutines %d before, %d after; heap %d KB before, %d KB after, %d bytes a table (store rows included)",
		n, g0, g1, h0>>10, h1>>10, per)
	if per > 16<<10 {
		t.Errorf("%d bytes a sleeping table, store included: want under 16 KB", per)
	}
}

// A turn-based table whose first clock was not written (the server
// stopped between the table and its clock) is still turn-based after the
// restart, as its time per move says: its clock is written again, and
// no stand-in plays for the absent Ann.
func TestTurnBasedWithoutItsClock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tapis.db")
	open := reopenerAt(t, path)
	clk := clocktest.New(time.Unix(2_000_000_000, 0))
	st := open()
	d := newDaysHost(t, st, clk, nil)
	ann := d.create(map[string]any{"turn_based": true, "turn_seconds": 7200})
	id, seat := ann.Table, ann.Seat
	d.waitsFor(id, seat)
	d.stop()
	st.Close()
	// The crash's effect: the clock's row is not there.
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM tapis_clocks`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	d = newDaysHost(t, open(), clk, nil)
	var in struct {
		TurnBased   bool `json:"turn_based"`
		TurnSeconds int  `json:"turn_seconds"`
	}
	if code := d.do("GET", "/api/tables/"+id, "", nil, &in); code != http.StatusOK || !in.TurnBased || in.TurnSeconds != 7200 {
		t.Fatalf("after the restart without its clock the table reads %d %+v, want turn-based, 7200 s", code, in)
	}
	c := d.waitsFor(id, seat)
	if !c.Deadline.Equal(clk.Now().Add(2 * time.Hour)) {
		t.Fatalf("the clock written again: %+v, want Ann's deadline two hours from %v", c, clk.Now())
	}
	if n := d.movesBy(id, seat); n != 0 {
		t.Fatalf("%d moves made for the absent Ann before her time ran out", n)
	}
}
