package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"tapis/store"
)

// A match's analysis is kept once (a second save keeps the first), read
// back per match, ErrNotFound for one never analysed, and outlives a
// restart; a coached table keeps its option; hints are counted per seat
// and match.
func testAnalyses(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer func() { s.Close() }()
	seats := []store.Seat{{Name: "Ann", TokenHash: "h1"}, {Bot: "hard"}}
	must(t, s.CreateTable(ctx, store.Table{ID: "co", Game: "cabo", Players: 2, Created: time.UnixMilli(1000), Seats: seats, Host: 0, Coach: true},
		&store.Start{No: 1, Seed: 11}))
	must(t, s.CreateTable(ctx, store.Table{ID: "plain", Game: "cabo", Players: 2, Created: time.UnixMilli(1000), Seats: seats, Host: 0},
		&store.Start{No: 1, Seed: 12}))
	if _, err := s.Analysis(ctx, "co", 1); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an analysis never saved: %v, want ErrNotFound", err)
	}
	first := []byte(`{"moves":[{"n":3,"cost":0.25}]}`)
	must(t, s.SaveAnalysis(ctx, "co", 1, first, time.UnixMilli(5000)))
	must(t, s.SaveAnalysis(ctx, "co", 1, []byte(`{"other":true}`), time.UnixMilli(6000)))
	must(t, s.SaveAnalysis(ctx, "co", 2, []byte(`{"second":true}`), time.UnixMilli(6000)))
	for i, want := range map[int]int{1: 3, 2: 1, 0: 1} {
		n, err := s.AddHint(ctx, "co", 1, i)
		must(t, err)
		for n < want {
			n, err = s.AddHint(ctx, "co", 1, i)
			must(t, err)
		}
	}
	_, err := s.AddHint(ctx, "co", 2, 1)
	must(t, err)
	check := func(s store.Store) {
		t.Helper()
		got, err := s.Analysis(ctx, "co", 1)
		must(t, err)
		if string(got) != string(first) {
			t.Fatalf("match 1's analysis: %s, want the first saved %s", got, first)
		}
		if got, err := s.Analysis(ctx, "co", 2); err != nil || string(got) != `{"second":true}` {
			t.Fatalf("match 2's analysis: %s %v", got, err)
		}
		h, err := s.Hints(ctx, "co", 1)
		must(t, err)
		if want := map[int]int{0: 1, 1: 3, 2: 1}; !reflect.DeepEqual(h, want) {
			t.Fatalf("hints of match 1: %v, want %v", h, want)
		}
		if h, err := s.Hints(ctx, "plain", 1); err != nil || len(h) != 0 {
			t.Fatalf("hints at a table that asked for none: %v %v", h, err)
		}
		co, err := s.Load(ctx, "co")
		must(t, err)
		plain, err := s.Match(ctx, "plain", 1)
		must(t, err)
		if !co.Coach || plain.Coach {
			t.Fatalf("coach: %v and %v, want true and false", co.Coach, plain.Coach)
		}
	}
	check(s)
	if n, err := s.AddHint(ctx, "co", 2, 1); err != nil || n != 2 {
		t.Fatalf("a second hint of seat 1 in match 2: %d %v, want 2", n, err)
	}
	if k.durable {
		must(t, s.Close())
		s = k.open(t)
		check(s)
	}
	must(t, s.Close())
	if _, err := s.Analysis(ctx, "co", 1); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Analysis after Close: %v, want ErrClosed", err)
	}
}
