package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// startServeMetrics runs `tapis serve` in a child process, with its
// metrics on an address of their own and the test's machine trusted as a
// proxy (so that each load test table counts as its own client), and
// returns its base URL and its metrics' URL once it listens.
func startServeMetrics(t *testing.T, flags string) (base, metrics string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TAPIS_TEST_RUN=serve --addr 127.0.0.1:0 --metrics-addr 127.0.0.1:0 --db :memory: --trusted-proxy 127.0.0.1/32 "+flags)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	rd := bufio.NewReader(out)
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
	rep := runLoad(t, 0, "--url", base, "--game", "cabo", "--players", "2", "--tables", "3", "--think", "50ms", "--duration", "3s")
	if rep.Moves == 0 || rep.Errors != 0 || rep.Tables != 3 || rep.Players != 2 {
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

// Errors make the exit status 1: a server that is not there.
func TestLoadtestFailsOnErrors(t *testing.T) {
	// Port 1: nothing listens there.
	rep := runLoad(t, 1, "--url", "http://127.0.0.1:1", "--tables", "2", "--duration", "500ms")
	if rep.Errors < 2 || rep.Moves != 0 {
		t.Fatalf("report %+v", rep)
	}
}

// The flags are checked before anything is started.
func TestLoadtestFlags(t *testing.T) {
	for _, args := range []string{"", "--url http://x --players 0", "--url http://x --duration 0s", "--url http://x --players 1 --bots hard"} {
		var out, errOut bytes.Buffer
		if code := run(append([]string{"loadtest"}, strings.Fields(args)...), &out, &errOut); code != 2 || errOut.Len() == 0 {
			t.Errorf("loadtest %s: exit %d, %q", args, code, errOut.String())
		}
	}
}
