package table

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"tapis/metrics"
	"tapis/store"
)

// residencesAll is every residence, for the transitions' table.
var residencesAll = []Residence{Absent, Dormant, Loading, Loaded, HandedOver}

// testSet returns an empty table set and what it logs.
func testSet() (*tableSet, *bytes.Buffer) {
	var buf bytes.Buffer
	return newTableSet(slog.New(slog.NewTextHandler(&buf, nil))), &buf
}

// place puts table id at residence r in ts, by hand (not through move,
// which is what is tested), and returns the table and the summary a move
// from there names: the ones held, or new ones for what is not held.
func place(ts *tableSet, id string, r Residence) (*table, *dormant) {
	t, d := &table{id: id}, &dormant{Summary: store.Summary{ID: id}}
	switch r {
	case Loaded:
		ts.loaded[id] = t
	case Loading:
		d.loading = make(chan struct{})
		fallthrough
	case Dormant:
		ts.dormant[id] = d
	}
	return t, d
}

// TestTransitions moves a table from every residence to every other: each
// move the lifecycle has happens, and leaves the table where it went
// (HandedOver holds nothing, as Absent); each it does not have is refused,
// logged as illegal, and changes nothing.
func TestTransitions(t *testing.T) {
	legalOnes := map[[2]Residence]bool{
		{Absent, Dormant}: true, {Absent, Loaded}: true,
		{Dormant, Loading}: true, {Dormant, Absent}: true, {Dormant, HandedOver}: true,
		{Loading, Loaded}: true, {Loading, Absent}: true, {Loading, HandedOver}: true,
		{Loaded, Dormant}: true, {Loaded, Absent}: true, {Loaded, HandedOver}: true,
	}
	for _, from := range residencesAll {
		for _, to := range residencesAll {
			t.Run(fmt.Sprintf("%v to %v", from, to), func(t *testing.T) {
				if legal(from, to) != legalOnes[[2]Residence{from, to}] {
					t.Fatalf("legal(%v, %v) = %v", from, to, legal(from, to))
				}
				ts, logged := testSet()
				tb, d := place(ts, "t1", from)
				before := ts.residence("t1")
				err := ts.move("t1", from, to, tb, d)
				if !legalOnes[[2]Residence{from, to}] {
					var te *transitionError
					if !errors.As(err, &te) || te.race {
						t.Fatalf("move = %v, want an illegal transition refused", err)
					}
					if got := ts.residence("t1"); got != before {
						t.Errorf("refused, yet the table went from %v to %v", before, got)
					}
					if !strings.Contains(logged.String(), "illegal table transition refused") {
						t.Errorf("refused without a word in the log: %q", logged)
					}
					return
				}
				if err != nil {
					t.Fatalf("move = %v", err)
				}
				if logged.Len() != 0 {
					t.Errorf("a legal move logged %q", logged)
				}
				want := to
				if to == HandedOver {
					want = Absent
				}
				if got := ts.residence("t1"); got != want {
					t.Fatalf("the table is %v, want %v", got, want)
				}
				switch to {
				case Loaded:
					if ts.loaded["t1"] != tb || ts.dormant["t1"] != nil {
						t.Errorf("loaded: not the table moved, or a summary left")
					}
				case Dormant:
					if ts.dormant["t1"] != d || ts.loaded["t1"] != nil {
						t.Errorf("dormant: not the summary moved, or a table left")
					}
				case Loading:
					select {
					case <-d.loading:
						t.Errorf("loading: its hold is already over")
					default:
					}
				default:
					if len(ts.loaded)+len(ts.dormant) != 0 {
						t.Errorf("%v: the set still holds %d loaded, %d dormant", to, len(ts.loaded), len(ts.dormant))
					}
				}
			})
		}
	}
}

