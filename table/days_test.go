package table

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"tapis/clocktest"
	"tapis/store"
	"tapis/table/tableset"
)

// headerIdentity signs a request in as the player its X-Player header
// names, with that username: a rated table takes them.
type headerIdentity struct{}

func (headerIdentity) Current(r *http.Request) (store.Player, bool) {
	id := r.Header.Get("X-Player")
	return store.Player{ID: id, Name: id, Username: id}, id != ""
}

// daysHost is a host of turn-based tables under test: on st, its clocks
// at clk, its tables asleep 20 ms after they are quiet and their
// deadlines looked for every 5 ms, unless edit changes its configuration.
// stop stops it and waits for its
// tables (a restart's first half).
type daysHost struct {
	t    testing.TB
	s    *Host
	h    http.Handler
	st   store.Store
	stop func()
}

// Each of also runs on the host before it starts (UseNotifier).
func newDaysHost(t testing.TB, st store.Store, clk *clocktest.Clock, edit func(*Config), also ...func(*Host)) *daysHost {
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{Store: st, Guard: openGuard{}, BotDelay: -1, IdleTimeout: 20 * time.Millisecond,
		SweepEvery: 5 * time.Millisecond, Now: clk.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if edit != nil {
		edit(&cfg)
	}
	s, err := New(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	for _, f := range also {
		f(s)
	}
	m := http.NewServeMux()
	s.Routes(m)
	if err := s.Start(headerIdentity{}, m); err != nil {
		cancel()
		t.Fatal(err)
	}
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); s.Wait() }) }
	t.Cleanup(stop)
	return &daysHost{t: t, s: s, h: m, st: st, stop: stop}
}

// do sends a request as player (none if ""), decodes the answer into out
// (unless nil) and returns its status.
func (d *daysHost) do(method, path, player string, body, out any) int {
	d.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("Content-Type", "application/json")
	if player != "" {
		req.Header.Set("X-Player", player)
	}
	rec := httptest.NewRecorder()
	d.h.ServeHTTP(rec, req)
	if out != nil {
		json.Unmarshal(rec.Body.Bytes(), out)
	}
	return rec.Code
}

// created is a creation's answer.
type created struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	Token string `json:"token"`
	Code  string `json:"code"`
}

// create makes a Cabo table of Ann against a random bot with the request
// req adds to, and returns its answer.
func (d *daysHost) create(req map[string]any) created {
	d.t.Helper()
	body := map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "Ann"}
	for k, v := range req {
		body[k] = v
	}
	var c created
	if code := d.do("POST", "/api/tables", "ann", body, &c); code != http.StatusCreated {
		d.t.Fatalf("create %v: %d %+v", req, code, c)
	}
	return c
}

// at returns where table id is on the host.
func (d *daysHost) at(id string) tableset.Residence {
	d.s.tables.Lock()
	defer d.s.tables.Unlock()
	return d.s.tables.At(id)
}

// until waits for cond, checked every millisecond, failing the test after
// a minute: a condition, not a time, is waited for.
func until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

// clock returns table id's clock in the store.
func (d *daysHost) clock(id string) store.Clock {
	d.t.Helper()
	c, ok, err := d.st.Clock(context.Background(), id)
	if err != nil || !ok {
		d.t.Fatalf("the clock of %s: %v %v", id, ok, err)
	}
	return c
}

// movesBy returns how many moves of table id's match seat made, as stored.
func (d *daysHost) movesBy(id string, seat int) int {
	d.t.Helper()
	sv, err := d.st.Load(context.Background(), id)
	if err != nil {
		d.t.Fatal(err)
	}
	n := 0
	if sv.Match != nil {
		for _, m := range sv.Match.Moves {
			if m.Seat == seat {
				n++
			}
		}
	}
	return n
}

// waitsFor waits until table id is asleep with the person at seat due to
// act and nothing else to play, and returns its clock.
func (d *daysHost) waitsFor(id string, seat int) store.Clock {
	d.t.Helper()
	var c store.Clock
	until(d.t, "the table asleep, waiting for seat "+string(rune('0'+seat)), func() bool {
		c = d.clock(id)
		return d.at(id) == tableset.Dormant && !c.Due[seat].IsZero() && c.Deadline.Equal(c.Due[seat].Add(c.Turn))
	})
	return c
}

// A turn-based table is asked for with its pace: a time per move of an
// hour to a week, a day if left out, refused outside with the code and a
// clear reason; the table says it is turn-based, and the store has its
// clock. A real-time table keeps its bounds, and has no clock.
func TestTurnBasedCreation(t *testing.T) {
	d := newDaysHost(t, store.NewMemory(), clocktest.New(time.Unix(2_000_000_000, 0)), nil)
	day := d.create(map[string]any{"turn_based": true})
	var info struct {
		TurnBased   bool `json:"turn_based"`
		TurnSeconds int  `json:"turn_seconds"`
	}
	if code := d.do("GET", "/api/tables/"+day.Table, "", nil, &info); code != http.StatusOK || !info.TurnBased || info.TurnSeconds != 86400 {
		t.Fatalf("a turn-based table by default: %d %+v, want turn-based, 86400 s a move", code, info)
	}
	if c := d.clock(day.Table); c.Turn != 24*time.Hour {
		t.Fatalf("its clock: %+v", c)
	}
	for _, s := range []int{3600, 604800} {
		d.create(map[string]any{"turn_based": true, "turn_seconds": s})
	}
	for _, s := range []int{0, 3599, 604801, 60} {
		var r struct{ Code, Error string }
		body := map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "Ann", "turn_based": true, "turn_seconds": s}
		if code := d.do("POST", "/api/tables", "", body, &r); code != http.StatusBadRequest || r.Code != "bad_turn_seconds" || !bytes.Contains([]byte(r.Error), []byte("604800 (7 days)")) {
			t.Errorf("turn-based with turn_seconds %d: %d %+v", s, code, r)
		}
	}
	var r struct{ Code string }
	body := map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "Ann", "turn_seconds": 3600}
	if code := d.do("POST", "/api/tables", "", body, &r); code != http.StatusBadRequest || r.Code != "bad_turn_seconds" {
		t.Errorf("real time with an hour a move: %d %+v", code, r)
	}
	rt := d.create(map[string]any{"turn_seconds": 60})
	if _, ok, err := d.st.Clock(context.Background(), rt.Table); ok || err != nil {
		t.Errorf("a real-time table has a clock: %v %v", ok, err)
	}
	var rtInfo struct {
		TurnBased bool `json:"turn_based"`
	}
	if code := d.do("GET", "/api/tables/"+rt.Table, "", nil, &rtInfo); code != http.StatusOK || rtInfo.TurnBased {
		t.Errorf("a real-time table: %d %+v", code, rtInfo)
	}
}

