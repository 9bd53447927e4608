package lobby

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tapis/account"
	"tapis/games"
	"tapis/store"
)

// host is a table host that counts its seat changes and settles the
// tables in over.
type host struct {
	gen     int64
	over    map[string]bool
	settled []string
}

func (h *host) Build(string, int, []store.Entry, string) (store.Table, *store.Start, error) {
	return store.Table{}, nil, nil
}

func (h *host) Settle(_ context.Context, table string) bool {
	h.settled = append(h.settled, table)
	return h.over[table]
}

func (h *host) SeatChanges() int64 { return h.gen }

// accounts knows the player of the cookie "me" (a guest made by Ensure,
// or given), and fails Ensure with err if set.
type accounts struct {
	st  *store.Memory
	me  *store.Player
	err error
}

func (a *accounts) Current(r *http.Request) (store.Player, bool) {
	if a.me == nil || r.Header.Get("Cookie") != "me" {
		return store.Player{}, false
	}
	return *a.me, true
}

func (a *accounts) Ensure(_ http.ResponseWriter, _ *http.Request, name string) (store.Player, error) {
	if a.err != nil {
		return store.Player{}, a.err
	}
	a.me = &store.Player{ID: "guest", Name: name}
	return *a.me, a.st.CreatePlayer(context.Background(), *a.me)
}

type rig struct {
	st   *store.Memory
	host *host
	acc  *accounts
	svc  *Service
	mux  *http.ServeMux
	// refuse makes AllowCreate refuse.
	refuse bool
}

func newRig() *rig {
	rg := &rig{st: store.NewMemory(), host: &host{over: map[string]bool{}}}
	rg.acc = &accounts{st: rg.st}
	rg.svc = New(Config{Store: rg.st, Games: games.All(), Host: rg.host, Accounts: rg.acc,
		AllowCreate: func(w http.ResponseWriter, r *http.Request) bool {
			if rg.refuse {
				http.Error(w, "refused", http.StatusTooManyRequests)
			}
			return !rg.refuse
		},
		ListedFor: time.Minute, TurnUnit: time.Second, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	rg.mux = http.NewServeMux()
	rg.svc.Routes(rg.mux)
	return rg
}

// do makes a request as the player of the cookie "me" and decodes the
// answer into out.
func (rg *rig) do(t *testing.T, method, path, body string, out any) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("Cookie", "me")
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	rg.mux.ServeHTTP(w, r)
	if out != nil {
		if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, w.Body)
		}
	}
	return w
}

func (rg *rig) table(t *testing.T, tab store.Table, start *store.Start) {
	t.Helper()
	if err := rg.st.CreateTable(context.Background(), tab, start); err != nil {
		t.Fatal(err)
	}
}

type lobbyAnswer struct{ Tables []lobbyTable }

func TestList(t *testing.T) {
	rg := newRig()
	now := time.Now()
	rg.table(t, store.Table{ID: "t1", Game: "cabo", Players: 3, Options: json.RawMessage(`{}`), Created: now, Active: now, Public: true,
		TurnTime: 30 * time.Second, Lang: "fr", Seats: []store.Seat{{Name: "Ann", TokenHash: "h"}, {}, {Name: "easy", Bot: "easy"}}}, nil)
	rg.table(t, store.Table{ID: "old", Game: "cabo", Players: 2, Options: json.RawMessage(`{}`), Created: now, Active: now.Add(-2 * time.Minute),
		Public: true, Seats: []store.Seat{{Name: "Bo", TokenHash: "h"}, {}}}, nil)
	var out lobbyAnswer
	if w := rg.do(t, "GET", "/api/lobby", "", &out); w.Code != http.StatusOK || len(out.Tables) != 1 {
		t.Fatalf("lobby: %d %s", w.Code, w.Body)
	}
	lt := out.Tables[0]
	if lt.ID != "t1" || lt.TurnSeconds != 30 || lt.Lang != "fr" || len(lt.Seats) != 3 ||
		lt.Seats[0].Free || !lt.Seats[1].Free || lt.Seats[2].Free || lt.Seats[2].Bot != "easy" {
		t.Fatalf("lobby table: %+v", lt)
	}
	// A seat change here is seen at once, whatever was read before.
	rg.table(t, store.Table{ID: "t2", Game: "papayoo", Players: 3, Options: json.RawMessage(`{}`), Created: now, Active: now, Public: true,
		Seats: []store.Seat{{Name: "Cy", TokenHash: "h"}, {}, {}}}, nil)
	rg.host.gen++
	if rg.do(t, "GET", "/api/lobby", "", &out); len(out.Tables) != 2 {
		t.Fatalf("after a seat change: %+v", out)
	}
	if rg.do(t, "GET", "/api/lobby?game=papayoo", "", &out); len(out.Tables) != 1 || out.Tables[0].ID != "t2" {
		t.Fatalf("papayoo's: %+v", out)
	}
	var f struct{ Code string }
	if w := rg.do(t, "GET", "/api/lobby?game=chess", "", &f); w.Code != http.StatusBadRequest || f.Code != "bad_game" {
		t.Fatalf("chess: %d %+v", w.Code, f)
	}
}

