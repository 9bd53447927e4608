package storetest

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"tapis/store"
)

// Open summarises exactly the tables a server must restore, each as it
// stands: waiting (no match), playing, and playing again after a finished
// match; not a finished match's table, nor a closed one. Seated counts
// bots and humans with a token, not a free seat that has a name.
func testOpenSummaries(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	at := func(ms int64) time.Time { return time.UnixMilli(ms) }
	must(t, s.CreateTable(ctx, store.Table{ID: "waiting", Game: "cabo", Players: 3, Created: at(1000), Creator: "203.0.113.9",
		Seats: []store.Seat{{Name: "Ann", TokenHash: "h1"}, {Name: "named, no token"}, {}}}, nil))
	must(t, s.CreateTable(ctx, store.Table{ID: "playing", Game: "papayoo", Players: 3, Created: at(2000), Active: at(2500),
		Seats: []store.Seat{{Name: "Ann", TokenHash: "h1"}, {Bot: "random"}, {Bot: "easy"}}}, &store.Start{No: 1, Seed: 5}))
	must(t, FillTable(ctx, s, "over", 2))
	must(t, s.EndMatch(ctx, "over", 1))
	must(t, FillTable(ctx, s, "again", 2))
	must(t, s.EndMatch(ctx, "again", 1))
	must(t, s.StartMatch(ctx, "again", 2, 3))
	must(t, FillTable(ctx, s, "closed", 1))
	must(t, s.CloseTable(ctx, "closed", store.Abandoned, ""))
	got, err := s.Open(ctx)
	must(t, err)
	want := []store.Summary{
		{ID: "again", Game: "cabo", Players: 2, Started: true, Seated: 1}, // fillTable: a name, no token; a bot
		{ID: "playing", Game: "papayoo", Players: 3, Created: at(2000), Active: at(2500), Started: true, Seated: 3},
		{ID: "waiting", Game: "cabo", Players: 3, Created: at(1000), Creator: "203.0.113.9", Active: at(1000), Seated: 1},
	}
	if !sameSummaries(got, want) {
		t.Fatalf("open:\n got  %+v\n want %+v", got, want)
	}
}

// A closed table leaves Open for good, whatever its match; Load still
// gives it whole, with its state and reason. Closing again records the
// new state; a state that is not a closing one, or a table that does not
// exist, is refused.
func testCloseTable(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	must(t, s.CreateTable(ctx, store.Table{ID: "waiting", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}}, nil))
	must(t, FillTable(ctx, s, "playing", 3))
	must(t, FillTable(ctx, s, "other", 1))
	must(t, s.CloseTable(ctx, "waiting", store.Expired, ""))
	must(t, s.CloseTable(ctx, "playing", store.Broken, "replaying move 2: not your turn"))
	if got := OpenIDs(t, s); !reflect.DeepEqual(got, []string{"other"}) {
		t.Fatalf("open after closing two: %v", got)
	}
	p, err := s.Load(ctx, "playing")
	must(t, err)
	if p.Closed != store.Broken || p.Reason != "replaying move 2: not your turn" || len(p.Match.Moves) != 3 || p.Seats[1].Bot != "random" {
		t.Fatalf("a broken table loads as %+v (match %+v)", p, p.Match)
	}
	must(t, s.CloseTable(ctx, "playing", store.Abandoned, "nobody for 24h"))
	p, err = s.Load(ctx, "playing")
	must(t, err)
	if p.Closed != store.Abandoned || p.Reason != "nobody for 24h" {
		t.Fatalf("closed again: %q, %q", p.Closed, p.Reason)
	}
	for _, c := range []store.Closed{store.NotClosed, "gone"} {
		if err := s.CloseTable(ctx, "other", c, ""); err == nil || !strings.HasPrefix(err.Error(), "store: ") {
			t.Errorf("closing as %q: %v, want a store: error", c, err)
		}
	}
	if err := s.CloseTable(ctx, "nowhere", store.Expired, ""); err == nil {
		t.Error("a missing table was closed")
	}
	if got := OpenIDs(t, s); !reflect.DeepEqual(got, []string{"other"}) {
		t.Fatalf("refused closings changed the open tables: %v", got)
	}
	// The match of a closed table is not refused its writes:
	// closing is the server's decision, not a lock.
	if err := s.AppendMove(ctx, "playing", 1, 3, store.Move{Move: json.RawMessage(`{}`)}); err != nil {
		t.Fatalf("a move at a closed table: %v", err)
	}
}

// Touch moves a table's Active on, as Open and Load see it; it refuses a
// table that does not exist.
func testTouch(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	must(t, s.CreateTable(ctx, store.Table{ID: "t", Game: "cabo", Players: 2, Created: time.UnixMilli(1000), Seats: []store.Seat{{}, {}}}, nil))
	at := time.UnixMilli(1_700_000_000_123)
	must(t, s.Touch(ctx, "t", at))
	got, err := s.Open(ctx)
	must(t, err)
	l, err := s.Load(ctx, "t")
	must(t, err)
	if len(got) != 1 || !got[0].Active.Equal(at) || !l.Active.Equal(at) || !l.Created.Equal(time.UnixMilli(1000)) {
		t.Fatalf("after Touch: open %+v, load active %v created %v", got, l.Active, l.Created)
	}
	if err := s.Touch(ctx, "nowhere", at); err == nil {
		t.Error("a missing table was touched")
	}
}

