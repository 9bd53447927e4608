package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/game"
	"tapis/server"
	"tapis/store"
)

// harness is a real server on a loopback port.
type harness struct {
	t      testing.TB
	store  store.Store
	srv    *server.Server
	hs     *httptest.Server
	cancel context.CancelFunc
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// newHarness starts a server; cfg.Store defaults to a memory store, bots
// move at once, and seeds count up from 1 so that games are reproducible.
func newHarness(t testing.TB, cfg server.Config) *harness {
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
		cfg.Logger = quietLogger()
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
	// The real server's timeouts, as tapis serve sets them.
	hs := httptest.NewUnstartedServer(srv)
	hs.Config = srv.HTTPServer()
	hs.Start()
	h := &harness{t: t, store: cfg.Store, srv: srv, hs: hs, cancel: cancel}
	t.Cleanup(h.stop)
	return h
}

// stop cancels the server's tables and closes its listener.
func (h *harness) stop() {
	h.cancel()
	h.hs.CloseClientConnections()
	h.hs.Close()
	h.srv.Wait()
}

type seatResp struct {
	Table string    `json:"table"`
	Seat  game.Seat `json:"seat"`
	Token string    `json:"token"`
}

// post sends JSON and decodes the answer; it returns the status code.
func (h *harness) post(path string, body any, out any) int {
	h.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(h.hs.URL+path, "application/json", bytes.NewReader(b))
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

// create makes a table; bots[i] == "" is a human seat, the creator
// (named name, when not empty) takes the first.
func (h *harness) create(gameName string, bots []string, name string, opts string) seatResp {
	h.t.Helper()
	req := map[string]any{"game": gameName, "players": len(bots), "bots": bots, "name": name}
	if opts != "" {
		req["options"] = json.RawMessage(opts)
	}
	var r seatResp
	if code := h.post("/api/tables", req, &r); code != http.StatusCreated {
		h.t.Fatalf("create %s: status %d", gameName, code)
	}
	return r
}

func (h *harness) join(table, name string) seatResp {
	h.t.Helper()
	var r seatResp
	if code := h.post("/api/tables/"+table+"/join", map[string]string{"name": name}, &r); code != http.StatusOK {
		h.t.Fatalf("join %s: status %d", table, code)
	}
	return r
}

// client is a WebSocket client that keeps every message it receives.
type client struct {
	t    testing.TB
	ws   *websocket.Conn
	msgs chan []byte
	all  [][]byte // every message, in order, for the leak test
	mu   sync.Mutex
	done chan struct{}
}

func (h *harness) dial(table, token string) *client {
	h.t.Helper()
	c, err := h.tryDial(table, token)
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

func (h *harness) tryDial(table, token string) (*client, error) {
	url := "ws" + strings.TrimPrefix(h.hs.URL, "http") + "/api/tables/" + table + "/ws"
	if token != "" {
		url += "?token=" + token
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, err
	}
	return h.wrap(ws), nil
}

// wrap makes a client of an open WebSocket: a goroutine reads every
// message into it until the socket closes.
func (h *harness) wrap(ws *websocket.Conn) *client {
	ws.SetReadLimit(1 << 22)
	c := &client{t: h.t, ws: ws, msgs: make(chan []byte, 100000), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer close(c.msgs)
		for {
			_, b, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			c.mu.Lock()
			c.all = append(c.all, b)
			c.mu.Unlock()
			c.msgs <- b
		}
	}()
	h.t.Cleanup(func() { ws.CloseNow() })
	return c
}

func (c *client) send(v any) {
	c.t.Helper()
	var b []byte
	switch x := v.(type) {
	case string:
		b = []byte(x)
	case []byte:
		b = x
	default:
		b, _ = json.Marshal(v)
	}
	if err := c.ws.Write(context.Background(), websocket.MessageText, b); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// msg is any server message, decoded loosely.
type msg struct {
	Type   string            `json:"type"`
	Seat   game.Seat         `json:"seat"`
	Code   string            `json:"code"`
	Error  string            `json:"error"`
	N      int               `json:"n"`
	Match  int               `json:"match"`
	By     game.Seat         `json:"by"`
	Status string            `json:"status"`
	Legal  []json.RawMessage `json:"legal"`
	ToMove []game.Seat       `json:"to_move"`
	View   json.RawMessage   `json:"view"`
	Events []json.RawMessage `json:"events"`
	Result game.Result       `json:"result"`
	Table  struct {
		Status string `json:"status"`
	} `json:"table"`
	History []json.RawMessage `json:"history"`
	Count   int               `json:"count"` // "watchers"
}

// next returns the next message of one of the types (any type if none),
// skipping others; it fails the test after a timeout.
func (c *client) next(types ...string) msg {
	c.t.Helper()
	m, err := c.nextE(types...)
	if err != nil {
		c.t.Fatal(err)
	}
	return m
}

// nextE is next for other goroutines than the test's: it returns errors.
func (c *client) nextE(types ...string) (msg, error) {
	timeout := time.After(20 * time.Second)
	for {
		select {
		case b, ok := <-c.msgs:
			if !ok {
				return msg{}, fmt.Errorf("connection closed while waiting for %v", types)
			}
			var m msg
			if err := json.Unmarshal(b, &m); err != nil {
				return msg{}, fmt.Errorf("bad message %s: %v", b, err)
			}
			if len(types) == 0 {
				return m, nil
			}
			for _, ty := range types {
				if m.Type == ty {
					return m, nil
				}
			}
		case <-timeout:
			return msg{}, fmt.Errorf("no %v message in 20s", types)
		}
	}
}

// sendE is send for other goroutines than the test's.
func (c *client) sendE(v any) error {
	b, _ := json.Marshal(v)
	return c.ws.Write(context.Background(), websocket.MessageText, b)
}

// messages returns a copy of every message received so far.
func (c *client) messages() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.all...)
}

func (c *client) String() string { return fmt.Sprintf("client %p", c) }
