package storetest

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"tapis/store"
)

// A turn-based table's clock (issue 29) comes back as written, to the
// millisecond, after a reopen too; a table without one has none. The due
// tables are those open whose deadline is at or before the time asked,
// the earliest first, at most as many as asked: not a clock without a
// deadline, nor a closed table's, nor a finished match's.
func testClocks(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	at := func(ms int64) time.Time { return time.UnixMilli(ms) }
	for _, id := range []string{"early", "late", "none", "closed", "over", "realtime"} {
		must(t, FillTable(ctx, s, id, 2))
	}
	early := store.Clock{Match: 1, N: 3, Turn: 36 * time.Hour, Due: []time.Time{{}, at(1_000_500)}, Timeouts: []int{0, 2}, Deadline: at(2_000_500)}
	must(t, s.SetClock(ctx, "early", store.Clock{Match: 1, N: 2, Due: []time.Time{at(1), {}}, Timeouts: []int{1, 0}, Deadline: at(9_000_000)}))
	must(t, s.SetClock(ctx, "early", early)) // replaces the one before
	must(t, s.SetClock(ctx, "late", store.Clock{Match: 1, Due: []time.Time{at(1_500_000), {}}, Timeouts: []int{0, 0}, Deadline: at(2_500_000)}))
	must(t, s.SetClock(ctx, "none", store.Clock{Match: 1, N: 9, Due: []time.Time{{}, {}}, Timeouts: []int{0, 0}}))
	must(t, s.SetClock(ctx, "closed", store.Clock{Match: 1, Due: []time.Time{at(1), {}}, Timeouts: []int{0, 0}, Deadline: at(100)}))
	must(t, s.CloseTable(ctx, "closed", store.Abandoned, ""))
	must(t, s.SetClock(ctx, "over", store.Clock{Match: 1, Due: []time.Time{at(1), {}}, Timeouts: []int{0, 0}, Deadline: at(100)}))
	must(t, s.EndMatch(ctx, "over", 1))

	check := func(s store.Store) {
		t.Helper()
		c, ok, err := s.Clock(ctx, "early")
		must(t, err)
		if !ok || !reflect.DeepEqual(c, early) {
			t.Fatalf("early's clock: %+v (%v), want %+v", c, ok, early)
		}
		if _, ok, err := s.Clock(ctx, "realtime"); err != nil || ok {
			t.Fatalf("a table without a clock has one: %v %v", ok, err)
		}
		if _, ok, err := s.Clock(ctx, "nosuch"); err != nil || ok {
			t.Fatalf("no table has a clock: %v %v", ok, err)
		}
		all, err := s.OpenClocks(ctx)
		must(t, err)
		if len(all) != 3 || all["none"].N != 9 || !all["none"].Deadline.IsZero() || !all["late"].Deadline.Equal(at(2_500_000)) {
			t.Fatalf("open clocks: %+v, want early, late and none", all)
		}
		for _, c := range []struct {
			now   int64
			limit int
			want  []string
		}{{2_000_499, 10, nil}, {2_000_500, 10, []string{"early"}}, {3_000_000, 10, []string{"early", "late"}}, {3_000_000, 1, []string{"early"}}} {
			got, err := s.DueClocks(ctx, at(c.now), c.limit)
			must(t, err)
			if !slices.Equal(got, c.want) {
				t.Fatalf("due at %d (at most %d): %v, want %v", c.now, c.limit, got, c.want)
			}
		}
	}
	check(s)
	if !k.durable {
		s.Close()
		return
	}
	must(t, s.Close())
	s = k.open(t)
	defer s.Close()
	check(s)
}

// A clock's warning (the time a due person is told their deadline is
// near) comes back as written, and the table is due from it, the earlier
// of its warning and its deadline; once the warning is gone, from its
// deadline again.
func testClockWarn(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	at := func(ms int64) time.Time { return time.UnixMilli(ms) }
	must(t, FillTable(ctx, s, "warn", 2))
	c := store.Clock{Match: 1, N: 4, Turn: 2 * time.Hour, Due: []time.Time{at(1_000), {}}, Timeouts: []int{0, 0}, Deadline: at(7_201_000), Warn: at(3_601_000)}
	must(t, s.SetClock(ctx, "warn", c))
	got, ok, err := s.Clock(ctx, "warn")
	must(t, err)
	if !ok || !reflect.DeepEqual(got, c) {
		t.Fatalf("the clock with a warning: %+v, want %+v", got, c)
	}
	due := func(ms int64) []string {
		ids, err := s.DueClocks(ctx, at(ms), 10)
		must(t, err)
		return ids
	}
	if d0, d1 := due(3_600_999), due(3_601_000); len(d0) != 0 || !slices.Equal(d1, []string{"warn"}) {
		t.Fatalf("due before the warning %v, at it %v", d0, d1)
	}
	c.Warn = time.Time{}
	must(t, s.SetClock(ctx, "warn", c))
	if d0, d1 := due(7_200_999), due(7_201_000); len(d0) != 0 || !slices.Equal(d1, []string{"warn"}) {
		t.Fatalf("warned: due before the deadline %v, at it %v", d0, d1)
	}
}
