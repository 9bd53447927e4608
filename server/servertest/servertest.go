// Package servertest runs a real Tapis server on a loopback port for
// tests, as net/http/httptest does for a handler: the server's own tests
// and the web client's browser tests (web/browser) start one with New and
// talk to it as clients do, over HTTP (Post, Create, Join, Info, a
// Person's cookies) and WebSocket (Dial, then a Client's Next, Send...).
//
// Every helper that fails fails the test that started the server: they
// are for the test's goroutine, except the ones whose names end in E,
// which return errors for other goroutines.
package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"tapis/game"
	"tapis/server"
	"tapis/store"
)

// Patience is how long a test waits for what must come (Client.Within):
// far more than it takes, so that a loaded machine does not fail a test.
const Patience = 60 * time.Second

// Server is a Tapis server listening on a loopback port, with the real
// server's timeouts, as tapis serve sets them.
type Server struct {
	// URL is the server's base address, http://127.0.0.1:port.
	URL string
	// HTTP is the listener; its Client() talks to the server.
	HTTP *httptest.Server
	// Store is the server's store, for tests that check what it keeps.
	Store store.Store

	t      testing.TB
	srv    *server.Server
	cancel context.CancelFunc
}

// New starts a server configured by cfg, closed when the test ends. A
// zero cfg.Store is a memory store; bots move at once unless
// cfg.BotDelay says otherwise; seeds count up from 1 and bots' secret is
// fixed, so that games are the same at every run; the log is discarded
// unless cfg.Logger is set.
func New(t testing.TB, cfg server.Config) *Server {
	t.Helper()
	if cfg.Store == nil {
		cfg.Store = store.NewMemory()
	}
	if cfg.BotDelay == 0 {
		cfg.BotDelay = -1
	}
	if cfg.Seed == nil {
		var mu sync.Mutex
		next := uint64(0)
		cfg.Seed = func() uint64 {
			mu.Lock()
			defer mu.Unlock()
			next++
			return next
		}
	}
	if cfg.Logger == nil {
		// TAPIS_TEST_LOG=1 shows the server's warnings and errors, to
		// find why a test's client or page lost its table.
		var w io.Writer = io.Discard
		if os.Getenv("TAPIS_TEST_LOG") != "" {
			w = os.Stderr
		}
		cfg.Logger = slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if cfg.Secret == nil {
		// Bots play the same games at every run, as the seeds above deal
		// the same cards.
		cfg.Secret = []byte("tapis tests")
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := server.New(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(srv)
	hs.Config = srv.HTTPServer()
	hs.Start()
	s := &Server{URL: hs.URL, HTTP: hs, Store: cfg.Store, t: t, srv: srv, cancel: cancel}
	t.Cleanup(s.Close)
	return s
}

// Unlimited is the configuration of a test that is not about limits: one
// client (the test) makes every table, so the per-client limits and the
// rate limit are off, and the normal and hard bots search little, so that
// games go as fast as the machine.
func Unlimited() server.Config {
	return server.Config{Rate: -1, Levels: map[string]string{"normal": "normal@30", "hard": "hard@60"},
		Limits: server.Limits{CreateEvery: -1, JoinEvery: -1, Waiting: -1, Conns: -1, Watchers: -1, SeatConns: -1, ConnectEvery: -1}}
}

// Close stops the server's tables, closes its connections and listener,
// and waits for the server to be done. New calls it when the test ends;
// a test calls it earlier to restart a server on the same store.
func (s *Server) Close() {
	s.cancel()
	s.HTTP.CloseClientConnections()
	s.HTTP.Close()
	s.srv.Wait()
}

// Seat is the answer to a table's creation or a join: the seat taken and
// the token that takes it over the WebSocket.
type Seat struct {
	Table string    `json:"table"`
	Seat  game.Seat `json:"seat"`
	Token string    `json:"token"`
}

// Post sends body as JSON to path, decodes the answer into out (unless
// nil) and returns the status code.
func (s *Server) Post(path string, body any, out any) int {
	s.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(s.URL+path, "application/json", bytes.NewReader(b))
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

// Create makes a table of gameName with options opts (JSON, "" for the
// defaults); bots[i] == "" is a human seat, the creator (named name, when
// not empty) takes the first.
func (s *Server) Create(gameName string, bots []string, name string, opts string) Seat {
	s.t.Helper()
	req := map[string]any{"game": gameName, "players": len(bots), "bots": bots, "name": name}
	if opts != "" {
		req["options"] = json.RawMessage(opts)
	}
	var r Seat
	if code := s.Post("/api/tables", req, &r); code != http.StatusCreated {
		s.t.Fatalf("create %s: status %d", gameName, code)
	}
	return r
}

// Join takes a free seat at table under name.
func (s *Server) Join(table, name string) Seat {
	s.t.Helper()
	var r Seat
	if code := s.Post("/api/tables/"+table+"/join", map[string]string{"name": name}, &r); code != http.StatusOK {
		s.t.Fatalf("join %s: status %d", table, code)
	}
	return r
}

// TableInfo is a table as GET /api/tables/{id} gives it.
type TableInfo struct {
	Status      string `json:"status"`
	Host        int    `json:"host"`
	MemoryAid   bool   `json:"memory_aid"`
	TurnSeconds int    `json:"turn_seconds"`
	Seats       []struct {
		Name, Bot string
		Free      bool
	} `json:"seats"`
	// Rated is a rated table's; Ratings, by seat, its players' ratings
	// before and after a rated match.
	Rated   bool `json:"rated"`
	Ratings []struct {
		Before, After int
		Provisional   bool
	} `json:"ratings"`
}

// Info reads a table through the API, as someone without a session.
func (s *Server) Info(table string) TableInfo {
	s.t.Helper()
	resp, err := http.Get(s.URL + "/api/tables/" + table)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var in TableInfo
	if err := json.NewDecoder(resp.Body).Decode(&in); err != nil {
		s.t.Fatal(err)
	}
	return in
}
