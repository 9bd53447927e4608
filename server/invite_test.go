package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"tapis/limit"
)

// The invite link a table's creator is given (and a guest who joins) is
// absolute and names the host the request reached the server under, or
// the one a trusted proxy forwards: never "localhost" for everyone.
func TestInviteLink(t *testing.T) {
	// post creates a table (or joins one, when table is not "") through the
	// real server with the given Host and headers, and returns the answer's
	// invite link and the table's id.
	post := func(t *testing.T, h *harness, table, host string, headers map[string]string) (invite, id string) {
		t.Helper()
		path, body := "/api/tables", `{"game":"cabo","players":2,"bots":["",""],"name":"Alice"}`
		if table != "" {
			path, body = "/api/tables/"+table+"/join", `{"name":"Bob"}`
		}
		req, err := http.NewRequest("POST", h.hs.URL+path, bytes.NewReader([]byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Host = host
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := h.hs.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r struct{ Table, Invite string }
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode >= 300 {
			t.Fatalf("POST %s: status %d, %v", path, resp.StatusCode, err)
		}
		return r.Invite, r.Table
	}
	forwarded := map[string]string{"X-Forwarded-Host": "cards.example", "X-Forwarded-Proto": "https"}

	t.Run("direct", func(t *testing.T) {
		h := newHarness(t, testConfig())
		invite, id := post(t, h, "", "tapis.example:8080", nil)
		if want := "http://tapis.example:8080/t/" + id; invite != want {
			t.Errorf("created under Host tapis.example:8080: invite %q, want %q", invite, want)
		}
		// A peer that is no trusted proxy cannot choose the host.
		invite, id = post(t, h, "", "tapis.example:8080", forwarded)
		if want := "http://tapis.example:8080/t/" + id; invite != want {
			t.Errorf("an untrusted peer's forwarded headers: invite %q, want %q", invite, want)
		}
		// The guest who joins is given the same link.
		if invite, _ = post(t, h, id, "tapis.example:8080", nil); invite != "http://tapis.example:8080/t/"+id {
			t.Errorf("join: invite %q", invite)
		}
	})
	t.Run("trusted proxy", func(t *testing.T) {
		cfg := testConfig()
		var err error
		// The test's requests come from 127.0.0.1: it is the proxy.
		if cfg.Proxies, err = limit.ParseProxies("127.0.0.1/32"); err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, cfg)
		invite, id := post(t, h, "", "127.0.0.1:8080", forwarded)
		if want := "https://cards.example/t/" + id; invite != want {
			t.Errorf("behind a trusted proxy: invite %q, want %q", invite, want)
		}
		invite, id = post(t, h, "", "tapis.example:8080", nil)
		if want := "http://tapis.example:8080/t/" + id; invite != want {
			t.Errorf("a trusted proxy that forwards nothing: invite %q, want %q", invite, want)
		}
	})
}
