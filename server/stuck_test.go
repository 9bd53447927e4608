package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tapis/store"
	"tapis/store/sqlite"
)

// hangUp sends a POST and hangs up after delay, without reading the answer:
// a client that closes its tab right after clicking.
func hangUp(t *testing.T, h *harness, path string, body any, delay time.Duration) {
	b, _ := json.Marshal(body)
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.hs.URL, "http://"))
	if err != nil {
		t.Error(err)
		return
	}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: tapis\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", path, len(b), b)
	time.Sleep(delay)
	conn.Close()
}

// stuck lists the stored tables whose seats are all taken and that have no
// match: tables that can never start.
func stuck(t *testing.T, st store.Store) (stuck []string, tables int) {
	t.Helper()
	open, err := st.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, sm := range open {
		if sm.Seated == sm.Players && !sm.Started {
			stuck = append(stuck, sm.ID)
		}
	}
	return stuck, len(open)
}

// Finding 3: clients that hang up right after asking for a full table (the
// creator and a bot), or right after a join that fills a table, leave no
// table with every seat taken that never starts, neither on the server nor
// after a restart on the same database.
func TestHungUpRequestsLeaveNoStuckTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tapis.db")
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.Store = db
	h := newHarness(t, cfg)
	const n = 300
	// Tables for the joins: the creator and one free seat.
	open := make([]string, n)
	for i := range open {
		open[i] = h.create("cabo", []string{"", ""}, "Ann", "").Table
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	for i := 0; i < n; i++ {
		d1 := time.Duration(rng.IntN(3000)) * time.Microsecond
		d2 := time.Duration(rng.IntN(3000)) * time.Microsecond
		wg.Add(2)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			hangUp(t, h, "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "Bo"}, d1)
		}()
		go func(id string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			hangUp(t, h, "/api/tables/"+id+"/join", map[string]string{"name": "Cy"}, d2)
		}(open[i])
	}
	wg.Wait()
	// The handlers may still be at work: wait until none is left stuck,
	// within a generous ceiling.
	var ids []string
	var tables int
	for deadline := time.Now().Add(30 * time.Second); ; {
		ids, tables = stuck(t, db)
		if len(ids) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(ids) > 0 {
		t.Fatalf("%d of %d stored tables have every seat taken and never started: %v", len(ids), tables, ids)
	}
	if tables <= n {
		t.Fatalf("only %d unfinished tables: the hung-up creations made none", tables)
	}
	// A client that hung up gets nothing, but the server keeps its word.
	h.stop()
	db.Close()
	db2, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	cfg2 := testConfig()
	cfg2.Store = db2
	h2 := newHarness(t, cfg2)
	if ids, _ := stuck(t, db2); len(ids) > 0 {
		t.Fatalf("after a restart, %d tables are stuck: %v", len(ids), ids)
	}
	// And every full table plays: its status says so.
	for _, id := range open[:20] {
		resp, err := http.Get(h2.hs.URL + "/api/tables/" + id)
		if err != nil {
			t.Fatal(err)
		}
		var in struct{ Status string }
		json.NewDecoder(resp.Body).Decode(&in)
		resp.Body.Close()
		if in.Status == "" {
			t.Fatalf("table %s: no status after the restart", id)
		}
	}
}
