package metrics_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"tapis/metrics"
	"tapis/store"
	"tapis/store/sqlite"
	"tapis/store/storetest"
)

// A nil Metrics is a server without metrics: every hook does nothing, and
// its store is the store itself.
func TestNilMetricsDoNothing(t *testing.T) {
	var m *metrics.Metrics
	m.Moved(time.Now(), time.Now(), time.Now(), time.Now())
	m.Connected(metrics.RoleSeat, 1)
	m.Refused("over", "move")
	m.Thought("cabo", "random", time.Millisecond)
	m.CountTables(func() map[string]int { return nil })
	if !m.Now().IsZero() {
		t.Error("a nil Metrics reads the clock")
	}
	st := store.NewMemory()
	if got := m.Store(st); got != store.Store(st) {
		t.Errorf("a nil Metrics wraps the store: %T", got)
	}
}

// The timed store is a store: it passes the conformance suite, wrapping
// SQLite (durable, so the suite's restarts and races run too). It is no
// store.Checker, so the suite's checks of Check skip.
func TestStoreConformance(t *testing.T) {
	m := metrics.New()
	storetest.Run(t, storetest.Backend{Durable: true, New: func(tb testing.TB) storetest.Opener {
		path := filepath.Join(tb.TempDir(), "t.db")
		return func(t testing.TB) store.Store {
			st, err := sqlite.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			return m.Store(st)
		}
	}})
}

// The store's appends are timed, failed ones too, and counted as errors
// when they fail; the other methods are the store's own.
func TestStoreTimesAppends(t *testing.T) {
	m := metrics.New()
	ctx := context.Background()
	st := m.Store(store.NewMemory())
	if err := st.CreateTable(ctx, store.Table{ID: "t1", Game: "cabo", Players: 2, Seats: make([]store.Seat, 2)},
		&store.Start{No: 1, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	mv := store.Move{Seat: 0, Move: json.RawMessage(`{}`)}
	for _, c := range []struct {
		index int
		ok    bool
	}{{0, true}, {1, true}, {5, false}} {
		if err := st.AppendMove(ctx, "t1", 1, c.index, mv); (err == nil) != c.ok {
			t.Fatalf("append %d: %v", c.index, err)
		}
	}
	if n := testutil.CollectAndCount(m.Registry(), "tapis_store_append_seconds"); n != 1 {
		t.Fatalf("%d tapis_store_append_seconds series", n)
	}
	saved, err := st.Load(ctx, "t1")
	if err != nil || len(saved.Match.Moves) != 2 {
		t.Fatalf("loaded %+v, %v", saved.Match, err)
	}
	mfs, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	var count uint64
	var errs float64
	for _, mf := range mfs {
		switch mf.GetName() {
		case "tapis_store_append_seconds":
			count = mf.GetMetric()[0].GetHistogram().GetSampleCount()
		case "tapis_store_append_errors_total":
			errs = mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	if count != 3 || errs != 1 {
		t.Errorf("%d appends timed, %v errors; want 3 and 1", count, errs)
	}
}

// tapis_tables reports every status at each scrape, from the server's
// count, 0 for those it leaves out.
func TestTablesCountedWhenScraped(t *testing.T) {
	m := metrics.New()
	n := map[string]int{"playing": 2}
	m.CountTables(func() map[string]int { return n })
	check := func(want map[string]float64) {
		t.Helper()
		mfs, err := m.Registry().Gather()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]float64{}
		for _, mf := range mfs {
			if mf.GetName() != "tapis_tables" {
				continue
			}
			for _, s := range mf.GetMetric() {
				got[s.GetLabel()[0].GetValue()] = s.GetGauge().GetValue()
			}
		}
		if len(got) != len(metrics.Statuses) {
			t.Errorf("statuses reported: %v", got)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("tapis_tables{status=%q} = %v, want %v", k, got[k], v)
			}
		}
	}
	check(map[string]float64{"playing": 2, "waiting": 0, "dormant": 0})
	n = map[string]int{"playing": 1, "dormant": 4}
	check(map[string]float64{"playing": 1, "dormant": 4, "over": 0})
}
