package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tapis/game"
	"tapis/games"
	"tapis/replay"
	"tapis/store"
	"tapis/store/sqlite"
)

// errorLog is a slog handler that keeps every record at Warn or above.
type errorLog struct {
	mu   sync.Mutex
	recs []string
}

func (l *errorLog) Enabled(_ context.Context, lv slog.Level) bool { return lv >= slog.LevelWarn }
func (l *errorLog) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool { fmt.Fprintf(&b, " %s=%v", a.Key, a.Value); return true })
	l.mu.Lock()
	l.recs = append(l.recs, b.String())
	l.mu.Unlock()
	return nil
}
func (l *errorLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *errorLog) WithGroup(string) slog.Handler      { return l }
func (l *errorLog) records() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.recs)
}

func sqliteStore(t *testing.T) store.Store {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "tapis.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// loggedHarness is a server on SQLite whose warnings and errors are kept.
func loggedHarness(t *testing.T) (*harness, *errorLog) {
	cfg := testConfig()
	cfg.Store = sqliteStore(t)
	log := &errorLog{}
	cfg.Logger = slog.New(log)
	return newHarness(t, cfg), log
}

// stored is how many moves of the table's latest match are stored.
func stored(t *testing.T, h *harness, table string) int {
	t.Helper()
	sv, err := h.store.Load(context.Background(), table)
	if err != nil {
		t.Fatal(err)
	}
	if sv.Match == nil {
		return 0
	}
	return len(sv.Match.Moves)
}

// Finding 8: a move sent just before the player's connection drops is
// applied and saved all the same (it used to be dropped with "context
// canceled").
func TestMoveSentBeforeAHangUpIsKept(t *testing.T) {
	h, log := loggedHarness(t)
	for i := 0; i < 20; i++ {
		ann := h.create("cabo", []string{"", ""}, "Ann", "")
		bob := h.join(ann.Table, "Bob")
		c := h.dial(ann.Table, ann.Token)
		c.next("state")
		c.send(`{"type":"move","move":{"type":"peek_initial","slots":[0,1]}}`)
		c.ws.CloseNow()
		// Bob sees Ann's move: it was played.
		b := h.dial(ann.Table, bob.Token)
		for {
			m := b.next("state")
			if !slices.Contains(m.ToMove, ann.Seat) {
				break
			}
		}
		if n := stored(t, h, ann.Table); n != 1 {
			t.Fatalf("table %d: %d moves stored, want Ann's", i, n)
		}
	}
	if recs := log.records(); len(recs) > 0 {
		t.Fatalf("the server logged %v", recs)
	}
}

// Finding 8: a move may say which position it answers ("n"); one that
// answers an earlier position is refused as stale and changes nothing.
func TestStaleMoveIsRefused(t *testing.T) {
	h := newHarness(t, testConfig())
	ann := h.create("cabo", []string{"", ""}, "Ann", "")
	bob := h.join(ann.Table, "Bob")
	a, b := h.dial(ann.Table, ann.Token), h.dial(ann.Table, bob.Token)
	a.next("state")
	b.next("state")
	// Bob peeks: the table is at move 1; Ann answers move 0.
	b.send(`{"type":"move","n":0,"move":{"type":"peek_initial","slots":[0,1]}}`)
	if m := a.next("state"); m.N != 1 {
		t.Fatalf("after Bob's peek, move %d", m.N)
	}
	a.send(`{"type":"move","n":0,"id":7,"move":{"type":"peek_initial","slots":[2,3]}}`)
	if m := a.next("state", "error"); m.Type != "error" || m.Code != "stale" || !strings.Contains(m.Error, "look again") {
		t.Fatalf("a stale move got %+v", m)
	}
	a.send(`{"type":"move","n":5,"move":{"type":"peek_initial","slots":[2,3]}}`)
	if m := a.next("state", "error"); m.Type != "error" || m.Code != "bad_message" {
		t.Fatalf("a move from the future got %+v", m)
	}
	if n := stored(t, h, ann.Table); n != 1 {
		t.Fatalf("%d moves stored, want Bob's alone", n)
	}
	a.send(`{"type":"move","n":1,"move":{"type":"peek_initial","slots":[2,3]}}`)
	if m := a.next("state", "error"); m.Type != "state" || m.N != 2 {
		t.Fatalf("a move answering the position got %+v", m)
	}
}

// Finding 8: stopping the server while people play drains: every store
// write finishes, none fails with "context canceled", and the stored
// games replay.
func TestShutdownDrains(t *testing.T) {
	h, log := loggedHarness(t)
	var tables []string
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		ann := h.create("papayoo", []string{"", "random", "random"}, "Ann", "")
		tables = append(tables, ann.Table)
		c := h.dial(ann.Table, ann.Token)
		wg.Add(1)
		go func() {
			defer wg.Done()
			playRandom(c, ann.Seat, uint64(i), 1<<30)
		}()
	}
	// Stop once every table has moved a little.
	for _, id := range tables {
		for deadline := time.Now().Add(30 * time.Second); stored(t, h, id) < 3; {
			if time.Now().After(deadline) {
				t.Fatalf("table %s does not move", id)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	h.stop()
	wg.Wait()
	for _, r := range log.records() {
		if strings.Contains(r, "canceled") || strings.Contains(r, "store") {
			t.Errorf("while stopping, the server logged %q", r)
		}
	}
	for _, id := range tables {
		sv, err := h.store.Load(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		script := replay.Script{Game: sv.Game, Players: sv.Players, Options: sv.Options, Seed: sv.Match.Seed}
		for _, m := range sv.Match.Moves {
			script.Moves = append(script.Moves, replay.Step{Seat: game.Seat(m.Seat), Move: m.Move})
		}
		out, err := replay.Run(script, games.Named)
		if err != nil || len(out.Rejected) > 0 || out.Applied != len(sv.Match.Moves) {
			t.Fatalf("table %s does not replay: %v %+v", id, err, out.Rejected)
		}
	}
}
