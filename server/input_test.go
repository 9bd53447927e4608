package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/server"
)

// rawPost posts body as it is and returns the status and the answer.
func rawPost(t *testing.T, h *harness, path, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(h.hs.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// tableSeats reads a table's seat names through the API.
func tableSeats(t *testing.T, h *harness, id string) []string {
	t.Helper()
	resp, err := http.Get(h.hs.URL + "/api/tables/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var in struct{ Seats []struct{ Name string } }
	if err := json.NewDecoder(resp.Body).Decode(&in); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range in.Seats {
		names = append(names, s.Name)
	}
	return names
}

// Finding 7: a request body is one JSON object and nothing after it.
func TestTrailingDataIsRefused(t *testing.T) {
	h := newHarness(t, testConfig())
	for _, body := range []string{
		`{"game":"cabo","players":2,"bots":["","random"],"name":"Ann"} {"game":"cabo"}`,
		`{"game":"cabo","players":2,"bots":["","random"],"name":"Ann"}}`,
		`{"game":"cabo","players":2,"bots":["","random"],"name":"Ann"}garbage`,
	} {
		if code, ans := rawPost(t, h, "/api/tables", body); code != http.StatusBadRequest || !strings.Contains(ans, "after the JSON value") {
			t.Errorf("%s: %d %s, want 400 naming the trailing data", body, code, ans)
		}
	}
	ann := h.create("cabo", []string{"", ""}, "Ann", "")
	if code, ans := rawPost(t, h, "/api/tables/"+ann.Table+"/join", `{"name":"Bob"}{"name":"Cy"}`); code != http.StatusBadRequest {
		t.Errorf("a join with trailing data: %d %s", code, ans)
	}
	if names := tableSeats(t, h, ann.Table); names[1] != "" {
		t.Errorf("the refused join took a seat: %v", names)
	}
}

// Finding 7: names are normalised (NFC, no control or format characters,
// spaces collapsed, 24 characters, not bytes), and a name that reads like
// one already seated (case, spaces, compatibility forms) is refused.
func TestNamesAreNormalisedAndUnique(t *testing.T) {
	h := newHarness(t, testConfig())
	for _, tc := range []struct{ in, want string }{
		{"Ann\u202eevil", "Annevil"},                       // right-to-left override
		{"A\u200bn\u200dn\u2060", "Ann"},                   // zero-width characters
		{"  Ann \t\n  Lee  ", "Ann Lee"},                   // spaces
		{"Ann\x00\x1b[31m", "Ann[31m"},                     // controls
		{"Zoe\u0301", "Zoé"},                               // NFC
		{strings.Repeat("é", 30), strings.Repeat("é", 24)}, // characters, not bytes
		{"日本語の名前はとても長くなることがありますよねえ本当に", "日本語の名前はとても長くなることがありますよねえ"}, // 24 of 27
	} {
		id := h.create("cabo", []string{"", "random"}, tc.in, "").Table
		if got := tableSeats(t, h, id)[0]; got != tc.want {
			t.Errorf("name %q is shown as %q, want %q", tc.in, got, tc.want)
		}
	}
	ann := h.create("papayoo", []string{"", "", "", ""}, "Ann Lee", "")
	for _, dup := range []string{"ann lee", "ANNLEE", " Ann  Lee ", "Ａｎｎ Ｌｅｅ", "Ann\u200bLee"} {
		var r struct{ Code, Error string }
		if code := h.post("/api/tables/"+ann.Table+"/join", map[string]string{"name": dup}, &r); code != http.StatusConflict || r.Code != "name_taken" {
			t.Errorf("joining as %q beside Ann Lee: %d %+v, want 409 name_taken", dup, code, r)
		}
	}
	h.join(ann.Table, "Anne Lee")
	if names := tableSeats(t, h, ann.Table); !slices.Equal(names, []string{"Ann Lee", "Anne Lee", "", ""}) {
		t.Errorf("seats %v", names)
	}
	for _, empty := range []string{"\u200b\u202e", " \t ", "<>"} {
		if code := h.post("/api/tables/"+ann.Table+"/join", map[string]string{"name": empty}, nil); code != http.StatusBadRequest {
			t.Errorf("joining as %q: status %d, want 400", empty, code)
		}
	}
}

// Finding 2: a table of bots alone is refused; with one person it plays.
func TestBotOnlyTableIsRefused(t *testing.T) {
	h := newHarness(t, testConfig())
	var r struct{ Code, Error string }
	if code := h.post("/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"random", "easy"}}, &r); code != http.StatusBadRequest || r.Code != "no_human" {
		t.Fatalf("a bot-only table: %d %+v", code, r)
	}
	ids, err := h.store.Tables(context.Background())
	if err != nil || len(ids) != 0 {
		t.Fatalf("the refused table was stored: %v %v", ids, err)
	}
	h.create("cabo", []string{"", "easy"}, "Ann", "")
}

// Finding 10: a bot's seed is not a function of the match's seed: two
// servers (each with its secret) dealing from the same seed get bots that
// play differently, and no message before the end of a match carries the
// seed.
func TestBotSeedsAreNotTheMatchSeed(t *testing.T) {
	const seed = 0x5eed5eed5eed5eed
	firstMoves := func(secret string) (string, *client) {
		cfg := testConfig()
		cfg.Seed = func() uint64 { return seed }
		cfg.Secret = []byte(secret)
		h := newHarness(t, cfg)
		ann := h.create("cabo", []string{"", "random"}, "Ann", "")
		c := h.dial(ann.Table, ann.Token)
		c.next("state")
		c.send(`{"type":"move","move":{"type":"peek_initial","slots":[0,1]}}`)
		var events []string
		for len(events) < 8 {
			m := c.next("state")
			if m.Status != "playing" {
				break
			}
			if m.By == 1 {
				for _, e := range m.Events {
					events = append(events, string(e))
				}
			}
			if slices.Contains(m.ToMove, ann.Seat) && len(m.Legal) > 0 {
				c.send(map[string]any{"type": "move", "move": m.Legal[0]})
			}
		}
		return strings.Join(events, "\n"), c
	}
	a, ca := firstMoves("one server's secret")
	b, cb := firstMoves("another's")
	if a == b {
		t.Fatalf("two tables dealt from one seed got bots that play alike:\n%s", a)
	}
	for _, c := range []*client{ca, cb} {
		for _, m := range c.messages() {
			for _, form := range []string{fmt.Sprint(uint64(seed)), fmt.Sprintf("%x", uint64(seed))} {
				if strings.Contains(string(m), form) {
					t.Fatalf("a message carries the match's seed: %s", m)
				}
			}
		}
	}
}

// Finding 5: a request sent slowly, or a keep-alive connection left idle,
// is closed after its timeout instead of being held for ever.
func TestSlowAndIdleConnectionsAreClosed(t *testing.T) {
	cfg := testConfig()
	cfg.Timeouts = server.Timeouts{Header: 200 * time.Millisecond, Request: 300 * time.Millisecond, Idle: 300 * time.Millisecond}
	h := newHarness(t, cfg)
	addr := strings.TrimPrefix(h.hs.URL, "http://")
	// closed waits for the server to close conn, reading what it sends.
	closed := func(conn net.Conn, what string) {
		t.Helper()
		conn.SetReadDeadline(time.Now().Add(20 * time.Second))
		_, err := io.Copy(io.Discard, conn)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("%s: the connection is still open after 20 s", what)
		}
	}
	start := time.Now()
	// Headers that never end.
	slow, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(slow, "POST /api/tables HTTP/1.1\r\nHost: tapis\r\n")
	closed(slow, "unfinished headers")
	// A body that trickles.
	body, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(body, "POST /api/tables HTTP/1.1\r\nHost: tapis\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
	closed(body, "a slow body")
	// An idle keep-alive connection after a good request.
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(idle, "GET /api/games HTTP/1.1\r\nHost: tapis\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/games: %v %v", resp, err)
	}
	closed(idle, "an idle keep-alive")
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("the connections took %v to close", d)
	}
}

// Finding 5: the server pings every WebSocket; a peer that keeps its
// connection open but answers nothing (a dead network, a frozen client)
// is dropped, and its seat shown gone, long before any heartbeat timeout.
func TestUnansweredPingsDropAConnection(t *testing.T) {
	cfg := testConfig()
	cfg.Ping = 100 * time.Millisecond
	cfg.Presence = time.Hour
	h := newHarness(t, cfg)
	ann := h.create("cabo", []string{"", "random"}, "Ann", "")
	spec := h.dial(ann.Table, "")
	// Ann's client never reads, so it never answers a ping.
	url := "ws" + strings.TrimPrefix(h.hs.URL, "http") + "/api/tables/" + ann.Table + "/ws?token=" + ann.Token
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	here := false
	spec.watch("Ann shown gone", func(m infoMsg) bool {
		s, ok := m.seat(ann.Seat)
		here = here || (ok && s.Connected)
		return here && ok && !s.Connected
	})
}
