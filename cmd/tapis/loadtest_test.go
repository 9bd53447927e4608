package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"tapis/server"
	"tapis/store/sqlite"
)

// startServeMetrics runs `tapis serve` in a child process, with its
// metrics on an address of their own and the test's machine trusted as a
// proxy (so that each load test table counts as its own client), and
// returns its base URL and its metrics' URL once it listens.
func startServeMetrics(t *testing.T, flags string) (base, metrics string) {
	t.Helper()
	_, rd := serveChild(t, "--addr 127.0.0.1:0 --metrics-addr 127.0.0.1:0 --db :memory: --trusted-proxy 127.0.0.1/32 "+flags)
	var said string
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`serving on http://(127\.0\.0\.1:\d+)`),
		regexp.MustCompile(`Metrics on http://(127\.0\.0\.1:\d+)/metrics`),
	} {
		line, err := rd.ReadString('\n')
		said += line
		m := re.FindStringSubmatch(line)
		if err != nil || m == nil {
			t.Fatalf("tapis serve said %q (%v)", said, err)
		}
		if base == "" {
			base = "http://" + m[1]
		} else {
			metrics = "http://" + m[1] + "/metrics"
		}
	}
	go rd.WriteTo(io.Discard)
	return base, metrics
}

// runLoad runs `tapis loadtest ... --json` in-process and decodes its
// report; it fails the test unless the exit status is want.
func runLoad(t *testing.T, want int, args ...string) loadReport {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"loadtest", "--json"}, args...), &out, &errOut)
	if code != want {
		t.Fatalf("tapis loadtest exited %d, want %d: %s %s", code, want, out.String(), errOut.String())
	}
	// The fields by their JSON names, as a script would read them.
	var fields map[string]any
	if err := json.Unmarshal(out.Bytes(), &fields); err != nil {
		t.Fatalf("not JSON: %v: %s", err, out.String())
	}
	for _, f := range []string{"moves", "moves_per_second", "p50_ms", "p99_ms", "errors"} {
		if _, ok := fields[f].(float64); !ok {
			t.Errorf("the report has no number %q: %s", f, out.String())
		}
	}
	var rep loadReport
	json.Unmarshal(out.Bytes(), &rep)
	return rep
}

// metricValue reads one sample of the text exposition at url.
func metricValue(t *testing.T, url, name string) float64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s has no %s", url, name)
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// `tapis loadtest` against a real `tapis serve`: three tables of two
// clients play for a few seconds without an error, the report's figures
// hold together, and the server's tapis_moves_total counted exactly the
// moves the clients saw applied (no bots: they are every move).
func TestLoadtestAgainstServe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	base, metrics := startServeMetrics(t, "")
	rep := runLoad(t, 0, "--url", base, "--game", "cabo", "--players", "2", "--tables", "3", "--think", "50ms", "--duration", "3s", "--warmup", "1s")
	if rep.Moves == 0 || rep.Errors != 0 || rep.Tables != 3 || rep.Players != 2 || rep.WarmupS != 1 {
		t.Fatalf("report %+v", rep)
	}
	if rep.Duration < 3 || rep.MovesPerSecond <= 0 || rep.MovesPerSecond > float64(rep.Moves)/3 {
		t.Errorf("%d moves in %.2f s at %.1f a second", rep.Moves, rep.Duration, rep.MovesPerSecond)
	}
	if rep.P50MS <= 0 || rep.P50MS > rep.P99MS || rep.P99MS > rep.MaxMS {
		t.Errorf("round trips p50 %.2f ms, p99 %.2f ms, max %.2f ms", rep.P50MS, rep.P99MS, rep.MaxMS)
	}
	// Three tables of two, each seat thinking 25–75 ms: about 3 × 1000/50
	// moves a second at most; far fewer means the clients stalled.
	if rep.Moves < 20 {
		t.Errorf("only %d moves in 3 s", rep.Moves)
	}
	// The load test has waited for the answer to every move it sent, so
	// the server has counted them all by now.
	if got := metricValue(t, metrics, "tapis_moves_total"); got != float64(rep.Moves) {
		t.Errorf("tapis_moves_total is %v, the load test counted %d moves", got, rep.Moves)
	}
}

