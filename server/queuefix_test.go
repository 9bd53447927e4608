package server_test

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"testing"
	"time"

	"tapis/server"
	"tapis/store"
)

// personFrom is a browser on the loopback address ip: its own cookies.
func (h *harness) personFrom(ip string) *person {
	jar, _ := cookiejar.New(nil)
	c := from(ip)
	return &person{h: h, c: &http.Client{Jar: jar, Transport: c.Transport, Timeout: 30 * time.Second}}
}

// enqueueTimes joins the quick-match queue n times in a row (each entry
// replacing the last, each one a table the matcher may make) and counts
// the answers by status.
func (p *person) enqueueTimes(n int) map[int]int {
	p.h.t.Helper()
	codes := map[int]int{}
	for range n {
		codes[p.do("POST", "/api/queue", map[string]any{"game": "cabo", "players": 2, "name": "Quick", "wait_seconds": -1}, nil)]++
	}
	return codes
}

// Finding 13: quick match made tables 4–6× faster than the creation
// limit, as it spent the join budget (a burst of 20, then one a second,
// against 10 and one every 6 s). Each entry spends a table creation now:
// one client's 30 entries in a row get at most the creation burst of 10.
func TestQuickMatchSpendsTheCreationBudget(t *testing.T) {
	cfg := testConfig()
	cfg.Limits = server.Limits{} // the defaults
	h := newHarness(t, cfg)
	p := h.personFrom("127.6.0.1")
	codes := p.enqueueTimes(30)
	if codes[http.StatusOK] > 10 || codes[http.StatusTooManyRequests] == 0 {
		t.Fatalf("30 quick-match entries in a row: %v, want at most 10 accepted (the creation burst), the rest 429", codes)
	}
	// And the two ways of making a table share one budget: a client that
	// has created its burst of tables may not queue.
	q := h.personFrom("127.6.1.1")
	for i := range 10 {
		if code := q.do("POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "Maker"}, nil); code != http.StatusCreated {
			t.Fatalf("table %d: %d", i, code)
		}
	}
	if codes := q.enqueueTimes(1); codes[http.StatusTooManyRequests] != 1 {
		t.Fatalf("a queue entry after 10 tables created: %v, want 429", codes)
	}
}

// Finding 13, per network: the addresses of one /24 share their
// network's creation budget in the queue too.
func TestQuickMatchSpendsTheNetworkCreationBudget(t *testing.T) {
	cfg := testConfig()
	cfg.Limits = server.Limits{NetCreateBurst: 12}
	h := newHarness(t, cfg)
	ok := 0
	for _, ip := range []string{"127.7.0.1", "127.7.0.2", "127.7.0.3"} {
		ok += h.personFrom(ip).enqueueTimes(10)[http.StatusOK]
	}
	if ok > 12 {
		t.Fatalf("three addresses of one /24 got %d quick-match entries, want at most the network's burst of 12", ok)
	}
	// Another network's budget is its own.
	if codes := h.personFrom("127.8.0.1").enqueueTimes(1); codes[http.StatusOK] != 1 {
		t.Fatalf("another network's entry: %v, want 200", codes)
	}
}

// Finding 16: a first visit pressing Quick match at once was seated but
// stayed on the home form in 2 of 3 pairs: the one-time "seated" notice
// went to a request racing the page's poll. Now every request is told,
// however many race, until the player leaves the queue; and an entry
// whose table is over is forgotten.
func TestQuickMatchSeatedNoticeIsToldToEveryRequest(t *testing.T) {
	h := newHarness(t, testConfig())
	ada, bea := h.person(), h.person()
	ada.must(http.StatusOK, "POST", "/api/queue", map[string]any{"game": "cabo", "players": 2, "name": "Ada", "wait_seconds": -1}, nil)
	bea.must(http.StatusOK, "POST", "/api/queue", map[string]any{"game": "cabo", "players": 2, "name": "Bea", "wait_seconds": -1}, nil)
	table, _ := ada.untilSeated(t)
	// Three requests at once, as a page's load, its poll and its
	// player's making may send them: each is told where.
	answers := make(chan string, 3)
	for range 3 {
		go func() {
			var q queueResp
			if code := ada.do("GET", "/api/queue", nil, &q); code != http.StatusOK || q.Entry == nil {
				answers <- ""
				return
			}
			answers <- q.Entry.Table
		}()
	}
	var told []string
	for range 3 {
		told = append(told, <-answers)
	}
	for _, got := range told {
		if got != table {
			t.Fatalf("requests racing each other were told %q, want table %s each time", told, table)
		}
	}
	// Bea's table ends (it is closed): her entry is forgotten then.
	if err := h.store.CloseTable(context.Background(), table, store.Abandoned, "test"); err != nil {
		t.Fatal(err)
	}
	var q queueResp
	bea.must(http.StatusOK, "GET", "/api/queue", nil, &q)
	if q.Entry != nil {
		t.Fatalf("an entry whose table is closed: %+v, want none", q.Entry)
	}
}
