package table

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tapis/store"
)

// fuzzServer is a host with no limits, for the decoders' fuzz targets.
func fuzzServer(t testing.TB) http.Handler {
	_, h := testHost(t, Config{Store: store.NewMemory(), BotDelay: -1})
	return h
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
