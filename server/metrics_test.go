package server_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"tapis/metrics"
	"tapis/store"
)

// scrape reads the metrics as Prometheus would, from their handler: each
// sample by its name and labels as printed (`name{a="x",b="y"}`).
func scrape(t *testing.T, m *metrics.Metrics) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /metrics: %d", rec.Code)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("bad sample %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// waitMetrics waits until every sample in want has its value (the
// metrics of a move are taken once it is sent, so a client may see the
// move a moment before they count it).
func waitMetrics(t *testing.T, m *metrics.Metrics, want map[string]float64) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := scrape(t, m)
		var wrong []string
		for k, v := range want {
			if got[k] != v {
				wrong = append(wrong, fmt.Sprintf("%s = %v, want %v", k, got[k], v))
			}
		}
		if len(wrong) == 0 {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("metrics: %s", strings.Join(wrong, "; "))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The metrics count what the server did: every move applied (people's and
// the bot's), its handling time and its store append, the tables by
// status (a dormant one restored from the store), the connections by
// role, the refusals by code and message, and the bot's thinking.
func TestMetricsCountAGame(t *testing.T) {
	st := store.NewMemory()
	cfg := testConfig()
	cfg.Store = st
	// A table left waiting by an earlier server is dormant in this one.
	h0 := newHarness(t, cfg)
	h0.create("cabo", []string{"", "random"}, "Zoe", "")
	h0.stop()

	m := metrics.New()
	cfg = testConfig()
	cfg.Store, cfg.Metrics = st, m
	h := newHarness(t, cfg)
	waitMetrics(t, m, map[string]float64{
		`tapis_tables{status="dormant"}`: 1, `tapis_tables{status="waiting"}`: 0,
		`tapis_moves_total`: 0, `tapis_connections{role="seat"}`: 0, `tapis_connections{role="spectator"}`: 0,
	})

	a := h.create("cabo", []string{"", "", "random"}, "Ann", "")
	ca := h.dial(a.Table, a.Token)
	waitMetrics(t, m, map[string]float64{`tapis_tables{status="waiting"}`: 1, `tapis_connections{role="seat"}`: 1})
	b := h.join(a.Table, "Bob")
	cb := h.dial(a.Table, b.Token)
	sp := h.dial(a.Table, "")
	waitMetrics(t, m, map[string]float64{`tapis_tables{status="playing"}`: 1, `tapis_tables{status="waiting"}`: 0,
		`tapis_connections{role="seat"}`: 2, `tapis_connections{role="spectator"}`: 1})

	errs := make(chan error, 1)
	go func() {
		_, err := playRandom(ca, a.Seat, 1, 1<<30)
		errs <- err
	}()
	last, err := playRandom(cb, b.Seat, 2, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if last.Status != "over" {
		t.Fatalf("the game did not end: %+v", last)
	}
	n := float64(last.N)
	got := waitMetrics(t, m, map[string]float64{
		`tapis_moves_total`:                      n,
		`tapis_move_seconds_count{stage="sent"}`: n, `tapis_move_seconds_count{stage="applied"}`: n,
		`tapis_store_append_seconds_count`: n, `tapis_store_append_errors_total`: 0,
		`tapis_tables{status="over"}`: 1, `tapis_tables{status="playing"}`: 0, `tapis_tables{status="dormant"}`: 1,
	})
	// Each stage is timed from the move's reading: later stages take longer.
	applied, saved, sent := got[`tapis_move_seconds_sum{stage="applied"}`], got[`tapis_move_seconds_sum{stage="saved"}`], got[`tapis_move_seconds_sum{stage="sent"}`]
	if !(0 < applied && applied <= saved && saved <= sent) {
		t.Errorf("stage sums: applied %v, saved %v, sent %v", applied, saved, sent)
	}
	// The bot thought at least once per move it made.
	botMoves := 0
	for _, b := range ca.messages() {
		var s msg
		if json.Unmarshal(b, &s) == nil && s.Type == "state" && s.By == 2 && s.Match == 1 {
			botMoves++
		}
	}
	thoughts := got[`tapis_bot_think_seconds_count{game="cabo",level="random"}`]
	if botMoves == 0 || thoughts < float64(botMoves) || got[`tapis_bot_think_seconds_sum{game="cabo",level="random"}`] <= 0 {
		t.Errorf("the bot made %d moves in %v thoughts", botMoves, thoughts)
	}

	// Refusals, by code and by the message refused.
	ca.send(map[string]any{"type": "move", "move": json.RawMessage(`{"kind":"draw"}`)})
	if e := ca.next("error"); e.Code != "over" {
		t.Fatalf("a move after the end: %+v", e)
	}
	ca.send(`{"type":"dance"}`)
	ca.next("error")
	ca.send(`not json`)
	ca.next("error")
	sp.send(map[string]any{"type": "chat", "text": "   "})
	sp.next("error")
	waitMetrics(t, m, map[string]float64{
		`tapis_refused_total{code="over",message="move"}`:           1,
		`tapis_refused_total{code="bad_message",message="unknown"}`: 1,
		`tapis_refused_total{code="bad_message",message="none"}`:    1,
		`tapis_refused_total{code="chat_empty",message="chat"}`:     1,
		`tapis_moves_total`: n,
	})

	sp.ws.CloseNow()
	waitMetrics(t, m, map[string]float64{`tapis_connections{role="spectator"}`: 0, `tapis_connections{role="seat"}`: 2})
}

// Without metrics the server runs as before: the hooks do nothing.
func TestNoMetricsPlays(t *testing.T) {
	h := newHarness(t, testConfig())
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	ca := h.dial(a.Table, a.Token)
	if last, err := playRandom(ca, a.Seat, 1, 10); err != nil || last.N < 10 {
		t.Fatalf("%d moves, %v", last.N, err)
	}
}

// The CPU of the bots' searches is counted: a person plays a whole game
// against a normal bot, and /metrics says the searches took some.
func TestMetricsCountBotSearchCPU(t *testing.T) {
	m := metrics.New()
	cfg := testConfig()
	cfg.Metrics = m
	h := newHarness(t, cfg)
	a := h.create("cabo", []string{"", "normal"}, "Ann", "")
	c := h.dial(a.Table, a.Token)
	if last, err := playRandom(c, a.Seat, 3, 1<<30); err != nil || last.Status != "over" {
		t.Fatalf("playing: %v, %s", err, last.Status)
	}
	eventually(t, "the bot's search CPU counted", func() bool {
		return scrape(t, m)[`tapis_bot_search_cpu_seconds_total`] > 0
	})
}
