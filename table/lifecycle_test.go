package table

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"tapis/metrics"
	"tapis/store"
	"tapis/table/tableset"
)

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
	for _, label := range []string{StatusWaiting.String(), StatusPlaying.String(), StatusOver.String(), tableset.Dormant.String()} {
		if !slices.Contains(metrics.Statuses, label) {
			t.Errorf("the metrics have no status %q", label)
		}
	}
	for r, want := range map[tableset.Residence]string{tableset.Absent: "absent", tableset.Dormant: "dormant", tableset.Loading: "loading", tableset.Loaded: "loaded", tableset.HandedOver: "handed over", 9: "Residence(9)"} {
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
	at := func(id string) tableset.Residence {
		s.tables.Lock()
		defer s.tables.Unlock()
		return s.tables.At(id)
	}
	until := func(id string, want tableset.Residence) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); at(id) != want; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("table %s still %v, not %v", id, at(id), want)
			}
		}
	}

	playing := create(`{"game":"cabo","players":2,"bots":["","random"],"name":"Ann"}`)
	if r := at(playing); r != tableset.Loaded {
		t.Fatalf("a table made is %v", r)
	}
	until(playing, tableset.Dormant)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/tables/"+playing, nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"playing"`) {
		t.Fatalf("get: %d %s", rec.Code, rec.Body)
	}
	if r := at(playing); r != tableset.Loaded && r != tableset.Dormant { // it may have gone back to sleep already
		t.Fatalf("a table asked for is %v", r)
	}

	waiting := create(`{"game":"papayoo","players":4,"name":"Bob"}`)
	until(waiting, tableset.Absent)
	sv, err := st.Load(ctx, waiting)
	if err != nil || sv.Closed != store.Expired {
		t.Fatalf("the waiting table is closed as %v (%v), want expired", sv.Closed, err)
	}
}
