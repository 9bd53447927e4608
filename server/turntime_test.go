package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"tapis/game"
	"tapis/store"
	"tapis/store/sqlite"
)

// left returns the milliseconds seat s has left in a state message, and
// whether the message gives any.
func (m infoMsg) left(s game.Seat) (int64, bool) {
	ms, ok := m.TurnLeft[strconv.Itoa(int(s))]
	return ms, ok
}

// standin reports whether a "welcome" or "table" message shows a stand-in
// at seat s.
func (m infoMsg) standin(s game.Seat) bool {
	return (m.Type == "welcome" || m.Type == "table") && int(s) < len(m.Table.Seats) && m.Table.Seats[s].Standin
}

// createTurn makes a Cabo table for Ann against a random bot with a time
// per move of turn units.
func createTurn(t *testing.T, h *harness, turn any) seatResp {
	t.Helper()
	var r seatResp
	req := map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "Ann", "turn_seconds": turn}
	if code := h.post("/api/tables", req, &r); code != http.StatusCreated {
		t.Fatalf("create with turn_seconds %v: status %d", turn, code)
	}
	return r
}

// turnHarness starts a server on which one unit of turn_seconds is unit.
func turnHarness(t *testing.T, unit time.Duration) *harness {
	t.Helper()
	cfg := testConfig()
	cfg.TurnUnit = unit
	return newHarness(t, cfg)
}

// annTimed seats Ann, connected, at a Cabo table against a random bot
// with a time per move of 10 units.
func annTimed(t *testing.T, unit time.Duration) (*harness, seatResp, *client) {
	t.Helper()
	h := turnHarness(t, unit)
	a := createTurn(t, h, 10)
	return h, a, h.dial(a.Table, a.Token)
}

// A connected player who does not move is played for once the time per
// move is up: the state told her how long she had, a stand-in is shown
// and makes one move for her, which is stored, then the seat is hers
// again with a fresh time, and nothing more is played for her until it
// is up again.
func TestTurnTimePlaysForIdle(t *testing.T) {
	// A second's turn: on a loaded machine (CI) a state has reached the
	// test 100 ms after the server sent it, and the check below allows
	// half the turn for that.
	const unit = 100 * time.Millisecond
	const turn = 10 * unit // turn_seconds 10
	h, a, c := annTimed(t, unit)
	if w := c.watch("welcome", func(m infoMsg) bool { return m.Type == "welcome" }); w.Table.TurnSeconds != 10 {
		t.Fatalf("the table's turn_seconds: %d, want 10", w.Table.TurnSeconds)
	}
	due := c.watch("Ann's turn", func(m infoMsg) bool { return m.Type == "state" && slices.Contains(m.ToMove, a.Seat) })
	dueAt := time.Now()
	if ms, ok := due.left(a.Seat); !ok || ms <= 0 || ms > turn.Milliseconds() {
		t.Fatalf("Ann must act, and the state gives her %v (%d ms), want 0 < ms <= %d", due.TurnLeft, ms, turn.Milliseconds())
	}
	if _, ok := due.left(1 - a.Seat); ok {
		t.Fatalf("the bot's seat is on the clock: %v", due.TurnLeft)
	}
	c.watch("a stand-in for Ann", func(m infoMsg) bool {
		if m.Type == "state" && m.By == a.Seat {
			t.Fatalf("move %d was made for Ann before a stand-in was shown", m.N)
		}
		return m.standin(a.Seat)
	})
	// The test's clock starts when the state reaches it, the server's
	// when it sent it: on a loaded machine the state may come 100 ms
	// late and more. Half the time allows that, and still fails a
	// stand-in seated at the turn's start or a little after.
	if since := time.Since(dueAt); since < turn/2 {
		t.Fatalf("a stand-in was seated for Ann %v after her turn began, before her time (%v) was up", since, turn)
	}
	// The stand-in goes as its move is made (the table message comes
	// first): the seat is Ann's again.
	c.watch("the stand-in gone", func(m infoMsg) bool { return m.Type == "table" && !m.standin(a.Seat) })
	played := c.watch("the move made for Ann", func(m infoMsg) bool { return m.Type == "state" })
	if played.By != a.Seat || played.N <= due.N {
		t.Fatalf("the stand-in's move is %+v; Ann's turn began at %d", played, due.N)
	}
	moves := storedMoves(t, h, a.Table)
	if movesBy(moves, a.Seat) != 1 || moves[played.N-1].Seat != int(a.Seat) {
		t.Fatalf("stored moves: %+v; want the one made for Ann as move %d", moves, played.N-1)
	}
	// Her next decision has a fresh time, and she can make it herself.
	next := played
	if !slices.Contains(next.ToMove, a.Seat) {
		next = c.watch("Ann's next turn", func(m infoMsg) bool {
			if m.standin(a.Seat) {
				t.Fatal("a stand-in for Ann before her next turn")
			}
			return m.Type == "state" && slices.Contains(m.ToMove, a.Seat)
		})
	}
	if ms, ok := next.left(a.Seat); !ok || ms <= turn.Milliseconds()/2 {
		t.Fatalf("Ann's next turn gives her %v, want a fresh %v", next.TurnLeft, turn)
	}
	c.send(map[string]any{"type": "move", "move": next.Legal[0]})
	mine := c.watch("Ann's own move", func(m infoMsg) bool { return m.Type == "state" || m.Type == "error" || m.standin(a.Seat) })
	if mine.Type != "state" || mine.By != a.Seat || mine.N != next.N+1 {
		t.Fatalf("Ann's own move came back as %+v (she moved at %d)", mine, next.N)
	}
}