// With --bots, each table is one client and the server's bots, whose
// answers the client times; the server's moves count the bots' too.
func TestLoadtestWithBots(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	base, metrics := startServeMetrics(t, "--bot-delay 20ms")
	rep := runLoad(t, 0, "--url", base, "--game", "cabo", "--players", "3", "--tables", "2", "--bots", "easy", "--think", "20ms", "--duration", "2s")
	if rep.Moves == 0 || rep.BotMoves == 0 || rep.Errors != 0 || rep.Bots != "easy" {
		t.Fatalf("report %+v", rep)
	}
	if rep.BotP50MS < 20 || rep.BotP50MS > rep.BotP99MS || rep.BotP99MS > rep.BotMaxMS {
		t.Errorf("bot answers p50 %.2f ms, p99 %.2f ms, max %.2f ms (the server waits 20 ms)", rep.BotP50MS, rep.BotP99MS, rep.BotMaxMS)
	}
	// The bots' moves the client timed are among the server's, which may
	// hold a few more: a bot that moved as the client stopped listening.
	if got := metricValue(t, metrics, "tapis_moves_total"); got < float64(rep.Moves+rep.BotMoves) {
		t.Errorf("tapis_moves_total is %v, fewer than the %d + %d moves the client saw", got, rep.Moves, rep.BotMoves)
	}
}

// inProcessServer serves a Tapis server of its own (no trusted proxy:
// every load test table is one client) through wrap, which may answer
// some requests itself, and returns its URL.
func inProcessServer(t *testing.T, wrap func(next http.Handler) http.Handler) string {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "tapis.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := server.New(ctx, server.Config{Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(wrap(srv))
	t.Cleanup(func() {
		hs.Close()
		cancel()
		srv.Wait()
		st.Close()
	})
	return hs.URL
}

// refuseTables answers every POST /api/tables itself with status and
// code (429 asks to wait 0 s), and passes everything else on.
func refuseTables(status int, code string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost || r.URL.Path != "/api/tables" {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			if status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "0")
			}
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"code":%q,"error":"refused by the test"}`, code)
		})
	}
}

// Errors make the exit status 1: a server that answers but makes no
// table. With every table given up, the run ends before --duration.
func TestLoadtestFailsOnErrors(t *testing.T) {
	base := inProcessServer(t, refuseTables(http.StatusServiceUnavailable, "down"))
	rep := runLoad(t, 1, "--url", base, "--tables", "2", "--duration", "1h")
	if rep.Errors < 2 || rep.Moves != 0 {
		t.Fatalf("report %+v", rep)
	}
}

// A server that is not there, a malformed URL, and a game, seat count or
// bot level the server does not serve stop the load test at once, exit
// 2, with one line saying why and no report: --duration 1h would
// otherwise keep the test waiting.
func TestLoadtestStopsAtOnce(t *testing.T) {
	base := inProcessServer(t, func(h http.Handler) http.Handler { return h })
	for _, tc := range []struct{ args, want string }{
		// Port 1: nothing listens there.
		{"--url http://127.0.0.1:1", "tapis loadtest: http://127.0.0.1:1 does not answer: "},
		{"--url " + base + ",http://127.0.0.1:1", "tapis loadtest: http://127.0.0.1:1 does not answer: "},
		{"--url http//127.0.0.1:1", `tapis loadtest: --url "http//127.0.0.1:1": want http://host:port`},
		{"--url ftp://127.0.0.1:1", `tapis loadtest: --url "ftp://127.0.0.1:1": want http://host:port`},
		{"--url " + base + " --game chess", `tapis loadtest: --game "chess": ` + base + " serves cabo, "},
		{"--url " + base + " --game cabo --players 6", "tapis loadtest: --players 6: cabo takes 2 to 5 players\n"},
		{"--url " + base + " --game papayoo --players 2", "tapis loadtest: --players 2: papayoo takes 3 to 8 players\n"},
		{"--url " + base + " --players 3 --bots genius", `tapis loadtest: --bots "genius": ` + base + " offers random, easy, normal, hard at cabo\n"},
		{"--url " + base + " --players 3 --bots heuristic", `tapis loadtest: --bots "heuristic": `},
	} {
		var out, errOut bytes.Buffer
		code := run(append([]string{"loadtest", "--duration", "1h"}, strings.Fields(tc.args)...), &out, &errOut)
		if code != 2 || out.Len() != 0 || !strings.HasPrefix(errOut.String(), tc.want) || strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("loadtest %s: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out.String(), errOut.String(), tc.want)
		}
	}
}

// Refused as too fast (429), the load test says so at once, naming the
// server's per-client limits and --trusted-proxy, counts the refusals,
// and prints how the run goes every --progress.
func TestLoadtestSaysTooFast(t *testing.T) {
	base := inProcessServer(t, refuseTables(http.StatusTooManyRequests, "too_fast"))
	var out, errOut syncBuffer
	code := run([]string{"loadtest", "--json", "--url", base, "--tables", "2", "--duration", "1s", "--progress", "100ms"}, &out, &errOut)
	var rep loadReport
	if err := json.Unmarshal([]byte(out.String()), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s %s", code, err, out.String(), errOut.String())
	}
	if rep.TooFast == 0 || rep.Moves != 0 || rep.Errors != 0 {
		t.Errorf("report %+v", rep)
	}
	said := errOut.String()
	if strings.Count(said, "per-client limits") != 1 || !strings.Contains(said, "--trusted-proxy 127.0.0.1/32") {
		t.Errorf("the refusals were not told once, with --trusted-proxy: %s", said)
	}
	if !regexp.MustCompile(`(?m)^tapis loadtest: \d+s: 0/2 tables playing, 0 moves \(0/s\), 0 matches over, 0 stale, 0 errors, [1-9]\d* refused as too fast \(429\)$`).MatchString(said) {
		t.Errorf("no progress line: %s", said)
	}
	// The text report tells the refusals too.
	var text bytes.Buffer
	rep.print(&text)
	if !strings.Contains(text.String(), "too_fast") || !strings.Contains(text.String(), "--trusted-proxy") {
		t.Errorf("the report does not tell the refusals: %s", text.String())
	}
}

