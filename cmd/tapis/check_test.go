package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
	"tapis/server"
	"tapis/store"
	"tapis/store/postgres"
	"tapis/store/sqlite"
)

// fillCheckDB writes to st a waiting table, a table "clean" with a cabo
// match of legal moves, and, if illegal, a table "bad" whose match has a
// move its game refuses (a legal move of one seat, recorded as the other
// seat's) after a few legal ones.
func fillCheckDB(t *testing.T, st store.Store, illegal bool) {
	t.Helper()
	ctx := context.Background()
	seats := []store.Seat{{Name: "Ann", TokenHash: "h1"}, {Bot: "random"}}
	if err := st.CreateTable(ctx, store.Table{ID: "waiting", Game: "papayoo", Players: 3, Options: json.RawMessage(`{}`),
		Seats: make([]store.Seat, 3)}, nil); err != nil {
		t.Fatal(err)
	}
	ids := []string{"clean"}
	if illegal {
		ids = append(ids, "bad")
	}
	for _, id := range ids {
		if err := st.CreateTable(ctx, store.Table{ID: id, Game: "cabo", Players: 2, Seats: seats}, &store.Start{No: 1, Seed: 7}); err != nil {
			t.Fatal(err)
		}
		playMoves(t, st, id, 7, 12, id == "bad")
	}
}

