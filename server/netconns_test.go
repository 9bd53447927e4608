package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// spectateFrom opens a spectator's WebSocket to a table from the loopback
// address ip (it stays open until the test ends) and returns, for a
// refusal, its HTTP status, error code and Retry-After (0 and "" when
// connected).
func spectateFrom(t *testing.T, h *harness, ip, table string) (status int, code, retry string) {
	t.Helper()
	url := "ws" + strings.TrimPrefix(h.hs.URL, "http") + "/api/tables/" + table + "/ws"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: from(ip)})
	if err == nil {
		t.Cleanup(func() { ws.CloseNow() })
		return 0, "", ""
	}
	if resp == nil {
		t.Fatalf("dial from %s: %v", ip, err)
	}
	var body struct{ Code string }
	json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body.Code, resp.Header.Get("Retry-After")
}

// Issue 24, red team: from one /24 (254 addresses), 10,000 spectator
// sockets stayed open on 50 tables, RSS 186 -> 431 MB, as only the
// per-address cap (64) and the per-table spectator cap (200) applied. Now
// one network holds Limits.NetConns sockets at most: beyond, from any of
// its addresses, 429 too_many_conns_network; another network still
// connects.
func TestConnsPerNetworkAreBounded(t *testing.T) {
	const cap = 6
	cfg := testConfig()
	cfg.Limits.NetConns = cap
	h := newHarness(t, cfg)
	tables := []string{h.create("cabo", []string{"", ""}, "Ann", "").Table, h.create("cabo", []string{"", ""}, "Bob", "").Table}
	ok := 0
	for i := range 20 {
		// Two sockets from each of ten addresses of 127.5.0.0/24, on two tables.
		code, why, _ := spectateFrom(t, h, fmt.Sprintf("127.5.0.%d", 2+i/2), tables[i%2])
		switch {
		case code == 0:
			ok++
		case code != http.StatusTooManyRequests || why != "too_many_conns_network":
			t.Fatalf("socket %d from 127.5.0.0/24: refused with %d %q", i, code, why)
		}
	}
	if ok != cap {
		t.Fatalf("one /24 holds %d sockets; want %d", ok, cap)
	}
	if code, why, _ := spectateFrom(t, h, "127.5.1.2", tables[0]); code != 0 {
		t.Fatalf("a socket from another network was refused with %d %q", code, why)
	}
}

// The server as a whole holds Limits.TotalConns sockets at most, from any
// networks: beyond, 429 too_many_conns_server.
func TestConnsOfTheServerAreBounded(t *testing.T) {
	const cap = 4
	cfg := testConfig()
	cfg.Limits.TotalConns = cap
	h := newHarness(t, cfg)
	table := h.create("cabo", []string{"", ""}, "Ann", "").Table
	for i := range cap {
		if code, why, _ := spectateFrom(t, h, fmt.Sprintf("127.5.%d.2", i), table); code != 0 {
			t.Fatalf("socket %d refused with %d %q", i, code, why)
		}
	}
	if code, why, _ := spectateFrom(t, h, "127.6.0.2", table); code != http.StatusTooManyRequests || why != "too_many_conns_server" {
		t.Fatalf("a socket beyond the server's bound: %d %q", code, why)
	}
}
