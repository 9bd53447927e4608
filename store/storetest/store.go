package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"tapis/store"
)

// A table's seats, match and moves come back as written, and a finished
// match's table is no longer listed.
func testRoundTrip(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	tab := store.Table{ID: "abc", Game: "cabo", Players: 2, Options: json.RawMessage(`{"hand_size":4}`),
		Created: time.UnixMilli(1000), Seats: []store.Seat{{Name: "Ann", TokenHash: "h1"}, {Bot: "random"}},
		TurnTime: 90 * time.Second, Host: 0, MemoryAid: true}
	must(t, s.CreateTable(ctx, tab, nil))
	must(t, s.CreateTable(ctx, store.Table{ID: "waiting", Game: "cabo", Players: 2, Created: time.UnixMilli(1), Seats: []store.Seat{{}, {}}, Host: -1}, nil))
	must(t, s.SetSeat(ctx, "abc", 1, store.Seat{Name: "Bob", TokenHash: "h2"}, nil))
	must(t, s.StartMatch(ctx, "abc", 1, 1<<63+5))
	moves := []store.Move{{Seat: 0, Move: json.RawMessage(`{"type":"draw"}`)}, {Seat: 1, Move: json.RawMessage(`{"type":"discard"}`)}}
	for i, m := range moves {
		must(t, s.AppendMove(ctx, "abc", 1, i, m))
	}
	if got := OpenIDs(t, s); !reflect.DeepEqual(got, []string{"abc", "waiting"}) {
		t.Fatalf("open: %v", got)
	}
	a, err := s.Load(ctx, "abc")
	must(t, err)
	if a.Game != "cabo" || a.Players != 2 || string(a.Options) != `{"hand_size":4}` || !a.Created.Equal(tab.Created) {
		t.Fatalf("table: %+v", a.Table)
	}
	w, err := s.Load(ctx, "waiting")
	must(t, err)
	if a.Host != 0 || !a.MemoryAid || w.Host != -1 || w.MemoryAid {
		t.Fatalf("host and memory aid: %d %v and %d %v, want 0 true and -1 false", a.Host, a.MemoryAid, w.Host, w.MemoryAid)
	}
	if a.TurnTime != 90*time.Second || w.TurnTime != 0 || w.Match != nil {
		t.Fatalf("time per move: %v and %v, want 1m30s and none; waiting match %+v", a.TurnTime, w.TurnTime, w.Match)
	}
	if !reflect.DeepEqual(a.Seats, []store.Seat{{Name: "Ann", TokenHash: "h1"}, {Name: "Bob", TokenHash: "h2"}}) {
		t.Fatalf("seats: %+v", a.Seats)
	}
	if a.Match.No != 1 || a.Match.Seed != 1<<63+5 || !reflect.DeepEqual(a.Match.Moves, moves) || a.Match.Over {
		t.Fatalf("match: %+v", a.Match)
	}
	must(t, s.EndMatch(ctx, "abc", 1))
	l, err := s.Load(ctx, "abc")
	must(t, err)
	if !l.Match.Over || len(l.Match.Moves) != 2 || l.Seats[1].Name != "Bob" || l.TurnTime != 90*time.Second {
		t.Fatalf("load: %+v", l)
	}
	if got := OpenIDs(t, s); !reflect.DeepEqual(got, []string{"waiting"}) {
		t.Fatalf("open after the end: %v", got)
	}
	must(t, s.StartMatch(ctx, "abc", 2, 7))
	l, err = s.Load(ctx, "abc")
	must(t, err)
	if got := OpenIDs(t, s); len(got) != 2 || l.Match.No != 2 || len(l.Match.Moves) != 0 || l.Match.Over {
		t.Fatalf("play again: open %v, match %+v", got, l.Match)
	}
	if err := s.AppendMove(ctx, "abc", 1, 5, moves[0]); err == nil || !strings.Contains(err.Error(), "out of order") {
		t.Fatalf("a move out of order: %v", err)
	}
}