func TestMyTables(t *testing.T) {
	rg := newRig()
	var out struct{ Tables []myTable }
	if w := rg.do(t, "GET", "/api/me/tables", "", &out); w.Code != http.StatusOK || out.Tables == nil || len(out.Tables) != 0 {
		t.Fatalf("nobody: %d %s", w.Code, w.Body)
	}
	rg.acc.me = &store.Player{ID: "ann", Name: "Ann"}
	now := time.Now()
	for _, id := range []string{"wait", "play", "ended"} {
		var start *store.Start
		seats := []store.Seat{{Name: "Ann", Player: "ann", TokenHash: "h"}, {}}
		if id != "wait" {
			start, seats[1] = &store.Start{No: 1, Seed: 1}, store.Seat{Name: "easy", Bot: "easy"}
		}
		rg.table(t, store.Table{ID: id, Game: "cabo", Players: 2, Created: now, Seats: seats}, start)
	}
	rg.host.over["ended"] = true // its moves had ended the match: settled
	rg.do(t, "GET", "/api/me/tables", "", &out)
	got := map[string]string{}
	for _, mt := range out.Tables {
		got[mt.ID] = mt.Status
	}
	if len(got) != 2 || got["wait"] != "waiting" || got["play"] != "playing" {
		t.Fatalf("tables %v, want wait waiting and play playing", got)
	}
	if len(rg.host.settled) != 2 {
		t.Errorf("settled %v, want the two started tables", rg.host.settled)
	}
}

type entryAnswer struct{ Entry *entryResp }

func TestQueue(t *testing.T) {
	rg := newRig()
	var f struct{ Code, Error string }
	for _, tc := range []struct{ body, code string }{
		{`{"game":"chess","players":2}`, "bad_game"},
		{`{"game":"papayoo","players":2}`, "bad_queue"},
		{`{"game":"cabo","players":2,"bot":"cheat"}`, "bad_queue"},
		{`{"game":"cabo","players":2}`, "bad_name"},
		{`{"game":"cabo","players":2,"name":"  "}`, "bad_name"},
	} {
		if w := rg.do(t, "POST", "/api/queue", tc.body, &f); w.Code != http.StatusBadRequest || f.Code != tc.code {
			t.Errorf("%s: %d %+v, want 400 %s", tc.body, w.Code, f, tc.code)
		}
	}
	rg.refuse = true
	if w := rg.do(t, "POST", "/api/queue", `{"game":"cabo","players":2,"name":"Ann"}`, nil); w.Code != http.StatusTooManyRequests {
		t.Fatalf("a creation refused: %d", w.Code)
	}
	rg.refuse = false
	rg.acc.err = &account.LimitError{Retry: 3 * time.Second}
	if w := rg.do(t, "POST", "/api/queue", `{"game":"cabo","players":2,"name":"Ann"}`, &f); w.Code != http.StatusTooManyRequests ||
		f.Code != "too_fast" || w.Header().Get("Retry-After") != "3" {
		t.Fatalf("guests made too fast: %d %+v %q", w.Code, f, w.Header().Get("Retry-After"))
	}
	rg.acc.err = nil
	var e entryAnswer
	if w := rg.do(t, "POST", "/api/queue", `{"game":"cabo","players":2,"name":"Ann"}`, &e); w.Code != http.StatusOK || e.Entry == nil {
		t.Fatalf("join: %d %s", w.Code, w.Body)
	}
	if x := e.Entry; x.Game != "cabo" || x.Players != 2 || x.Bot != defaultQueueBot || x.WaitSeconds != int(DefaultWait/time.Second) || x.Table != "" || x.Seat != -1 {
		t.Fatalf("entry: %+v", x)
	}
	select {
	case <-rg.svc.wake:
	default:
		t.Fatal("joining did not wake the matcher")
	}
	if rg.do(t, "GET", "/api/queue", "", &e); e.Entry == nil || e.Entry.Game != "cabo" {
		t.Fatalf("the entry: %+v", e.Entry)
	}
	if w := rg.do(t, "POST", "/api/queue/leave", `{}`, &e); w.Code != http.StatusOK || e.Entry != nil {
		t.Fatalf("leave: %d %s", w.Code, w.Body)
	}
	if rg.do(t, "GET", "/api/queue", "", &e); e.Entry != nil {
		t.Fatalf("after leaving: %+v", e.Entry)
	}
	if rg.do(t, "POST", "/api/queue", `{"game":"cabo","players":2,"wait_seconds":-1}`, &e); e.Entry == nil || e.Entry.WaitSeconds != -1 {
		t.Fatalf("never bots: %+v", e.Entry)
	}
}

// A seated entry is told until its table is no longer among the
// player's unfinished ones; then it is left.
func TestQueueSeated(t *testing.T) {
	rg := newRig()
	var e entryAnswer
	rg.do(t, "POST", "/api/queue", `{"game":"cabo","players":2,"bot":"easy","name":"Ann"}`, &e)
	tab := store.Table{ID: "q", Game: "cabo", Players: 2, Options: json.RawMessage(`{}`), Created: time.Now(), Creator: "queue",
		Seats: []store.Seat{{Name: "Ann", Player: "guest", TokenHash: "h"}, {Name: "easy", Bot: "easy"}}}
	if err := rg.st.SeatQueued(context.Background(), []string{"guest"}, tab, &store.Start{No: 1, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if rg.do(t, "GET", "/api/queue", "", &e); e.Entry == nil || e.Entry.Table != "q" || e.Entry.Seat != 0 {
			t.Fatalf("seated: %+v", e.Entry)
		}
	}
	if err := rg.st.CloseTable(context.Background(), "q", store.Abandoned, ""); err != nil {
		t.Fatal(err)
	}
	if rg.do(t, "GET", "/api/queue", "", &e); e.Entry != nil {
		t.Fatalf("its table closed: %+v", e.Entry)
	}
	if _, err := rg.st.QueueEntry(context.Background(), "guest"); err == nil {
		t.Fatal("the entry of a closed table is kept")
	}
}