// A player who always moves in time is never played for, even when she
// takes half her time, and every state that has her to act tells her how
// long she has.
func TestTurnTimeInTime(t *testing.T) {
	// Ann answers in half her time: a unit large enough that a loaded
	// machine's delays never eat the other half.
	const unit = 100 * time.Millisecond
	const turn = 10 * unit // turn_seconds 10
	h, a, c := annTimed(t, unit)
	sent, pending, timed := 0, false, 0
	last := c.watch("the end of the match", func(m infoMsg) bool {
		if m.standin(a.Seat) {
			t.Fatalf("a stand-in was seated for Ann, who moves at once: %+v", m)
		}
		if m.Type == "error" {
			t.Fatalf("error: %+v", m)
		}
		if m.Type != "state" {
			return false
		}
		if m.Status == "over" {
			if m.TurnLeft != nil {
				t.Fatalf("a finished match has a clock: %v", m.TurnLeft)
			}
			return true
		}
		if m.By == a.Seat {
			pending = false
		}
		if slices.Contains(m.ToMove, a.Seat) {
			if _, ok := m.left(a.Seat); !ok {
				t.Fatalf("move %d: Ann must act and has no time left given: %v", m.N, m.TurnLeft)
			}
			timed++
			if !pending && len(m.Legal) > 0 {
				if sent < 4 {
					time.Sleep(turn / 2) // Ann thinks, but not too long
				}
				c.send(map[string]any{"type": "move", "move": m.Legal[0]})
				pending = true
				sent++
			}
		}
		return false
	})
	if got := movesBy(storedMoves(t, h, a.Table), a.Seat); got != sent || sent == 0 {
		t.Fatalf("Ann sent %d moves and %d are stored for her", sent, got)
	}
	t.Logf("Ann made her %d moves of %d in time (%d states gave her time)", sent, last.N, timed)
}

// A table without a time per move says so (turn_seconds 0) and never
// puts anyone on the clock.
func TestTurnTimeNone(t *testing.T) {
	h := newHarness(t, testConfig())
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	c := h.dial(a.Table, a.Token)
	c.watch("Ann's turn", func(m infoMsg) bool {
		if m.Type == "welcome" && m.Table.TurnSeconds != 0 {
			t.Fatalf("turn_seconds %d at a table created without", m.Table.TurnSeconds)
		}
		if m.TurnLeft != nil {
			t.Fatalf("a clock at a table without time per move: %+v", m)
		}
		return m.Type == "state" && slices.Contains(m.ToMove, a.Seat)
	})
}