// Tables, seats and matches that do not exist are refused with an error,
// and so is a second table under the same id.
func testRefuses(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	if _, err := s.Load(ctx, "nowhere"); err == nil {
		t.Error("Load of a missing table succeeded")
	}
	tab := store.Table{ID: "t", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}}
	must(t, s.CreateTable(ctx, tab, nil))
	if err := s.CreateTable(ctx, tab, nil); err == nil {
		t.Error("a second table t was accepted")
	}
	if err := s.AppendMove(ctx, "t", 1, 0, store.Move{Move: json.RawMessage(`{}`)}); err == nil {
		t.Error("a move of a match not started was accepted")
	}
	for _, seat := range []int{-1, 2} {
		if err := s.SetSeat(ctx, "t", seat, store.Seat{Name: "Zoé"}, nil); err == nil {
			t.Errorf("seat %d of a 2-seat table was accepted", seat)
		}
	}
	if err := s.SetSeat(ctx, "nowhere", 0, store.Seat{Name: "Zoé"}, nil); err == nil {
		t.Error("a seat of a missing table was accepted")
	}
	must(t, s.StartMatch(ctx, "t", 1, 1))
	if err := s.StartMatch(ctx, "t", 1, 2); err == nil {
		t.Error("match 1 was started twice")
	}
	if err := s.AppendMove(ctx, "t", 2, 0, store.Move{Move: json.RawMessage(`{}`)}); err == nil {
		t.Error("a move of another match was accepted")
	}
	must(t, s.AppendMove(ctx, "t", 1, 0, store.Move{Move: json.RawMessage(`{}`)}))
	if err := s.AppendMove(ctx, "t", 1, 0, store.Move{Move: json.RawMessage(`{}`)}); err == nil {
		t.Error("move 0 was recorded twice")
	}
}

// Once closed, a store answers every call with ErrClosed (Check too, if
// it is a store.IntegrityChecker).
func testClosed(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	must(t, s.CreateTable(ctx, store.Table{ID: "t", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}}, nil))
	must(t, s.Close())
	_, errO := s.Open(ctx)
	_, errL := s.Load(ctx, "t")
	_, errT := s.Tables(ctx)
	errs := map[string]error{
		"CreateTable": s.CreateTable(ctx, store.Table{ID: "u", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}}, nil),
		"SetSeat":     s.SetSeat(ctx, "t", 0, store.Seat{Name: "Ann"}, nil),
		"StartMatch":  s.StartMatch(ctx, "t", 1, 1),
		"AppendMove":  s.AppendMove(ctx, "t", 1, 0, store.Move{Move: json.RawMessage(`{}`)}),
		"EndMatch":    s.EndMatch(ctx, "t", 1),
		"Open":        errO,
		"Load":        errL,
		"Tables":      errT,
		"CloseTable":  s.CloseTable(ctx, "t", store.Expired, ""),
		"Touch":       s.Touch(ctx, "t", time.Now()),
	}
	if c, ok := s.(store.IntegrityChecker); ok {
		errs["Check"] = c.Check(ctx)
	}
	for what, err := range errs {
		if !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", what, err)
		}
	}
}

// Many tables written at once are all kept; writers racing for the same
// move of one table record it exactly once and leave no gap; and Open
// then lists every table.
func testConcurrent(t *testing.T, bk Backend) {
	ctx := context.Background()
	const tables, moves = 20, 30
	const racers, shared = 8, 40
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	must(t, s.CreateTable(ctx, store.Table{ID: "shared", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}}, nil))
	must(t, s.StartMatch(ctx, "shared", 1, 1))
	var wg sync.WaitGroup
	errs := make(chan error, tables+racers)
	for i := 0; i < tables; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- FillTable(ctx, s, fmt.Sprintf("t%02d", i), moves)
		}()
	}
	won := make([]int, racers)
	for r := 0; r < racers; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			won[r] = race(ctx, s, r, shared)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, err)
	}
	got := OpenIDs(t, s)
	if len(got) != tables+1 {
		t.Fatalf("%d open tables, want %d", len(got), tables+1)
	}
	var sharedMoves []store.Move
	for _, id := range got {
		l, err := s.Load(ctx, id)
		must(t, err)
		want := moves
		if id == "shared" {
			want = shared
			sharedMoves = l.Match.Moves
		}
		if len(l.Match.Moves) != want {
			t.Fatalf("table %s: %d moves back, want %d", id, len(l.Match.Moves), want)
		}
	}
	// Each racer's wins are the moves that carry its seat number.
	total := 0
	for r, n := range won {
		total += n
		c := 0
		for _, m := range sharedMoves {
			if m.Seat == r {
				c++
			}
		}
		if c != n {
			t.Errorf("racer %d was told %d moves went in, %d are recorded", r, n, c)
		}
	}
	if total != shared {
		t.Errorf("%d appends of the shared table succeeded, want %d", total, shared)
	}
}

