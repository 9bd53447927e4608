package store

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

func stores(t *testing.T) map[string]func() Store {
	path := filepath.Join(t.TempDir(), "t.db")
	return map[string]func() Store{
		"memory": func() Store { return NewMemory() },
		"sqlite": func() Store {
			s, err := OpenSQLite(path)
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	}
}

// A table's seats, match and moves come back as written, and a finished
// match's table is no longer listed.
func TestStoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open()
			defer s.Close()
			tab := Table{ID: "abc", Game: "cabo", Players: 2, Options: json.RawMessage(`{"hand_size":4}`),
				Created: time.UnixMilli(1000), Seats: []Seat{{Name: "Ann", TokenHash: "h1"}, {Bot: "random"}}}
			must(t, s.CreateTable(ctx, tab))
			must(t, s.CreateTable(ctx, Table{ID: "waiting", Game: "cabo", Players: 2, Created: time.UnixMilli(1), Seats: []Seat{{}, {}}}))
			must(t, s.SetSeat(ctx, "abc", 1, Seat{Name: "Bob", TokenHash: "h2"}))
			must(t, s.StartMatch(ctx, "abc", 1, 1<<63+5))
			moves := []Move{{0, json.RawMessage(`{"type":"draw"}`)}, {1, json.RawMessage(`{"type":"discard"}`)}}
			for i, m := range moves {
				must(t, s.AppendMove(ctx, "abc", 1, i, m))
			}
			got, err := s.Unfinished(ctx)
			must(t, err)
			if len(got) != 2 || got[0].ID != "abc" || got[1].ID != "waiting" || got[1].Match != nil {
				t.Fatalf("unfinished: %+v", got)
			}
			a := got[0]
			if a.Game != "cabo" || a.Players != 2 || string(a.Options) != `{"hand_size":4}` || !a.Created.Equal(tab.Created) {
				t.Fatalf("table: %+v", a.Table)
			}
			if !reflect.DeepEqual(a.Seats, []Seat{{Name: "Ann", TokenHash: "h1"}, {Name: "Bob", TokenHash: "h2"}}) {
				t.Fatalf("seats: %+v", a.Seats)
			}
			if a.Match.No != 1 || a.Match.Seed != 1<<63+5 || !reflect.DeepEqual(a.Match.Moves, moves) {
				t.Fatalf("match: %+v", a.Match)
			}
			must(t, s.EndMatch(ctx, "abc", 1))
			l, err := s.Load(ctx, "abc")
			must(t, err)
			if !l.Match.Over || len(l.Match.Moves) != 2 || l.Seats[1].Name != "Bob" {
				t.Fatalf("load: %+v", l)
			}
			got, err = s.Unfinished(ctx)
			must(t, err)
			if len(got) != 1 || got[0].ID != "waiting" {
				t.Fatalf("after the end: %+v", got)
			}
			must(t, s.StartMatch(ctx, "abc", 2, 7))
			got, _ = s.Unfinished(ctx)
			if len(got) != 2 || got[0].Match.No != 2 || len(got[0].Match.Moves) != 0 {
				t.Fatalf("play again: %+v", got)
			}
			if err := s.AppendMove(ctx, "abc", 1, 5, moves[0]); err == nil {
				t.Fatal("a move out of order was accepted")
			}
		})
	}
}

// Concurrent writers are all committed (group commit), and everything
// committed survives a reopen.
func TestSQLiteConcurrentAndReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.db")
	s, err := OpenSQLite(path)
	must(t, err)
	const tables, moves = 20, 30
	var wg sync.WaitGroup
	for i := 0; i < tables; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			id := string(rune('a' + i))
			must(t, s.CreateTable(ctx, Table{ID: id, Game: "cabo", Players: 2, Seats: []Seat{{}, {}}}))
			must(t, s.StartMatch(ctx, id, 1, uint64(i)))
			for m := 0; m < moves; m++ {
				must(t, s.AppendMove(ctx, id, 1, m, Move{Seat: m % 2, Move: json.RawMessage(`{"type":"draw"}`)}))
			}
		}(i)
	}
	wg.Wait()
	must(t, s.Close())
	if err := s.AppendMove(ctx, "a", 1, moves, Move{}); err != ErrClosed {
		t.Fatalf("write after close: %v", err)
	}
	s, err = OpenSQLite(path)
	must(t, err)
	defer s.Close()
	got, err := s.Unfinished(ctx)
	must(t, err)
	if len(got) != tables {
		t.Fatalf("%d tables back, want %d", len(got), tables)
	}
	for _, g := range got {
		if len(g.Match.Moves) != moves {
			t.Fatalf("table %s: %d moves back", g.ID, len(g.Match.Moves))
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
