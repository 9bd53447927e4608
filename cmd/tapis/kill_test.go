package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"
)

// TestMain lets the test binary be `tapis` itself, so that a test can run
// `tapis serve` as a child process and kill it.
func TestMain(m *testing.M) {
	if args := os.Getenv("TAPIS_TEST_RUN"); args != "" {
		os.Exit(run(strings.Fields(args), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// startServe runs `tapis serve` in a child process, with extra flags
// (without spaces), and returns its base URL once it listens.
func startServe(t *testing.T, db string, extra ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd, rd := serveChild(t, "--addr 127.0.0.1:0 --bot-delay 1ms --db "+db+" "+strings.Join(extra, " "))
	line, err := rd.ReadString('\n')
	if err != nil {
		t.Fatalf("tapis serve said nothing: %v", err)
	}
	m := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("tapis serve said %q", line)
	}
	go rd.WriteTo(io.Discard)
	return cmd, "http://" + m[1]
}

type wsState struct {
	Type   string            `json:"type"`
	Seat   int               `json:"seat"`
	N      int               `json:"n"`
	By     int               `json:"by"`
	Status string            `json:"status"`
	Legal  []json.RawMessage `json:"legal"`
	ToMove []int             `json:"to_move"`
}

// playTo plays the first legal move whenever seat 0 must act, until the
// table has applied n moves or the game is over; it returns the last state.
func playTo(t *testing.T, base, table, token string, n int) wsState {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/tables/"+table+"/ws?token="+token, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 22)
	pending := false
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var m wsState
		json.Unmarshal(b, &m)
		if m.Type == "welcome" && m.Seat != 0 {
			t.Fatalf("welcomed at seat %d", m.Seat)
		}
		if m.Type == "error" && !bytes.Contains(b, []byte(`"too_fast"`)) {
			// too_fast is expected: this client plays faster than the
			// server's rate limit lets it, and is slowed down.
			t.Fatalf("error: %s", b)
		}
		if m.Type != "state" {
			continue
		}
		if m.Status == "over" || m.N >= n {
			return m
		}
		if m.By == 0 {
			pending = false
		}
		if !pending && slices.Contains(m.ToMove, 0) && len(m.Legal) > 0 {
			pending = true
			ws.Write(ctx, websocket.MessageText, []byte(`{"type":"move","move":`+string(m.Legal[0])+`}`))
		}
	}
}

// `tapis serve` killed with SIGKILL mid-game and started again on the same
// database: the table goes on where it was, the seat token still seats its
// player, and the game finishes. On SQLite, and on PostgreSQL when
// TAPIS_TEST_POSTGRES names a server.
func TestServeSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Run("sqlite", func(t *testing.T) { survivesSIGKILL(t, filepath.Join(t.TempDir(), "tapis.db")) })
	t.Run("postgres", func(t *testing.T) { survivesSIGKILL(t, postgresDB(t)) })
}

func survivesSIGKILL(t *testing.T, db string) {
	cmd, base := startServe(t, db)
	body := `{"game":"cabo","players":3,"bots":["","random","random"],"name":"Ann"}`
	resp, err := http.Post(base+"/api/tables", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var seat struct{ Table, Token string }
	json.NewDecoder(resp.Body).Decode(&seat)
	resp.Body.Close()
	before := playTo(t, base, seat.Table, seat.Token, 10)
	if before.Status != "playing" {
		t.Fatalf("the game is %s after %d moves", before.Status, before.N)
	}
	cmd.Process.Kill() // SIGKILL: no shutdown of any kind
	cmd.Wait()

	_, base = startServe(t, db)
	after := playTo(t, base, seat.Table, seat.Token, 0)
	if after.N < before.N {
		t.Fatalf("after the restart the table is at move %d, was at %d", after.N, before.N)
	}
	if end := playTo(t, base, seat.Table, seat.Token, 1<<30); end.Status != "over" {
		t.Fatalf("the game did not finish: %+v", end)
	}
}

// postgresDB returns a URL of the server TAPIS_TEST_POSTGRES names, on a
// schema of the test's own that is dropped when it ends; without the
// variable, the test skips.
func postgresDB(t *testing.T) string {
	base := os.Getenv("TAPIS_TEST_POSTGRES")
	if base == "" {
		t.Skip("TAPIS_TEST_POSTGRES is not set: point it at a PostgreSQL database where the test may create schemas " +
			"(postgres://user@127.0.0.1:5432/postgres?sslmode=disable) to run this on PostgreSQL; .ci/run starts one")
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("TAPIS_TEST_POSTGRES does not parse as a URL")
	}
	schema := fmt.Sprintf("tapis_cmd_test_%d", time.Now().UnixNano())
	pgExec(t, base, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { pgExec(t, base, "DROP SCHEMA "+schema+" CASCADE") })
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// pgQueryRow reads one row of one statement into dest, on a connection of
// its own.
func pgQueryRow(t *testing.T, dsn, sql string, dest ...any) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("TAPIS_TEST_POSTGRES: %v", err)
	}
	defer c.Close(ctx)
	if err := c.QueryRow(ctx, sql).Scan(dest...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// pgExec runs one statement on a connection of its own.
func pgExec(t *testing.T, dsn, sql string) {
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("TAPIS_TEST_POSTGRES: %v", err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}
