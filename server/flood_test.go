package server_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"tapis/server"
)

// from is an HTTP client whose connections come from the loopback address
// ip, so that a test can be two clients on one machine.
func from(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 20 * time.Second}
}

func postFrom(t *testing.T, c *http.Client, url string, body any, out any) *http.Response {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := c.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		json.NewDecoder(resp.Body).Decode(out)
	}
	return resp
}

// Finding 1: one address looping table creations and joins gets 429 with
// a Retry-After once past its burst, holds no more than its share of
// waiting tables, and never stops another address from creating and
// playing a table.
func TestFloodFromOneAddressSparesAnother(t *testing.T) {
	cfg := testConfig()
	cfg.Limits = server.Limits{} // the defaults, as tapis serve has them
	cfg.MaxTables = 50
	h := newHarness(t, cfg)
	flood, other := from("127.0.0.2"), from("127.0.0.3")
	created, refused, first := 0, 0, ""
	for i := 0; i < 500; i++ {
		var r struct{ Code, Table string }
		resp := postFrom(t, flood, h.hs.URL+"/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "name": "Flood"}, &r)
		switch resp.StatusCode {
		case http.StatusCreated:
			created++
			first = cmp.Or(first, r.Table)
		case http.StatusTooManyRequests:
			refused++
			if resp.Header.Get("Retry-After") == "" {
				t.Fatalf("a 429 (%s) without Retry-After", r.Code)
			}
		default:
			t.Fatalf("flood request %d: status %d %s", i, resp.StatusCode, r.Code)
		}
	}
	if created > 10 || refused == 0 {
		t.Fatalf("the flood created %d tables and was refused %d times; want at most 10 (its waiting tables)", created, refused)
	}
	// Joins are bounded too: the flood's own table, asked again and
	// again, ends in 429.
	codes := map[int]int{}
	for i := 0; i < 40; i++ {
		codes[postFrom(t, flood, h.hs.URL+"/api/tables/"+first+"/join", map[string]string{"name": "Again"}, nil).StatusCode]++
	}
	if codes[http.StatusTooManyRequests] == 0 {
		t.Fatalf("40 joins in a row: %v, want some 429", codes)
	}
	// The other address creates a table, is joined by a friend, and both
	// play; and a table with a bot plays too.
	var ann, bob seatResp
	if resp := postFrom(t, other, h.hs.URL+"/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "name": "Ann"}, &ann); resp.StatusCode != http.StatusCreated {
		t.Fatalf("another address cannot create a table: %d", resp.StatusCode)
	}
	if resp := postFrom(t, other, h.hs.URL+"/api/tables/"+ann.Table+"/join", map[string]string{"name": "Bob"}, &bob); resp.StatusCode != http.StatusOK {
		t.Fatalf("another address cannot join: %d", resp.StatusCode)
	}
	errs := make(chan error, 1)
	go func() {
		_, err := playRandom(h.dial(ann.Table, bob.Token), bob.Seat, 2, 8)
		errs <- err
	}()
	if _, err := playRandom(h.dial(ann.Table, ann.Token), ann.Seat, 1, 8); err != nil {
		t.Fatal(err)
	}
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
}

// Finding 1: one address may hold only so many WebSockets.
func TestConnectionsPerAddressAreBounded(t *testing.T) {
	cfg := testConfig()
	cfg.Limits.Conns = 5
	h := newHarness(t, cfg)
	ann := h.create("cabo", []string{"", "random"}, "Ann", "")
	for i := 0; i < 5; i++ {
		h.dial(ann.Table, "")
	}
	if _, err := h.tryDial(ann.Table, ""); err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("a sixth connection from one address: %v, want 429", err)
	}
}