// Everything written survives closing and opening again, and the match
// goes on where it stopped.
func testReopen(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	if !k.durable {
		t.Skip("keeps nothing after Close")
	}
	s := k.open(t)
	must(t, FillTable(ctx, s, "a", 5))
	must(t, FillTable(ctx, s, "b", 3))
	must(t, s.SetSeat(ctx, "a", 1, store.Seat{Name: "Bob", TokenHash: "h2"}, nil))
	must(t, s.EndMatch(ctx, "b", 1))
	before, err := s.Load(ctx, "a")
	must(t, err)
	must(t, s.Close())
	s = k.open(t)
	defer s.Close()
	after, err := s.Load(ctx, "a")
	must(t, err)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("before: %+v\nafter:  %+v", before, after)
	}
	must(t, s.AppendMove(ctx, "a", 1, 5, store.Move{Move: json.RawMessage(`{"type":"knock"}`)}))
	a, err := s.Load(ctx, "a")
	must(t, err)
	if got := OpenIDs(t, s); !reflect.DeepEqual(got, []string{"a"}) || len(a.Match.Moves) != 6 {
		t.Fatalf("after reopening: open %v, %d moves", got, len(a.Match.Moves))
	}
	b, err := s.Load(ctx, "b")
	must(t, err)
	if !b.Match.Over || len(b.Match.Moves) != 3 {
		t.Fatalf("finished table after reopening: %+v", b)
	}
}

// FillTable creates table id with a match of n moves: for the tests of a
// store's own ways (a damaged file, a batch), beside the suite.
func FillTable(ctx context.Context, s store.Store, id string, n int) error {
	if err := s.CreateTable(ctx, store.Table{ID: id, Game: "cabo", Players: 2, Seats: []store.Seat{{Name: id}, {Bot: "random"}}}, nil); err != nil {
		return err
	}
	if err := s.StartMatch(ctx, id, 1, uint64(len(id))); err != nil {
		return err
	}
	for m := 0; m < n; m++ {
		if err := s.AppendMove(ctx, id, 1, m, store.Move{Seat: m % 2, Move: json.RawMessage(fmt.Sprintf(`{"type":"draw","n":%d}`, m))}); err != nil {
			return err
		}
	}
	return nil
}

// race tries to append each of the n first moves of table "shared",
// signed with its seat r, and says how many went in. The one that wins a
// move tries the next one with the move it follows already recorded, so
// every move is won by someone.
func race(ctx context.Context, s store.Store, r, n int) int {
	won := 0
	for i := 0; i < n; i++ {
		if s.AppendMove(ctx, "shared", 1, i, store.Move{Seat: r, Move: json.RawMessage(`{"type":"draw"}`)}) == nil {
			won++
		}
	}
	return won
}

// OpenIDs lists the ids Open returns, failing on an error or a Problem.
func OpenIDs(t *testing.T, s store.Store) []string {
	t.Helper()
	got, err := s.Open(context.Background())
	must(t, err)
	ids := []string{}
	for _, sm := range got {
		if sm.Problem != "" {
			t.Fatalf("table %s: %s", sm.ID, sm.Problem)
		}
		ids = append(ids, sm.ID)
	}
	return ids
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