// playMoves records n legal moves of a 2-seat cabo match from seed at
// table id; with wrong, the last is a move one seat may make recorded as
// the other seat's, which the rules refuse.
func playMoves(t *testing.T, st store.Store, id string, seed uint64, n int, wrong bool) {
	t.Helper()
	g := games.Named("cabo")
	s, err := g.New(game.Config{Players: 2, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		seat := s.ToMove().First()
		legal := s.Legal(seat, nil)
		if len(legal) == 0 {
			t.Fatalf("move %d: seat %d has no move", i, seat)
		}
		m, by := legal[0], seat
		if wrong && i == n-1 {
			by = 1 - seat
			if s.Clone().Apply(by, m, nil) == nil {
				t.Fatalf("move %d: seat %d's move is legal for seat %d too; pick another", i, seat, by)
			}
		} else if err := s.Apply(seat, m, nil); err != nil {
			t.Fatal(err)
		}
		js, err := g.MarshalMove(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.AppendMove(context.Background(), id, 1, i, store.Move{Seat: int(by), Move: js}); err != nil {
			t.Fatal(err)
		}
	}
}

// sqliteCheckDB makes a SQLite database for tapis check and returns its
// path.
func sqliteCheckDB(t *testing.T, illegal bool) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tapis.db")
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	fillCheckDB(t, st, illegal)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkAnswers runs tapis check on db, clean then with an illegal move,
// and checks its exit codes and lines.
func checkAnswers(t *testing.T, clean, illegal string) {
	code, out, errs := tapis("check", "--db", clean)
	if code != 0 || !strings.HasPrefix(out, "ok: 2 tables, 12 moves replayed\n") || errs != "" {
		t.Fatalf("a clean database: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, _ = tapis("check", "--db", illegal)
	bad := regexp.MustCompile(`(?m)^table bad: match 1: move 11 \(seat \d\) is refused: .+$`)
	if code != 1 || !bad.MatchString(out) || strings.Contains(out, "clean") || strings.Contains(out, "waiting") ||
		!strings.Contains(out, "1 problem: 3 tables, 23 moves replayed") {
		t.Fatalf("a database with an illegal move: exit %d, stdout %q", code, out)
	}
}

// tapis check passes a clean SQLite database, and fails one with an
// illegal move naming that table alone.
func TestCheckSQLite(t *testing.T) {
	checkAnswers(t, sqliteCheckDB(t, false), sqliteCheckDB(t, true))
}

// The same on PostgreSQL.
func TestCheckPostgres(t *testing.T) {
	var dbs [2]string
	for i, illegal := range []bool{false, true} {
		dbs[i] = postgresDB(t)
		st, err := postgres.Open(context.Background(), dbs[i])
		if err != nil {
			t.Fatal(err)
		}
		fillCheckDB(t, st, illegal)
		st.Close()
	}
	checkAnswers(t, dbs[0], dbs[1])
}

// tapis check fails a database file whose pages are damaged, naming the
// integrity check, and the table whose moves it cannot read.
func TestCheckDamagedFile(t *testing.T) {
	path := sqliteCheckDB(t, false)
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	var root, size int64
	err = db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = 'tapis_moves'`).Scan(&root)
	if err == nil {
		err = db.QueryRow(`PRAGMA page_size`).Scan(&size)
	}
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The moves page's header: a page type no b-tree has.
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xff}, 64), (root-1)*size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, out, _ := tapis("check", "--db", path)
	if code != 1 || !strings.Contains(out, "database: store: integrity check: ") || !strings.Contains(out, "table clean: ") {
		t.Fatalf("a damaged file: exit %d, stdout %q", code, out)
	}
}

// A file that is not there is a usage error, and is not created.
func TestCheckMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "typo.db")
	if code, _, errs := tapis("check", "--db", path); code != 2 || !strings.Contains(errs, "typo.db") {
		t.Fatalf("a missing file: exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("tapis check created %s (%v)", path, err)
	}
	if code, _, _ := tapis("check", "--db", path, "extra"); code != 2 {
		t.Fatalf("an extra argument: exit %d", code)
	}
}

// Finding 8 of issue 24: kill -9 right after the last move of a rated
// match (3 of 12 tries) left a match whose moves end the game that the
// store held unfinished, and tapis check said ok. It names the table now;
// a server asked for the match's history marks it over, and the check
// passes again.
func TestCheckMatchOverButNotMarked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tapis.db")
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	seats := []store.Seat{{Name: "Ann", TokenHash: "h1"}, {Bot: "random"}}
	if err := st.CreateTable(ctx, store.Table{ID: "ended", Game: "cabo", Players: 2, Seats: seats}, &store.Start{No: 1, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	// Every move of a whole match, and no end: the crash.
	g := games.Named("cabo")
	s, err := g.New(game.Config{Players: 2, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; !s.Over(); i++ {
		if i > 10000 {
			t.Fatal("the match does not end")
		}
		seat := s.ToMove().First()
		legal := s.Legal(seat, nil)
		m := legal[rng.IntN(len(legal))]
		if err := s.Apply(seat, m, nil); err != nil {
			t.Fatal(err)
		}
		js, err := g.MarshalMove(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.AppendMove(ctx, "ended", 1, i, store.Move{Seat: int(seat), Move: js}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	code, out, _ := tapis("check", "--db", path)
	if code != 1 || !strings.Contains(out, "table ended: match 1: its moves end the game, but the store holds it unfinished") {
		t.Fatalf("a match over but not marked: exit %d, stdout %q", code, out)
	}

	st, err = sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	srv, err := server.New(sctx, server.Config{Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	resp, err := http.Get(hs.URL + "/api/tables/ended/replay")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	hs.Close()
	cancel()
	srv.Wait()
	st.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the match's replay after a restart: %d", resp.StatusCode)
	}
	if code, out, _ := tapis("check", "--db", path); code != 0 {
		t.Fatalf("once the server marked it over: exit %d, stdout %q", code, out)
	}
}

// A running server keeps its SQLite file locked against other processes
// (tapis check on it says so), and serves a consistent copy of it on its
// operators' address, GET /backup: a database tapis check passes, with
// the games played before the copy was asked for.
func TestServeBackup(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	live := filepath.Join(t.TempDir(), "live.db")
	base, metrics := startServeMetrics(t, "--db "+live)
	rep := runLoad(t, 0, "--url", base, "--game", "cabo", "--players", "2", "--tables", "2", "--think", "50ms", "--duration", "1s")
	if rep.Moves == 0 {
		t.Fatalf("no moves played: %+v", rep)
	}
	if code, out, errs := tapis("check", "--db", live); code == 0 || !strings.Contains(out+errs, "open in another process") {
		t.Errorf("tapis check on the live file: exit %d, %q %q", code, out, errs)
	}

	resp, err := http.Get(strings.TrimSuffix(metrics, "/metrics") + "/backup")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK || !bytes.HasPrefix(body, []byte("SQLite format 3\x00")) ||
		!strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("GET /backup: %d %v, %d bytes starting %q", resp.StatusCode, err, len(body), body[:min(16, len(body))])
	}
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(copyPath, body, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := tapis("check", "--db", copyPath)
	if code != 0 || !regexp.MustCompile(`\b2 tables\b`).MatchString(out) {
		t.Fatalf("tapis check on the copy: exit %d, %q %q", code, out, errs)
	}
}
