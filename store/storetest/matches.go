package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"tapis/store"
)

// Match reads any match of a table by number, finished or not, with its
// seats and moves: an earlier match after "play again" (and, in the
// durable stores, after a restart), the running one, and ErrNotFound for
// a match or a table that does not exist.
func testMatch(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer func() { s.Close() }()
	seats := []store.Seat{{Name: "Ann", TokenHash: "h1"}, {Bot: "random"}}
	must(t, s.CreateTable(ctx, store.Table{ID: "abc", Game: "cabo", Players: 2, Created: time.UnixMilli(1000), Seats: seats, Host: 0},
		&store.Start{No: 1, Seed: 11}))
	played := map[int][]store.Move{}
	// Three matches: 1 and 2 finished, 3 under way.
	for no := 1; no <= 3; no++ {
		if no > 1 {
			must(t, s.StartMatch(ctx, "abc", no, uint64(10+no)))
		}
		for i := range 4 - no {
			m := store.Move{Seat: i % 2, Move: json.RawMessage(fmt.Sprintf(`{"type":"m%d_%d"}`, no, i))}
			must(t, s.AppendMove(ctx, "abc", no, i, m))
			played[no] = append(played[no], m)
		}
		if no < 3 {
			must(t, s.EndMatch(ctx, "abc", no))
		}
	}
	check := func(when string) {
		t.Helper()
		for no := 1; no <= 3; no++ {
			sv, err := s.Match(ctx, "abc", no)
			must(t, err)
			m := sv.Match
			if m == nil || m.No != no || m.Seed != uint64(10+no) || m.Over != (no < 3) || !reflect.DeepEqual(m.Moves, played[no]) {
				t.Fatalf("%s: match %d: %+v", when, no, m)
			}
			if sv.ID != "abc" || sv.Game != "cabo" || !reflect.DeepEqual(sv.Seats, seats) {
				t.Fatalf("%s: match %d's table: %+v", when, no, sv.Table)
			}
		}
		for _, c := range []struct {
			id string
			no int
		}{{"abc", 0}, {"abc", 4}, {"nope", 1}} {
			if _, err := s.Match(ctx, c.id, c.no); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("%s: table %q match %d: %v, want ErrNotFound", when, c.id, c.no, err)
			}
		}
		if l, err := s.Load(ctx, "abc"); err != nil || l.Match.No != 3 {
			t.Fatalf("%s: Load still gives the latest match: %+v %v", when, l.Match, err)
		}
	}
	check("written")
	if k.durable {
		must(t, s.Close())
		s = k.open(t)
		check("reopened")
	}
}