// stateMsg is the part of a seat's state the tests read.
type stateMsg struct {
	Type  string            `json:"type"`
	N     int               `json:"n"`
	Legal []json.RawMessage `json:"legal"`
}

// timeOut moves the clock past table id's deadline c, and waits until
// the stand-in has made the move for the person at seat and the table is
// asleep again, waiting for someone; it returns the clock then.
func (d *daysHost) timeOut(clk *clocktest.Clock, id string, seat int, c store.Clock) store.Clock {
	d.t.Helper()
	before := d.movesBy(id, seat)
	clk.Set(c.Deadline.Add(time.Second))
	var after store.Clock
	until(d.t, "the move made for the seat out of time", func() bool {
		after = d.clock(id)
		return after.N > c.N && d.movesBy(id, seat) > before
	})
	return after
}

// The timeout rule of a turn-based table: nothing plays for Ann while
// her time runs, however long; when it is up the stand-in makes that one
// move, once, and her next time starts; a move of her own clears her
// timeouts; the third timeout in a row gives her seat to a bot, and at a
// rated table she ranks last when the match ends. Between moves the
// table sleeps in the store.
func TestTurnBasedTimeouts(t *testing.T) {
	clk := clocktest.New(time.Unix(2_000_000_000, 0))
	d := newDaysHost(t, store.NewMemory(), clk, nil)
	ann := d.create(map[string]any{"turn_based": true, "rated": true})
	id, seat := ann.Table, ann.Seat

	c := d.waitsFor(id, seat)
	if !c.Deadline.Equal(clk.Now().Add(24 * time.Hour)) {
		t.Fatalf("Ann's deadline is %v, want a day after %v", c.Deadline, clk.Now())
	}
	// Just before her time is up, nothing is played for her.
	clk.Set(c.Deadline.Add(-time.Second))
	d.s.wakeNow()
	if n := d.movesBy(id, seat); n != 0 || d.at(id) != tableset.Dormant {
		t.Fatalf("before her deadline: %d moves made for Ann, the table %v", n, d.at(id))
	}

	// One timeout: the stand-in's one move.
	c = d.timeOut(clk, id, seat, c)
	if d.movesBy(id, seat) != 1 || c.Timeouts[seat] != 1 {
		t.Fatalf("after a timeout: %d moves for Ann, timeouts %v", d.movesBy(id, seat), c.Timeouts)
	}
	c = d.waitsFor(id, seat)
	if d.movesBy(id, seat) != 1 || !c.Deadline.After(clk.Now()) {
		t.Fatalf("after a timeout: %d moves for Ann (want 1), her next deadline %v", d.movesBy(id, seat), c.Deadline)
	}

	// Her own move, over HTTP with her session, clears the count.
	var st stateMsg
	if code := d.do("GET", "/api/tables/"+id+"/state", "ann", nil, &st); code != http.StatusOK {
		t.Fatalf("Ann's state: %d", code)
	}
	if code := d.do("POST", "/api/tables/"+id+"/moves", "ann", map[string]any{"n": st.N, "move": st.Legal[0]}, &st); code != http.StatusOK {
		t.Fatalf("Ann's move: %d %+v", code, st)
	}
	c = d.waitsFor(id, seat)
	if c.Timeouts[seat] != 0 {
		t.Fatalf("after her own move, Ann's timeouts: %v", c.Timeouts)
	}

	// Three timeouts in a row: the seat is a bot's, her name and id
	// kept, and the match plays on to its end without her.
	for i := 1; i <= timeoutsOut; i++ {
		c = d.timeOut(clk, id, seat, c)
		if i < timeoutsOut {
			if c.Timeouts[seat] != i {
				t.Fatalf("timeout %d: the count is %v", i, c.Timeouts)
			}
			c = d.waitsFor(id, seat)
		}
	}
	var sv store.Saved
	until(t, "the match over, played by bots", func() bool {
		var err error
		sv, err = d.st.Load(context.Background(), id)
		return err == nil && sv.Match.Over
	})
	if s := sv.Seats[seat]; s.Bot != standInLevel || s.Player != "ann" || s.Name != "ann" {
		t.Fatalf("Ann's seat after three timeouts: %+v", s)
	}
	res, err := d.st.MatchResults(context.Background(), id, 1)
	if err != nil || len(res) != 2 {
		t.Fatalf("rated results: %+v %v", res, err)
	}
	for _, r := range res {
		if r.Seat == seat && (r.Player != "ann" || r.Rank != 2) {
			t.Fatalf("Ann's rated result: %+v, want last (2)", r)
		}
	}
}
