package server_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"tapis/server"
	"tapis/store"
)

// flood makes every address of ips try tries waiting tables (public,
// for two, nobody but their creator), 64 requests at a time, and counts
// the answers by status and code.
func flood(t *testing.T, h *harness, ips []string, tries int) map[string]int {
	t.Helper()
	var mu sync.Mutex
	codes := map[string]int{}
	work := make(chan string)
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ip := range work {
				c := from(ip)
				for range tries {
					var r struct{ Code string }
					resp := postFrom(t, c, h.hs.URL+"/api/tables", map[string]any{"game": "cabo", "players": 2, "name": "Flood", "public": true}, &r)
					mu.Lock()
					codes[fmt.Sprintf("%d %s", resp.StatusCode, r.Code)]++
					mu.Unlock()
				}
				c.CloseIdleConnections()
			}
		}()
	}
	for _, ip := range ips {
		work <- ip
	}
	close(work)
	wg.Wait()
	return codes
}

// newcomerPlays creates a table with a bot from ip and plays its first
// moves there, failing the test if either is refused.
func newcomerPlays(t *testing.T, h *harness, ip string, created seatResp) {
	t.Helper()
	if _, err := playRandom(h.dialFrom(ip, created.Table, created.Token), created.Seat, 1, 4); err != nil {
		t.Fatalf("the newcomer cannot play: %v", err)
	}
}

// Finding 5: 970 addresses × 10 waiting tables filled MaxTables in 3 s,
// and every newcomer then got 503. Here a flood from 1,000 addresses over
// 4 /24s (127.1.0.x to 127.4.0.x, 250 each, 4 tables each: 4,000 tries
// at a server holding 1,000 tables, enough to fill it before) spends only
// its networks' shares, and a newcomer from another network (127.9.9.9)
// creates a table and plays at once.
func TestFloodFromFourNetworksSparesANewcomer(t *testing.T) {
	cfg := testConfig()
	cfg.Limits = server.Limits{} // the defaults, as tapis serve has them
	cfg.MaxTables = 1000
	h := newHarness(t, cfg)
	var ips []string
	for n := 1; n <= 4; n++ {
		for i := 1; i <= 250; i++ {
			ips = append(ips, fmt.Sprintf("127.%d.0.%d", n, i))
		}
	}
	began := time.Now()
	codes := flood(t, h, ips, 4)
	took := time.Since(began)
	var created seatResp
	resp := postFrom(t, from("127.9.9.9"), h.hs.URL+"/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "Newcomer"}, &created)
	t.Logf("flood of %d tries from 1,000 addresses in 4 /24s in %v: %v; the newcomer's create: %d after %v",
		len(ips)*4, took.Round(time.Millisecond), codes, resp.StatusCode, time.Since(began).Round(time.Millisecond))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("a newcomer from another network cannot create a table after the flood: %d", resp.StatusCode)
	}
	if n := codes["201 "]; n > 4*100 {
		t.Fatalf("the flood created %d tables; want at most its 4 networks' shares (100 each)", n)
	}
	newcomerPlays(t, h, "127.9.9.9", created)
}

// Finding 5, under pressure: when floods from enough networks have
// filled the server after all, the tables they left waiting with nobody
// at them expire within Limits.BusyIdle (a minute at most with the
// default), and a newcomer refused 503 at first creates a table and plays
// as soon as they have.
func TestBusyServerExpiresUnattendedWaitingTables(t *testing.T) {
	cfg := testConfig()
	cfg.Limits = server.Limits{NetTables: 8, BusyIdle: 200 * time.Millisecond}
	cfg.MaxTables = 40
	st := store.NewMemory()
	cfg.Store = st
	h := newHarness(t, cfg)
	// Five networks of 8 addresses, one table each: the 40 tables.
	var ips []string
	for n := 1; n <= 5; n++ {
		for i := 1; i <= 8; i++ {
			ips = append(ips, fmt.Sprintf("127.%d.1.%d", n, i))
		}
	}
	codes := flood(t, h, ips, 1)
	if codes["201 "] != 40 {
		t.Fatalf("the flood made %v, want 40 tables", codes)
	}
	newcomer := from("127.9.9.9")
	body := map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "Newcomer"}
	var created seatResp
	first := postFrom(t, newcomer, h.hs.URL+"/api/tables", body, &created).StatusCode
	if first != http.StatusServiceUnavailable {
		t.Fatalf("a newcomer at a full server: %d, want 503 (the test's premise)", first)
	}
	deadline := time.Now().Add(time.Minute)
	for postFrom(t, newcomer, h.hs.URL+"/api/tables", body, &created).StatusCode != http.StatusCreated {
		if time.Now().After(deadline) {
			t.Fatal("the newcomer is still refused a minute later: the flood's waiting tables did not expire")
		}
		time.Sleep(50 * time.Millisecond)
	}
	newcomerPlays(t, h, "127.9.9.9", created)
	// The flood's tables went as expired, not merely to sleep.
	ids, err := st.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	expired := 0
	for _, id := range ids {
		sv, err := st.Load(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if sv.Closed == store.Expired {
			expired++
		}
	}
	if expired == 0 {
		t.Fatal("no table of the flood was closed as expired")
	}
}
