package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"tapis/server"
)

// syncBuffer is a bytes.Buffer safe to read while serve writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serve answers on its address, and stops cleanly when its context ends
// (as runServe's does on SIGINT).
func TestServeStopsCleanly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, "127.0.0.1:0", "", filepath.Join(t.TempDir(), "t.db"), server.Config{BotDelay: -1}, &out, &errOut)
	}()
	re := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`)
	var addr string
	for i := 0; i < 200 && addr == ""; i++ {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			addr = m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	if addr == "" {
		t.Fatalf("serve did not say where it listens: %q %q", out.String(), errOut.String())
	}
	resp, err := http.Get("http://" + addr + "/api/games")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/games: %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// --db picks the store by its form: ":memory:", a PostgreSQL URL, or else
// a SQLite file. A PostgreSQL URL that cannot be reached says PostgreSQL
// (not SQLite) and keeps its password out of the message.
func TestServeOpensTheStoreNamed(t *testing.T) {
	ctx := context.Background()
	for db, want := range map[string]string{
		":memory:":                         "*store.Memory",
		filepath.Join(t.TempDir(), "t.db"): "*sqlite.Store",
	} {
		st, err := openStore(ctx, db)
		if err != nil {
			t.Fatalf("%s: %v", db, err)
		}
		if got := fmt.Sprintf("%T", st); got != want {
			t.Errorf("%s opens a %s, want %s", db, got, want)
		}
		st.Close()
	}
	// Nothing listens on port 1, so no server is needed.
	for _, db := range []string{
		"postgres://ann:hunter2@127.0.0.1:1/tapis?sslmode=disable",
		"postgresql://ann:hunter2@127.0.0.1:1/tapis?sslmode=disable",
		"POSTGRES://ann@127.0.0.1:1/tapis?sslmode=disable&password=hunter2",
		"postgres://ann:hunter2@127.0.0.1:port/tapis",
	} {
		st, err := openStore(ctx, db)
		if err == nil {
			st.Close()
			t.Fatalf("%s: opened", db)
		}
		msg := err.Error()
		if !strings.Contains(msg, "PostgreSQL") || strings.Contains(strings.ToLower(msg), "sqlite") || strings.Contains(msg, "hunter2") {
			t.Errorf("%s: %s", db, msg)
		}
	}
}

// What serve prints of --db never shows a PostgreSQL password.
func TestDescribeDBHidesThePassword(t *testing.T) {
	for db, want := range map[string]string{
		"tapis.db": "tapis.db",
		"postgres://ann:hunter2@db.example:5432/tapis?sslmode=require":            "postgres://ann:xxxxx@db.example:5432/tapis?sslmode=require",
		"postgres://ann@db.example/tapis?password=hunter2&search_path=tapis":      "postgres://ann@db.example/tapis?password=xxxxx&search_path=tapis",
		"postgresql://ann:hunter2@h1:5432,h2:5432/tapis?target_session_attrs=any": "postgresql://ann:xxxxx@h1:5432,h2:5432/tapis?target_session_attrs=any",
		"postgres://ann:hunter2@[::1/tapis":                                       "postgres://…",
	} {
		if got := describeDB(db); got != want {
			t.Errorf("describeDB(%q) = %q, want %q", db, got, want)
		}
	}
}

// --metrics-addr serves Prometheus's /metrics (Tapis's metrics, the Go
// runtime's and the process's) and the profiles of /debug/pprof/ on their
// own address; the public address serves neither.
func TestServeMetricsApart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, "127.0.0.1:0", "127.0.0.1:0", ":memory:", server.Config{BotDelay: -1}, &out, &errOut)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve stopped with %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop")
		}
	})
	public := regexp.MustCompile(`serving on http://(127\.0\.0\.1:\d+)`)
	private := regexp.MustCompile(`Metrics on http://(127\.0\.0\.1:\d+)/metrics`)
	var pub, met string
	for i := 0; i < 500 && (pub == "" || met == ""); i++ {
		if m := public.FindStringSubmatch(out.String()); m != nil {
			pub = m[1]
		}
		if m := private.FindStringSubmatch(out.String()); m != nil {
			met = m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pub == "" || met == "" || pub == met {
		t.Fatalf("serve said %q %q", out.String(), errOut.String())
	}
	get := func(url string) (int, string) {
		t.Helper()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return resp.StatusCode, b.String()
	}
	code, body := get("http://" + met + "/metrics")
	if code != http.StatusOK {
		t.Fatalf("GET /metrics: %d", code)
	}
	for _, want := range []string{"\ntapis_moves_total 0\n", `tapis_tables{status="waiting"} 0`,
		`tapis_connections{role="seat"} 0`, "\ngo_goroutines ", "\nprocess_cpu_seconds_total ", "\nprocess_resident_memory_bytes "} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics has no %q", want)
		}
	}
	for path, want := range map[string]string{"/debug/pprof/": "goroutine", "/debug/pprof/goroutine?debug=1": "goroutine profile:",
		"/debug/pprof/cmdline": "", "/debug/pprof/heap?debug=1": "heap profile:"} {
		code, body := get("http://" + met + path)
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("GET %s: %d %.100q", path, code, body)
		}
	}
	for _, path := range []string{"/metrics", "/debug/pprof/", "/debug/pprof/goroutine?debug=1", "/debug/pprof/cmdline"} {
		if code, body := get("http://" + pub + path); code == http.StatusOK {
			t.Errorf("the public address serves %s: %.100q", path, body)
		}
	}
}

// The metrics never share the public address.
func TestServeRefusesMetricsOnThePublicAddress(t *testing.T) {
	var out, errOut syncBuffer
	err := serve(context.Background(), "127.0.0.1:8089", "127.0.0.1:8089", ":memory:", server.Config{}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "--metrics-addr") {
		t.Fatalf("serve with the same address twice: %v", err)
	}
}