// TestTransitionsLostToAnotherMover refuses a legal move whose table is
// not where, or not as, its mover found it, logging it as a race; the
// hold's end still frees those who wait for it.
func TestTransitionsLostToAnotherMover(t *testing.T) {
	t.Run("no longer there", func(t *testing.T) {
		ts, logged := testSet()
		_, d := place(ts, "t1", Loading)
		// The lease is lost while a request loads the table.
		if ts.handOver("t1") != nil {
			t.Fatal("handOver returned a table that was not loaded")
		}
		err := ts.move("t1", Loading, Loaded, &table{id: "t1"}, d)
		var te *transitionError
		if !errors.As(err, &te) || !te.race || te.at != Absent {
			t.Fatalf("move = %v, want refused as lost to another mover", err)
		}
		if ts.residence("t1") != Absent {
			t.Errorf("the table is %v, want absent", ts.residence("t1"))
		}
		if !strings.Contains(logged.String(), "table transition refused") || strings.Contains(logged.String(), "illegal") {
			t.Errorf("log %q, want the race said", logged)
		}
		d.done()
		<-d.loading // a waiter looks again
	})
	t.Run("another table of that id", func(t *testing.T) {
		ts, _ := testSet()
		place(ts, "t1", Loaded)
		other := &table{id: "t1"}
		err := ts.move("t1", Loaded, Dormant, other, &dormant{Summary: store.Summary{ID: "t1"}})
		var te *transitionError
		if !errors.As(err, &te) || !te.race {
			t.Fatalf("move = %v, want refused as stale", err)
		}
		if ts.residence("t1") != Loaded || ts.loaded["t1"] == other {
			t.Errorf("the held table changed")
		}
	})
	t.Run("another summary of that id", func(t *testing.T) {
		ts, _ := testSet()
		place(ts, "t1", Dormant)
		if err := ts.move("t1", Dormant, Loading, nil, &dormant{Summary: store.Summary{ID: "t1"}}); err == nil {
			t.Fatal("a summary not held was held Loading")
		}
		if ts.residence("t1") != Dormant {
			t.Errorf("the table is %v, want dormant", ts.residence("t1"))
		}
	})
	t.Run("nothing to hold", func(t *testing.T) {
		ts, logged := testSet()
		if err := ts.move("t1", Absent, Loaded, nil, nil); err == nil {
			t.Fatal("no table was held as loaded")
		}
		if ts.residence("t1") != Absent || !strings.Contains(logged.String(), "illegal") {
			t.Errorf("the table is %v; log %q", ts.residence("t1"), logged)
		}
	})
}

// TestTableSetHelpers drives the set's own moves: add, forget, handOver.
func TestTableSetHelpers(t *testing.T) {
	ts, _ := testSet()
	tb := &table{id: "t1"}
	if err := ts.add(tb); err != nil || ts.get("t1") != tb {
		t.Fatalf("add = %v", err)
	}
	if err := ts.add(&table{id: "t1"}); err == nil || ts.get("t1") != tb {
		t.Fatalf("a second table of one id was added (%v)", err)
	}
	if d := ts.forget("t1"); d != nil || ts.get("t1") != tb {
		t.Fatal("forget dropped a loaded table")
	}
	if got := ts.handOver("t1"); got != tb || ts.get("t1") != nil {
		t.Fatal("handOver kept the table, or returned another")
	}
	_, d := place(ts, "t2", Dormant)
	if loaded, dormant := ts.count(); loaded != 0 || dormant != 1 {
		t.Fatalf("count = %d, %d", loaded, dormant)
	}
	if ts.forget("t2") != d || ts.residence("t2") != Absent {
		t.Fatal("forget kept the summary, or returned another")
	}
	if !ts.firstSettle("t3") || ts.firstSettle("t3") {
		t.Error("settle checks a table once")
	}
	ts.markEnded("t4")
	if !ts.isEnded("t4") || ts.isEnded("t5") {
		t.Error("ended: not as marked")
	}
}