// The time per move is stored with the table: after a restart, the table
// still has it, and the clock starts again from the load.
func TestTurnTimeAfterRestart(t *testing.T) {
	const unit = 50 * time.Millisecond
	const turn = 10 * unit
	path := filepath.Join(t.TempDir(), "tapis.db")
	open := func() store.Store {
		st, err := sqlite.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	cfg := testConfig()
	cfg.Store, cfg.TurnUnit = open(), unit
	h1 := newHarness(t, cfg)
	a := createTurn(t, h1, 10)
	c := h1.dial(a.Table, a.Token)
	if m, err := playRandom(c, a.Seat, 1, 4); err != nil || m.Status != "playing" {
		t.Fatalf("before the restart: %v, %+v", err, m)
	}
	cfg.Store.Close()
	h1.stop()

	cfg.Store = open()
	loaded := time.Now()
	h2 := newHarness(t, cfg)
	resp, err := http.Get(h2.hs.URL + "/api/tables/" + a.Table)
	if err != nil {
		t.Fatal(err)
	}
	var in struct {
		TurnSeconds int `json:"turn_seconds"`
	}
	json.NewDecoder(resp.Body).Decode(&in)
	resp.Body.Close()
	if in.TurnSeconds != 10 {
		t.Fatalf("after the restart the table's turn_seconds is %d, want 10", in.TurnSeconds)
	}
	c = h2.dial(a.Table, a.Token)
	due := c.watch("Ann's turn", func(m infoMsg) bool { return m.Type == "state" && slices.Contains(m.ToMove, a.Seat) })
	if _, ok := due.left(a.Seat); !ok {
		t.Fatalf("after the restart Ann must act and has no time given: %+v", due)
	}
	c.watch("a move made for Ann", func(m infoMsg) bool { return m.Type == "state" && m.By == a.Seat })
	if since := time.Since(loaded); since < turn {
		t.Fatalf("a move was made for Ann %v after the restart, before her time (%v) was up", since, turn)
	}
}

// A time per move other than none or 10 to 600 seconds is refused, naming
// the field, and no table is made; the bounds themselves are accepted.
func TestTurnTimeRefused(t *testing.T) {
	h := newHarness(t, testConfig())
	for _, bad := range []any{-1, 1, 9, 601, 3600, 30.5, "30", true} {
		var e struct{ Code, Error string }
		req := map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "Ann", "turn_seconds": bad}
		if code := h.post("/api/tables", req, &e); code != http.StatusBadRequest || !strings.Contains(e.Error, "turn_seconds") {
			t.Errorf("turn_seconds %v: status %d, %+v; want 400 naming turn_seconds", bad, code, e)
		}
	}
	if got, err := h.store.Open(context.Background()); err != nil || len(got) != 0 {
		t.Fatalf("tables made by refused requests: %+v, %v", got, err)
	}
	for _, ok := range []int{0, 10, 600} {
		a := createTurn(t, h, ok)
		sv, err := h.store.Load(context.Background(), a.Table)
		if err != nil || sv.TurnTime != time.Duration(ok)*time.Second {
			t.Fatalf("turn_seconds %d stored as %v (%v)", ok, sv.TurnTime, err)
		}
	}
}

// In a simultaneous phase (Cabo's first look, which every seat makes)
// each seat has its own clock: Ann's move does not restart Bob's, and
// only Bob, who does not move, is played for.
func TestTurnTimeSimultaneous(t *testing.T) {
	const unit = 20 * time.Millisecond
	h := turnHarness(t, unit)
	var a seatResp
	req := map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "name": "Ann", "turn_seconds": 10}
	if code := h.post("/api/tables", req, &a); code != http.StatusCreated {
		t.Fatalf("create: status %d", code)
	}
	b := h.join(a.Table, "Bob")
	ca, cb := h.dial(a.Table, a.Token), h.dial(a.Table, b.Token)
	deal := ca.watch("the deal", func(m infoMsg) bool { return m.Type == "state" })
	if len(deal.ToMove) != 2 {
		t.Fatalf("Cabo's first look is not made by both seats at once: %+v", deal.ToMove)
	}
	bobAtDeal, ok := deal.left(b.Seat)
	if _, okA := deal.left(a.Seat); !ok || !okA {
		t.Fatalf("both seats must act, and the clocks are %v", deal.TurnLeft)
	}
	ca.send(map[string]any{"type": "move", "move": deal.Legal[0]})
	after := ca.watch("Ann's look", func(m infoMsg) bool { return m.Type == "state" && m.By == a.Seat })
	if bob, ok := after.left(b.Seat); !ok || bob > bobAtDeal {
		t.Fatalf("after Ann's move Bob has %v ms (%v), at the deal he had %d: his clock restarted", bob, after.TurnLeft, bobAtDeal)
	}
	if _, ok := after.left(a.Seat); ok && !slices.Contains(after.ToMove, a.Seat) {
		t.Fatalf("Ann, who has moved, is still on the clock: %v", after.TurnLeft)
	}
	played := cb.watch("a move made for Bob", func(m infoMsg) bool {
		if m.Type == "state" && m.By == a.Seat && m.N > after.N {
			t.Fatalf("a move was made for Ann: %+v", m)
		}
		return m.Type == "state" && m.By == b.Seat
	})
	moves := storedMoves(t, h, a.Table)
	if len(moves) != played.N || movesBy(moves, a.Seat) != 1 || movesBy(moves, b.Seat) != 1 {
		t.Fatalf("stored moves %+v: want Ann's own look and the one made for Bob", moves)
	}
}
