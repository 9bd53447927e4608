package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// Finding 4: on a table with 20,700 moves, a welcome was 330 KB, the
// whole match's history encoded on the table's goroutine at every
// connect. Now a welcome holds the latest 500 events at most (the web
// client's log keeps no more), however long the match: here a Papayoo
// match of 20 rounds, well over a thousand moves, which a stand-in plays
// for Ann while a spectator watches.
func TestWelcomeIsBoundedWhateverTheHistory(t *testing.T) {
	cfg := testConfig()
	cfg.BotDelay, cfg.AwayAfter = time.Millisecond, time.Millisecond
	h := newHarness(t, cfg)
	ann := h.create("papayoo", []string{"", "random", "random"}, "Ann", `{"rounds":20}`)
	spec := h.dial(ann.Table, "")
	end := spec.watch("the end of the match", func(m infoMsg) bool { return m.Type == "state" && m.Status == "over" })
	if end.N < 1000 {
		t.Fatalf("the match ended after %d moves; the test needs a long one", end.N)
	}
	for _, token := range []string{"", ann.Token} {
		c := h.dial(ann.Table, token)
		var raw []byte
		select {
		case raw = <-c.msgs:
		case <-time.After(presenceWait):
			t.Fatal("no welcome")
		}
		var w msg
		if err := json.Unmarshal(raw, &w); err != nil || w.Type != "welcome" {
			t.Fatalf("the first message is %.100s", raw)
		}
		if len(w.History) != 500 {
			t.Fatalf("a welcome after %d moves holds %d events, not the latest 500", end.N, len(w.History))
		}
		if len(raw) > 64<<10 {
			t.Fatalf("a welcome after %d moves is %d bytes", end.N, len(raw))
		}
		t.Logf("seat token %v: welcome of %d bytes after %d moves", token != "", len(raw), end.N)
	}
}

// Finding 4: 48 spectator sockets reconnecting from one address pushed a
// table's move round trip from 6.5 ms to 303 ms median, as connects were
// not paced. Now the connections opened to one table from one network (an
// IPv4 /24) are paced: past the burst, from any address of that network,
// 429 with Retry-After; another network, and another table, are not
// touched.
func TestConnectsArePacedPerNetworkAndTable(t *testing.T) {
	const burst = 5
	cfg := testConfig()
	// A slow refill, so that none comes during the test.
	cfg.Limits.ConnectEvery, cfg.Limits.ConnectBurst = time.Hour, burst
	h := newHarness(t, cfg)
	a := h.create("cabo", []string{"", ""}, "Ann", "")
	b := h.create("cabo", []string{"", ""}, "Bob", "")
	ok, refused := 0, 0
	for i := 0; i < 48; i++ {
		// 48 spectators from as many addresses of 127.0.0.0/24.
		code, _, retry := spectateFrom(t, h, fmt.Sprintf("127.0.0.%d", 2+i), a.Table)
		switch code {
		case 0:
			ok++
		case http.StatusTooManyRequests:
			refused++
			if retry == "" {
				t.Fatal("a 429 without Retry-After")
			}
		default:
			t.Fatalf("connect %d: status %d", i, code)
		}
	}
	if ok != burst || refused != 48-burst {
		t.Fatalf("of 48 connects from one /24, %d were let in and %d refused; want %d and %d", ok, refused, burst, 48-burst)
	}
	if code, _, _ := spectateFrom(t, h, "127.0.1.2", a.Table); code != 0 {
		t.Fatalf("a spectator from another network was refused with %d", code)
	}
	if code, _, _ := spectateFrom(t, h, "127.0.0.2", b.Table); code != 0 {
		t.Fatalf("a spectator of another table from the same network was refused with %d", code)
	}
}
