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
		done <- serve(ctx, "127.0.0.1:0", filepath.Join(t.TempDir(), "t.db"), server.Config{BotDelay: -1}, &out, &errOut)
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
		filepath.Join(t.TempDir(), "t.db"): "*store.SQLite",
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