// A match start given with a table or a seat is written with it, or, if
// either is refused, neither is: a full table is never left without its
// match.
func testStartTogether(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	// Created full: the table and its match.
	must(t, s.CreateTable(ctx, store.Table{ID: "full", Game: "cabo", Players: 2, Seats: []store.Seat{{Name: "Ann", TokenHash: "h1"}, {Bot: "random"}}},
		&store.Start{No: 1, Seed: 1<<63 + 1}))
	f, err := s.Load(ctx, "full")
	must(t, err)
	if f.Match == nil || f.Match.No != 1 || f.Match.Seed != 1<<63+1 || f.Match.Over || f.Seats[1].Bot != "random" {
		t.Fatalf("a table created full: %+v, match %+v", f, f.Match)
	}
	// A second table under the same id is refused, and its match
	// with it: the first keeps its own.
	if err := s.CreateTable(ctx, store.Table{ID: "full", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}}, &store.Start{No: 2, Seed: 2}); err == nil {
		t.Fatal("a second table full was accepted")
	}
	if f, _ := s.Load(ctx, "full"); f.Match == nil || f.Match.No != 1 {
		t.Fatalf("the refused table's match was kept: %+v", f.Match)
	}

	// Filled by its last seat: the seat and the match.
	must(t, s.CreateTable(ctx, store.Table{ID: "t", Game: "cabo", Players: 2, Seats: []store.Seat{{Name: "Ann", TokenHash: "h1"}, {}}}, nil))
	must(t, s.SetSeat(ctx, "t", 1, store.Seat{Name: "Bob", TokenHash: "h2"}, &store.Start{No: 1, Seed: 77}))
	l, err := s.Load(ctx, "t")
	must(t, err)
	if l.Seats[1].Name != "Bob" || l.Match == nil || l.Match.Seed != 77 {
		t.Fatalf("the last seat taken: seats %+v, match %+v", l.Seats, l.Match)
	}
	if got, _ := s.Open(ctx); len(got) != 2 || !got[1].Started || got[1].Seated != 2 {
		t.Fatalf("open: %+v", got)
	}

	// A start that is refused (match 1 exists) takes its seat
	// write down with it.
	if err := s.SetSeat(ctx, "t", 1, store.Seat{Name: "Cid", TokenHash: "h3"}, &store.Start{No: 1, Seed: 78}); err == nil {
		t.Fatal("match 1 was started twice")
	}
	// A seat that is refused (there is no seat 2) takes its start
	// down with it.
	if err := s.SetSeat(ctx, "t", 2, store.Seat{Name: "Cid", TokenHash: "h3"}, &store.Start{No: 2, Seed: 79}); err == nil {
		t.Fatal("seat 2 of a 2-seat table was accepted")
	}
	l, err = s.Load(ctx, "t")
	must(t, err)
	if l.Seats[1].Name != "Bob" || l.Match.No != 1 || l.Match.Seed != 77 {
		t.Fatalf("after refused writes: seats %+v, match %+v", l.Seats, l.Match)
	}
}

// Tables lists every table, closed or finished too, in order.
func testTables(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	if ids, err := s.Tables(ctx); err != nil || len(ids) != 0 {
		t.Fatalf("an empty store's tables: %v, %v", ids, err)
	}
	for _, id := range []string{"b", "a", "c"} {
		must(t, FillTable(ctx, s, id, 1))
	}
	must(t, s.EndMatch(ctx, "b", 1))
	must(t, s.CloseTable(ctx, "c", store.Broken, "test"))
	ids, err := s.Tables(ctx)
	must(t, err)
	if !reflect.DeepEqual(ids, []string{"a", "b", "c"}) {
		t.Fatalf("tables: %v", ids)
	}
}

// Every store that checks itself (a store.IntegrityChecker: each of package
// store's) checks clean when nothing is wrong.
func testCheckClean(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	c, ok := s.(store.IntegrityChecker)
	if !ok {
		t.Skip("not a store.IntegrityChecker")
	}
	must(t, FillTable(ctx, s, "a", 3))
	must(t, c.Check(ctx))
}

// A table with more seats than players, or none, is refused.
func testRefusesPlayers(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	for _, tab := range []store.Table{
		{ID: "none", Game: "cabo", Players: 0},
		{ID: "many", Game: "cabo", Players: store.MaxPlayers + 1},
		{ID: "crowded", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}, {}}},
	} {
		if err := s.CreateTable(ctx, tab, nil); err == nil {
			t.Errorf("table %s (%d players, %d seats) was accepted", tab.ID, tab.Players, len(tab.Seats))
		}
	}
	if ids, err := s.Tables(ctx); err != nil || len(ids) != 0 {
		t.Fatalf("tables kept: %v, %v", ids, err)
	}
}

// sameSummaries compares summaries with their times as instants: a
// store may give them back in another location.
func sameSummaries(a, b []store.Summary) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !x.Created.Equal(y.Created) || !x.Active.Equal(y.Active) {
			return false
		}
		x.Created, x.Active, y.Created, y.Active = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if x != y {
			return false
		}
	}
	return true
}
