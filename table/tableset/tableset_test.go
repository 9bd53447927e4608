package tableset

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"tapis/store"
)

// residencesAll is every residence, for the transitions' table.
var residencesAll = []Residence{Absent, Dormant, Loading, Loaded, HandedOver}

// table stands for a loaded table (package table's *table).
type table struct{ id string }

// testSet returns an empty table set and what it logs.
func testSet() (*Set[*table], *bytes.Buffer) {
	var buf bytes.Buffer
	return New[*table](slog.New(slog.NewTextHandler(&buf, nil))), &buf
}

// place puts table id at residence r in ts, by hand (not through Move,
// which is what is tested), and returns the table and the summary a move
// from there names: the ones held, or new ones for what is not held.
func place(ts *Set[*table], id string, r Residence) (*table, *Asleep) {
	t, d := &table{id: id}, &Asleep{Summary: store.Summary{ID: id}}
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
				before := ts.At("t1")
				err := ts.Move("t1", from, to, tb, d)
				if !legalOnes[[2]Residence{from, to}] {
					var te *transitionError
					if !errors.As(err, &te) || te.race {
						t.Fatalf("move = %v, want an illegal transition refused", err)
					}
					if got := ts.At("t1"); got != before {
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
				if got := ts.At("t1"); got != want {
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
		if func() bool { _, ok := ts.HandOver("t1"); return ok }() {
			t.Fatal("handOver returned a table that was not loaded")
		}
		err := ts.Move("t1", Loading, Loaded, &table{id: "t1"}, d)
		var te *transitionError
		if !errors.As(err, &te) || !te.race || te.at != Absent {
			t.Fatalf("move = %v, want refused as lost to another mover", err)
		}
		if ts.At("t1") != Absent {
			t.Errorf("the table is %v, want absent", ts.At("t1"))
		}
		if !strings.Contains(logged.String(), "table transition refused") || strings.Contains(logged.String(), "illegal") {
			t.Errorf("log %q, want the race said", logged)
		}
		d.Done()
		<-d.loading // a waiter looks again
	})
	t.Run("another table of that id", func(t *testing.T) {
		ts, _ := testSet()
		place(ts, "t1", Loaded)
		other := &table{id: "t1"}
		err := ts.Move("t1", Loaded, Dormant, other, &Asleep{Summary: store.Summary{ID: "t1"}})
		var te *transitionError
		if !errors.As(err, &te) || !te.race {
			t.Fatalf("move = %v, want refused as stale", err)
		}
		if ts.At("t1") != Loaded || ts.loaded["t1"] == other {
			t.Errorf("the held table changed")
		}
	})
	t.Run("another summary of that id", func(t *testing.T) {
		ts, _ := testSet()
		place(ts, "t1", Dormant)
		if err := ts.Move("t1", Dormant, Loading, nil, &Asleep{Summary: store.Summary{ID: "t1"}}); err == nil {
			t.Fatal("a summary not held was held Loading")
		}
		if ts.At("t1") != Dormant {
			t.Errorf("the table is %v, want dormant", ts.At("t1"))
		}
	})
	t.Run("nothing to hold", func(t *testing.T) {
		ts, logged := testSet()
		if err := ts.Move("t1", Absent, Loaded, nil, nil); err == nil {
			t.Fatal("no table was held as loaded")
		}
		if ts.At("t1") != Absent || !strings.Contains(logged.String(), "illegal") {
			t.Errorf("the table is %v; log %q", ts.At("t1"), logged)
		}
	})
}

// TestTableSetHelpers drives the set's own moves: Add, Forget, HandOver.
func TestTableSetHelpers(t *testing.T) {
	ts, _ := testSet()
	tb := &table{id: "t1"}
	if err := ts.Add("t1", tb); err != nil || ts.Get("t1") != tb {
		t.Fatalf("add = %v", err)
	}
	if err := ts.Add("t1", &table{id: "t1"}); err == nil || ts.Get("t1") != tb {
		t.Fatalf("a second table of one id was added (%v)", err)
	}
	if d := ts.Forget("t1"); d != nil || ts.Get("t1") != tb {
		t.Fatal("forget dropped a loaded table")
	}
	if got, _ := ts.HandOver("t1"); got != tb || ts.Get("t1") != nil {
		t.Fatal("handOver kept the table, or returned another")
	}
	_, d := place(ts, "t2", Dormant)
	if loaded, dormant := ts.Count(); loaded != 0 || dormant != 1 {
		t.Fatalf("count = %d, %d", loaded, dormant)
	}
	if ts.Forget("t2") != d || ts.At("t2") != Absent {
		t.Fatal("forget kept the summary, or returned another")
	}
	if !ts.FirstSettle("t3") || ts.FirstSettle("t3") {
		t.Error("settle checks a table once")
	}
	ts.MarkEnded("t4")
	if !ts.IsEnded("t4") || ts.IsEnded("t5") {
		t.Error("ended: not as marked")
	}
}
