package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"tapis/store"
)

// fuzzServer is a server with no limits, for the decoders' fuzz targets.
func fuzzServer(t testing.TB) *Server {
	ctx, cancel := context.WithCancel(context.Background())
	s, err := New(ctx, Config{Store: store.NewMemory(), BotDelay: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Limits: Limits{CreateEvery: -1, JoinEvery: -1, Waiting: -1, Conns: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); s.Wait() })
	return s
}

// Every WebSocket message a client may send is decoded without a panic;
// what decodes is a message with a type.
func FuzzDecodeClient(f *testing.F) {
	for _, s := range []string{`{"type":"move","move":{"type":"draw"}}`, `{"type":"ping"}`, `{"type":"move","n":3,"seat":1,"id":9,"move":{}}`,
		`{"type":"again"}}`, `[]`, `{"type":"move"}`, "\xff", `{"type":"move","move":null}`} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, data string, text bool) {
		typ := websocket.MessageBinary
		if text {
			typ = websocket.MessageText
		}
		m, err := decodeClient(typ, []byte(data))
		if err == nil && (!text || (m.Type == "move" && len(m.Move) == 0)) {
			t.Fatalf("%q decoded as %+v", data, m)
		}
	})
}

// Every body posted to create or join a table is answered, never with a
// panic or a server error: a 2xx or a 4xx that names the problem.
func FuzzRequestBodies(f *testing.F) {
	for _, s := range []string{`{"game":"cabo","players":2,"bots":["","random"],"name":"Ann"}`, `{"name":"Bob"}`,
		`{"game":"papayoo","players":4,"options":{"target":-1},"bots":["easy"],"turn_seconds":10}`, `{"game":"cabo"}{}`, `nul`, ``} {
		f.Add(s, false)
		f.Add(s, true)
	}
	s := fuzzServer(f)
	// A table with free seats to join.
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/api/tables", strings.NewReader(`{"game":"papayoo","players":8,"name":"Ann"}`))
	req.Header.Set("Content-Type", "application/json")
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		f.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	table := strings.Split(strings.Split(rec.Body.String(), `"table":"`)[1], `"`)[0]
	f.Fuzz(func(t *testing.T, body string, join bool) {
		path := "/api/tables"
		if join {
			path += "/" + table + "/join"
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		s.ServeHTTP(rec, req)
		if rec.Code >= 500 || (rec.Code >= 400 && !strings.Contains(rec.Body.String(), `"error":"`)) {
			t.Fatalf("%s %q: %d %s", path, body, rec.Code, rec.Body)
		}
	})
}
