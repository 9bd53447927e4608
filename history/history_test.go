package history

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
	"tapis/limit"
	"tapis/store"
)

// matches is a Store of saved matches by table and number; the latest is
// Load's.
type matches map[string][]store.Saved

func (m matches) Load(_ context.Context, id string) (store.Saved, error) {
	ms := m[id]
	if len(ms) == 0 {
		return store.Saved{}, fmt.Errorf("no table %s", id)
	}
	return ms[len(ms)-1], nil
}

func (m matches) Match(_ context.Context, id string, no int) (store.Saved, error) {
	for _, sv := range m[id] {
		if sv.Match.No == no {
			return sv, nil
		}
	}
	return store.Saved{}, fmt.Errorf("no match %s/%d: %w", id, no, store.ErrNotFound)
}

// PlayedMatches lists no match: "My games" is tested on a real store
// (server's TestMyGames).
func (m matches) PlayedMatches(context.Context, string, store.PlayedCursor, int) ([]store.Played, error) {
	return nil, nil
}

// play plays a one-round Papayoo match of three to its end, each seat
// making its first legal move, and returns it as the store keeps it.
func play(t *testing.T, id string, no int, seed uint64) store.Saved {
	t.Helper()
	g := gameOf(t, "papayoo")
	opts := json.RawMessage(`{"rounds":1}`)
	st, err := g.New(game.Config{Players: 3, Options: opts, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	m := &store.Match{No: no, Seed: seed, Over: true}
	for !st.Over() {
		s := st.ToMove().List()[0]
		mv := st.Legal(s, nil)[0]
		b, err := g.MarshalMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(s, mv, nil); err != nil {
			t.Fatal(err)
		}
		m.Moves = append(m.Moves, store.Move{Seat: int(s), Move: b})
	}
	seats := []store.Seat{{Name: "Ann"}, {Name: "easy", Bot: "easy"}, {Name: "Bo"}}
	return store.Saved{Table: store.Table{ID: id, Game: "papayoo", Players: 3, Options: opts, Seats: seats}, Match: m}
}

func gameOf(t *testing.T, name string) game.Game {
	for _, g := range games.All() {
		if g.Name() == name {
			return g
		}
	}
	t.Fatalf("no game %s", name)
	return nil
}

// serve returns the routes of a Service over st, and its slots (one).
func serve(st Store, settle func(context.Context, string) bool) (*http.ServeMux, *limit.Fair) {
	slots := limit.NewFair(1, 1)
	s := New(Config{Store: st, Games: games.All(), Slots: slots, Settle: settle,
		Network: func(*http.Request) string { return "net" }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	mux := http.NewServeMux()
	s.Routes(mux)
	return mux, slots
}

func get(t *testing.T, mux http.Handler, path string, out any) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	if out != nil {
		if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
			t.Fatalf("%s: %v: %s", path, err, w.Body)
		}
	}
	return w
}

// released reports whether the only slot is free: every answer, served or
// refused, gives back what it took.
func released(t *testing.T, slots *limit.Fair) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := slots.Acquire(ctx, "check"); err != nil {
		t.Fatalf("the slot is still held: %v", err)
	}
	slots.Release()
}

func TestServesFinishedMatch(t *testing.T) {
	sv := play(t, "tab", 1, 7)
	mux, slots := serve(matches{"tab": {sv}}, nil)

	var sc struct {
		Game    string
		Players int
		Seed    uint64
		Moves   []struct{ Seat int }
	}
	w := get(t, mux, "/api/tables/tab/replay", &sc)
	if w.Code != http.StatusOK || sc.Game != "papayoo" || sc.Players != 3 || sc.Seed != 7 || len(sc.Moves) != len(sv.Match.Moves) {
		t.Fatalf("replay: %d %+v", w.Code, sc)
	}
	if cd := w.Header().Get("Content-Disposition"); cd != `attachment; filename="tapis-tab-1.json"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	released(t, slots)

	var pg matchPage
	if w := get(t, mux, "/api/tables/tab/matches/1", &pg); w.Code != http.StatusOK {
		t.Fatalf("match: %d", w.Code)
	}
	if pg.Table != "tab" || pg.Match != 1 || pg.Moves != len(sv.Match.Moves) || len(pg.Rounds) != 1 || len(pg.Seats) != 3 || pg.Seats[1].Bot != "easy" {
		t.Fatalf("match page: %+v", pg)
	}
	released(t, slots)

	var steps struct {
		Table, Game, Seat string
		Match             int
		Steps             []historyStep
	}
	if w := get(t, mux, "/api/tables/tab/matches/1/steps?seat=0", &steps); w.Code != http.StatusOK {
		t.Fatalf("steps: %d", w.Code)
	}
	n := len(steps.Steps)
	if steps.Table != "tab" || steps.Seat != "0" || n != len(sv.Match.Moves)+1 || steps.Steps[0].By != game.Spectator ||
		steps.Steps[n-1].Status != "over" || steps.Steps[0].View == nil {
		t.Fatalf("steps: %+v, %d steps", steps, n)
	}
	released(t, slots)
	if w := get(t, mux, "/api/tables/tab/matches/1/steps?seat=all", &steps); w.Code != http.StatusOK || len(steps.Steps[1].Views) != 3 || steps.Steps[1].State == nil {
		t.Fatalf("steps seat=all: %d", w.Code)
	}
	released(t, slots)
}

func TestRefusals(t *testing.T) {
	open := play(t, "tab", 2, 9)
	open.Match.Over = false
	open.Match.Moves = open.Match.Moves[:3]
	mux, slots := serve(matches{"tab": {play(t, "tab", 1, 8), open}}, nil)
	for _, tc := range []struct {
		path string
		code int
		word string
	}{
		{"/api/tables/tab/replay", http.StatusOK, ""}, // the latest finished: match 1
		{"/api/tables/tab/replay?match=2", http.StatusConflict, "not_over"},
		{"/api/tables/tab/matches/3", http.StatusNotFound, "not_found"},
		{"/api/tables/nope/matches/1", http.StatusNotFound, "not_found"},
		{"/api/tables/tab/matches/x", http.StatusBadRequest, "bad_request"},
		{"/api/tables/tab/matches/0", http.StatusBadRequest, "bad_request"},
		{"/api/tables/tab/matches/1/steps?seat=3", http.StatusBadRequest, "bad_request"},
		{"/api/tables/tab/matches/1/steps?seat=me", http.StatusBadRequest, "bad_request"},
	} {
		w := get(t, mux, tc.path, nil)
		if w.Code != tc.code || !strings.Contains(w.Body.String(), tc.word) {
			t.Errorf("%s: %d %s, want %d %s", tc.path, w.Code, w.Body, tc.code, tc.word)
		}
		released(t, slots)
	}
}

// A match the store holds open whose moves end the game is settled by
// the host (Settle) and then served.
func TestSettles(t *testing.T) {
	sv := play(t, "tab", 1, 5)
	sv.Match.Over = false
	st := matches{"tab": {sv}}
	asked := 0
	mux, _ := serve(st, func(_ context.Context, id string) bool {
		asked++
		st[id][0].Match.Over = true
		return true
	})
	if w := get(t, mux, "/api/tables/tab/matches/1", nil); w.Code != http.StatusOK || asked != 1 {
		t.Fatalf("%d after %d settles, want 200 after 1", w.Code, asked)
	}
	if over, err := Played(gameOf(t, "papayoo"), sv); err != nil || !over.Over() {
		t.Fatalf("Played: %v", err)
	}
}