// The flags are checked before anything is started.
func TestLoadtestFlags(t *testing.T) {
	for _, args := range []string{"", "--url http://x --players 0", "--url http://x --duration 0s", "--url http://x --players 1 --bots hard",
		"--url http://x --duration 5s --warmup 5s", "--url http://x --warmup -1s"} {
		var out, errOut bytes.Buffer
		if code := run(append([]string{"loadtest"}, strings.Fields(args)...), &out, &errOut); code != 2 || errOut.Len() == 0 {
			t.Errorf("loadtest %s: exit %d, %q", args, code, errOut.String())
		}
	}
}

// Each table's clients come from an IPv4 /24 of their own, so that a
// server's per-network budgets count the tables apart (issue 28: four
// tables a /24 had most creations of a 1,000-table run refused).
func TestLoadAddrNetworks(t *testing.T) {
	seen := map[string]int{}
	for n := 1; n <= 8000; n++ {
		a, err := netip.ParseAddr(loadAddr(n))
		if err != nil || !a.Is4() {
			t.Fatalf("table %d: address %q", n, loadAddr(n))
		}
		p, _ := a.Prefix(24)
		if m, ok := seen[p.String()]; ok {
			t.Fatalf("tables %d and %d share the network %s", m, n, p)
		}
		seen[p.String()] = n
	}
}

// serveChild runs `tapis serve` with the flags args in a child process,
// killed when the test ends, and returns it with its standard output.
func serveChild(t *testing.T, args string) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TAPIS_TEST_RUN=serve "+args)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewReader(out)
}

// startServeAt runs `tapis serve` in a child process on addr with the
// database file db, and returns it once it listens.
func startServeAt(t *testing.T, addr, db string) *exec.Cmd {
	t.Helper()
	cmd, rd := serveChild(t, "--addr "+addr+" --db "+db+" --trusted-proxy 127.0.0.1/32")
	line, err := rd.ReadString('\n')
	if err != nil || !strings.Contains(line, "serving on http://"+addr) {
		t.Fatalf("tapis serve said %q (%v)", line, err)
	}
	go rd.WriteTo(io.Discard)
	return cmd
}

// With --reconnect, a server killed (kill -9) in the middle of a run and
// started again on the same database takes every seat back: the clients
// dial again, each seat is counted back with the time it was away, and
// the run ends without an error, still playing.
func TestLoadtestReconnectsAfterRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	db := filepath.Join(t.TempDir(), "tapis.db")
	first := startServeAt(t, addr, db)

	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"loadtest", "--json", "--reconnect", "--url", "http://" + addr, "--game", "cabo", "--players", "2",
			"--tables", "2", "--think", "50ms", "--duration", "15s", "--progress", "100ms"}, &out, &errOut)
	}()
	waitSaid := func(what string, re *regexp.Regexp) {
		t.Helper()
		for !re.MatchString(errOut.String()) {
			select {
			case code := <-done:
				t.Fatalf("the load test ended (exit %d) before %s: %s %s", code, what, out.String(), errOut.String())
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	waitSaid("the tables played", regexp.MustCompile(`2/2 tables playing, [1-9]\d* moves`))
	first.Process.Kill()
	first.Wait()
	startServeAt(t, addr, db)
	waitSaid("every seat was back", regexp.MustCompile(`0 seats away, 4 back`))

	code := <-done
	var rep loadReport
	if err := json.Unmarshal([]byte(out.String()), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s %s", code, err, out.String(), errOut.String())
	}
	if rep.Errors != 0 || rep.Reconnects != 4 || rep.AwayMaxMS <= 0 || rep.AwayP50MS > rep.AwayMaxMS || rep.Moves == 0 {
		t.Fatalf("report %+v; said %s", rep, errOut.String())
	}
	var text bytes.Buffer
	rep.print(&text)
	if !strings.Contains(text.String(), "reconnects        4\n") {
		t.Errorf("the text report does not tell the reconnections: %s", text.String())
	}
}
