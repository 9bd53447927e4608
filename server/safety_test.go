package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/game"
)

// Malformed, oversized, wrong-seat, out-of-turn and spectator messages are
// each answered with an error that carries no card, and change nothing:
// the table goes on from the same move.
func TestBadMessagesChangeNothing(t *testing.T) {
	h := newHarness(t, testConfig())
	a := h.create("cabo", []string{"", ""}, "Ann", "")
	ca := h.dial(a.Table, a.Token)
	b := h.join(a.Table, "Bob")
	cb := h.dial(a.Table, b.Token)
	spec := h.dial(a.Table, "")
	start := ca.next("state")
	// Both peek, so that it is Ann's turn (seat 0) and Bob must wait.
	ca.send(`{"type":"move","move":{"type":"peek_initial","slots":[0,1]}}`)
	cb.send(`{"type":"move","move":{"type":"peek_initial","slots":[2,3]}}`)
	var st msg
	for st.N < start.N+2 {
		st = cb.next("state")
	}
	if !slices.Equal(st.ToMove, []game.Seat{0}) {
		t.Fatalf("to move: %v", st.ToMove)
	}
	for _, c := range []*client{ca, spec} {
		for m := (msg{}); m.N < st.N; {
			m = c.next("state")
		}
	}
	cases := []struct {
		name, send, code string
		from             *client
	}{
		{"not JSON", `{"type":`, "bad_message", cb},
		{"not an object", `[1,2]`, "bad_message", cb},
		{"unknown type", `{"type":"cheat"}`, "bad_message", cb},
		{"unknown field", `{"type":"move","move":{"type":"draw"},"hand":[1]}`, "bad_message", cb},
		{"move missing", `{"type":"move"}`, "bad_message", cb},
		{"not a move", `{"type":"move","move":{"type":"deal_me_aces"}}`, "bad_move", cb},
		{"bad move field", `{"type":"move","move":{"type":"peek","slot":99}}`, "bad_move", cb},
		{"out of turn", `{"type":"move","move":{"type":"draw"}}`, "refused", cb},
		{"for another seat", `{"type":"move","seat":0,"move":{"type":"draw"}}`, "wrong_seat", cb},
		{"spy out of turn", `{"type":"move","move":{"type":"spy","seat":0,"slot":0}}`, "refused", cb},
		{"spectator", `{"type":"move","move":{"type":"draw"}}`, "not_seated", spec},
		{"spectator for a seat", `{"type":"move","seat":0,"move":{"type":"draw"}}`, "not_seated", spec},
		{"again while playing", `{"type":"again"}`, "not_started", ca},
		{"oversized", `{"type":"move","move":{"type":"draw","x":"` + strings.Repeat("x", 5000) + `"}}`, "too_large", ca},
		{"illegal on turn", `{"type":"move","move":{"type":"discard"}}`, "refused", ca},
	}
	for _, c := range cases {
		c.from.send(c.send)
		e := c.from.next("error", "state")
		if e.Type != "error" || e.Code != c.code {
			t.Fatalf("%s: got %s %q %q, want error %s", c.name, e.Type, e.Code, e.Error, c.code)
		}
		for _, v := range []string{"seen", "hands"} {
			if strings.Contains(e.Error, v) {
				t.Fatalf("%s: error %q", c.name, e.Error)
			}
		}
	}
	if err := cb.ws.Write(context.Background(), websocket.MessageBinary, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if e := cb.next("error"); e.Code != "bad_message" {
		t.Fatalf("binary message: %+v", e)
	}
	// Nothing changed: the next state anyone sees follows Ann's draw,
	// which is move st.N+1.
	ca.send(`{"type":"move","move":{"type":"draw"}}`)
	for _, c := range []*client{ca, cb, spec} {
		next := c.next("state")
		if next.N != st.N+1 || next.By != 0 {
			t.Fatalf("after the bad messages, the next state is move %d by %d, want %d by 0", next.N, next.By, st.N+1)
		}
	}
	// A message far too large closes that connection only; the others
	// go on.
	big := `{"type":"ping","x":"` + strings.Repeat("x", 100_000) + `"}`
	cb.ws.Write(context.Background(), websocket.MessageText, []byte(big))
	select {
	case <-cb.done:
	case <-time.After(5 * time.Second):
		t.Fatal("a 100 kB message did not close the connection")
	}
	ca.send(`{"type":"ping"}`)
	ca.next("pong")
}

// A client that sends too fast is told so and slowed down to the rate.
func TestRateLimit(t *testing.T) {
	cfg := testConfig()
	cfg.Rate, cfg.Burst = 100, 5
	h := newHarness(t, cfg)
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	c := h.dial(a.Table, a.Token)
	c.next("state")
	const n = 45
	begin := time.Now()
	for range n {
		c.send(`{"type":"ping"}`)
	}
	warned := false
	for got := 0; got < n; {
		m := c.next("pong", "error")
		if m.Type == "pong" {
			got++
		} else if m.Code == "too_fast" {
			warned = true
		}
	}
	// 5 at once, then 40 at 100 per second.
	if el := time.Since(begin); el < 350*time.Millisecond {
		t.Fatalf("%d messages answered in %v: not slowed down", n, el)
	}
	if !warned {
		t.Fatal("the client was not told to slow down")
	}
}

// The HTTP API refuses bad tables, bad joins and bad tokens, and serves
// the client.
func TestHTTPRefusals(t *testing.T) {
	h := newHarness(t, testConfig())
	for _, c := range []struct {
		name string
		body any
	}{
		{"unknown game", map[string]any{"game": "poker", "players": 2}},
		{"too many players", map[string]any{"game": "cabo", "players": 9}},
		{"unknown option", map[string]any{"game": "cabo", "players": 2, "options": map[string]any{"jokers": true}}},
		{"bad option value", map[string]any{"game": "cabo", "players": 2, "options": map[string]any{"hand_size": 99}}},
		{"unknown bot", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "genius"}}},
		{"the cheating reference bot", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "cheat"}}},
		{"a bot with a budget", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "hard@100000"}}},
		{"more bots than seats", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random", "random"}}},
		{"unknown field", map[string]any{"game": "cabo", "players": 2, "admin": true}},
	} {
		var e struct{ Code, Error string }
		if code := h.post("/api/tables", c.body, &e); code != http.StatusBadRequest || e.Error == "" {
			t.Errorf("%s: status %d, %+v", c.name, code, e)
		}
	}
	a := h.create("cabo", []string{"", ""}, "Ann", "")
	resp, err := http.Post(h.hs.URL+"/api/tables/"+a.Table+"/join", "text/plain", strings.NewReader(`{"name":"Eve"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a plain-text join (a cross-site form): %d", resp.StatusCode)
	}
	if code := h.post("/api/tables/"+a.Table+"/join", map[string]string{"name": "  "}, nil); code != http.StatusBadRequest {
		t.Errorf("join without a name: %d", code)
	}
	h.join(a.Table, "Bob")
	if code := h.post("/api/tables/"+a.Table+"/join", map[string]string{"name": "Cid"}, nil); code != http.StatusConflict {
		t.Errorf("join a full table: %d", code)
	}
	if code := h.post("/api/tables/nope/join", map[string]string{"name": "Cid"}, nil); code != http.StatusNotFound {
		t.Errorf("join no table: %d", code)
	}
	if _, err := h.tryDial(a.Table, "0123456789abcdef0123456789abcdef"); err == nil {
		t.Error("a wrong token was seated")
	}
	for _, path := range []string{"/", "/t/" + a.Table, "/static/app.js", "/static/style.css"} {
		resp, err := http.Get(h.hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d", path, resp.StatusCode)
		}
	}
	resp, err = http.Get(h.hs.URL + "/api/tables/" + a.Table)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var in struct {
		Status string
		Seats  []map[string]any
	}
	json.NewDecoder(resp.Body).Decode(&in)
	if in.Status != "playing" || len(in.Seats) != 2 || in.Seats[1]["name"] != "Bob" {
		t.Errorf("table info: %+v", in)
	}
	for _, s := range in.Seats {
		for k := range s {
			if strings.Contains(k, "token") {
				t.Errorf("table info shows %s", k)
			}
		}
	}
}