// TestStatusAndResidenceWords: the status goes on the wire as the words
// it always was; "dormant" is the metrics' label.
func TestStatusAndResidenceWords(t *testing.T) {
	for s, want := range map[Status]string{StatusWaiting: "waiting", StatusPlaying: "playing", StatusOver: "over"} {
		b, _ := json.Marshal(struct {
			Status Status `json:"status"`
		}{s})
		if s.String() != want || string(b) != `{"status":"`+want+`"}` {
			t.Errorf("%q: String %q, JSON %s", want, s, b)
		}
	}
	// Every label the table count gives is one the metrics know.
	for _, label := range []string{StatusWaiting.String(), StatusPlaying.String(), StatusOver.String(), Dormant.String()} {
		if !slices.Contains(metrics.Statuses, label) {
			t.Errorf("the metrics have no status %q", label)
		}
	}
	for r, want := range map[Residence]string{Absent: "absent", Dormant: "dormant", Loading: "loading", Loaded: "loaded", HandedOver: "handed over", 9: "Residence(9)"} {
		if r.String() != want {
			t.Errorf("Residence %d is %q, want %q", int(r), r, want)
		}
	}
}

// TestSingleOwnership: one node holds every table, and acts alone.
func TestSingleOwnership(t *testing.T) {
	var o ownership = single{st: store.NewMemory()}
	if node, fresh, err := o.OwnerOf(t.Context(), "t1"); node != "" || fresh || err != nil {
		t.Errorf("ownerOf = %q, %v, %v", node, fresh, err)
	}
	if !o.StillDue(t.Context(), store.Summary{}) {
		t.Error("a summary due on one node is due")
	}
	here := 0
	o.Everywhere("tapis.test", nil, func() { here++ })
	if here != 1 {
		t.Errorf("acted %d times here", here)
	}
	if o.Writer("t1") == nil {
		t.Error("no writer")
	}
	if err := o.Start(nil); err != nil {
		t.Error(err)
	}
	o.Release("t1")
	o.Disown("t1", "test")
	o.Stop()
}

// TestResidencesOfAServedTable follows tables through a server's moves: a
// table made is Loaded; nobody there, it goes Dormant; a request loads it
// again; one waiting for players nobody came to is closed by the sweep,
// and held no more.
func TestResidencesOfAServedTable(t *testing.T) {
	ctx := t.Context()
	st := store.NewMemory()
	s, h := testHost(t, Config{Store: st, BotDelay: -1,
		IdleTimeout: 20 * time.Millisecond, WaitingTTL: 50 * time.Millisecond, SweepEvery: 10 * time.Millisecond})
	create := func(body string) string {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/api/tables", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		var out struct{ Table string }
		if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &out) != nil {
			t.Fatalf("create: %d %s", rec.Code, rec.Body)
		}
		return out.Table
	}
	at := func(id string) Residence {
		s.tables.mu.Lock()
		defer s.tables.mu.Unlock()
		return s.tables.residence(id)
	}
	until := func(id string, want Residence) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); at(id) != want; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("table %s still %v, not %v", id, at(id), want)
			}
		}
	}

	playing := create(`{"game":"cabo","players":2,"bots":["","random"],"name":"Ann"}`)
	if r := at(playing); r != Loaded {
		t.Fatalf("a table made is %v", r)
	}
	until(playing, Dormant)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/tables/"+playing, nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"playing"`) {
		t.Fatalf("get: %d %s", rec.Code, rec.Body)
	}
	if r := at(playing); r != Loaded && r != Dormant { // it may have gone back to sleep already
		t.Fatalf("a table asked for is %v", r)
	}

	waiting := create(`{"game":"papayoo","players":4,"name":"Bob"}`)
	until(waiting, Absent)
	sv, err := st.Load(ctx, waiting)
	if err != nil || sv.Closed != store.Expired {
		t.Fatalf("the waiting table is closed as %v (%v), want expired", sv.Closed, err)
	}
}
