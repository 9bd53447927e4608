package friend_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"tapis/friend"
	"tapis/limit"
	"tapis/store"
)

// notes counts the notifications a Service makes, by recipient.
type notes map[string]int

func (n notes) Notify(_ context.Context, player, kind string, _ any) error {
	n[player+"/"+kind]++
	return nil
}

// floodRoom is a friends list on a store in memory, with players p0..pN
// (usernames the same) and small bounds: 3 requests waiting, and 5 new
// ones per recipient at once, then one an hour.
func floodRoom(t *testing.T, n int) (st *store.Memory, do func(who, method, path string, body any) (int, string), got notes, now *time.Time) {
	st = store.NewMemory()
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	now = &t0
	for i := range n {
		id := fmt.Sprintf("p%d", i)
		if err := st.CreatePlayer(ctx, store.Player{ID: id, Name: id, Created: t0}); err != nil {
			t.Fatal(err)
		}
		if err := st.ClaimUsername(ctx, id, id, id, "x"); err != nil {
			t.Fatal(err)
		}
	}
	got = notes{}
	s := friend.New(friend.Config{Store: st, Notifier: got, MaxIncoming: 3,
		PerRecipient: limit.NewRates(rate.Every(time.Hour), 5, 100),
		PerPlayer:    limit.NewRates(rate.Inf, 1, 1), PerNetwork: limit.NewRates(rate.Inf, 1, 1),
		Now: func() time.Time { return *now },
		Player: func(r *http.Request) (store.Player, bool) {
			p, err := st.Player(r.Context(), r.Header.Get("X-Player"))
			return p, err == nil
		}})
	mux := http.NewServeMux()
	s.Routes(mux)
	do = func(who, method, path string, body any) (int, string) {
		b, _ := json.Marshal(body)
		r := httptest.NewRequest(method, path, bytes.NewReader(b))
		r.Header.Set("X-Player", who)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		var e struct{ Code, Error string }
		json.Unmarshal(w.Body.Bytes(), &e)
		if w.Code != 200 && e.Error == "" {
			t.Errorf("%s %s: %d %s without words", method, path, w.Code, e.Code)
		}
		return w.Code, e.Code
	}
	return st, do, got, now
}

// Many accounts cannot bury one player under friend requests: at most
// MaxIncoming wait at once, whoever asks (a player blocked too, so that
// the refusal tells nothing of the block); asking again one is pending
// for changes nothing.
func TestRequestsWaitingAreBounded(t *testing.T) {
	st, do, got, _ := floodRoom(t, 6)
	ctx := context.Background()
	if err := st.Block(ctx, "p0", "p5", time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"p1", "p2", "p3"} {
		if c, code := do(p, "POST", "/api/me/friends", map[string]string{"username": "p0"}); c != 200 {
			t.Fatalf("%s's request: %d %s", p, c, code)
		}
	}
	for _, p := range []string{"p4", "p5"} {
		if c, code := do(p, "POST", "/api/me/friends", map[string]string{"username": "p0"}); c != 409 || code != "requests_full" {
			t.Fatalf("%s's request past the 3 waiting: %d %s, want 409 requests_full", p, c, code)
		}
	}
	// Asking again, and answering one's own request, still work.
	if c, code := do("p1", "POST", "/api/me/friends", map[string]string{"username": "p0"}); c != 200 {
		t.Fatalf("p1 asking again: %d %s", c, code)
	}
	if c, code := do("p0", "POST", "/api/me/friends", map[string]string{"username": "p2"}); c != 200 {
		t.Fatalf("p0 asking p2, who asked first: %d %s", c, code)
	}
	if got["p0/friend_request"] != 3 {
		t.Fatalf("p0 notified %d times, want 3 (once per player who asked)", got["p0/friend_request"])
	}
	// p2 is a friend now: a place is free.
	if c, code := do("p4", "POST", "/api/me/friends", map[string]string{"username": "p0"}); c != 200 {
		t.Fatalf("p4 once p0 answered one: %d %s", c, code)
	}
}

// The new requests one player receives are paced, and a request
// withdrawn and made again does not notify again for a day.
func TestRequestsReceivedArePaced(t *testing.T) {
	_, do, got, now := floodRoom(t, 8)
	for i := 1; i <= 7; i++ {
		p := fmt.Sprintf("p%d", i)
		c, code := do(p, "POST", "/api/me/friends", map[string]string{"username": "p0"})
		switch {
		case i <= 5 && c != 200:
			t.Fatalf("%s's request: %d %s", p, c, code)
		case i > 5 && (c != 429 || code != "requests_too_fast"):
			t.Fatalf("%s's request past 5 at once: %d %s, want 429 requests_too_fast", p, c, code)
		}
		// Each declined at once: only the pace bounds them.
		do("p0", "POST", "/api/me/friends/"+p+"/decline", nil)
	}
	// p0 asks p1, withdraws and asks again: no second notification
	// before a day is out. A request made again after a decline notifies.
	steps := []struct {
		wait  time.Duration
		then  string // "withdraw" or "decline"
		count int
	}{{0, "withdraw", 1}, {time.Hour, "decline", 1}, {friend.RequestEvery, "decline", 2}, {0, "", 3}}
	for i, st := range steps {
		*now = now.Add(st.wait)
		if c, code := do("p0", "POST", "/api/me/friends", map[string]string{"username": "p1"}); c != 200 {
			t.Fatalf("p0's request %d: %d %s", i, c, code)
		}
		if got["p1/friend_request"] != st.count {
			t.Fatalf("p1 notified %d times after request %d, want %d", got["p1/friend_request"], i, st.count)
		}
		switch st.then {
		case "withdraw":
			do("p0", "DELETE", "/api/me/friends/p1", nil)
		case "decline":
			do("p1", "POST", "/api/me/friends/p0/decline", nil)
		}
	}
}
