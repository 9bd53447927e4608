package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tapis/store"
)

// testPlayed lists a player's finished matches (store.History): rated or
// not, public or not, a closed table's too, a seat left to a bot too;
// never a match under way, a table without a match, nor another
// player's; newest table first, then by id and match number, paged by
// cursor.
func testPlayed(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer func() { s.Close() }()
	ann := func(seat int) store.Seat {
		return store.Seat{Name: "Ann", TokenHash: fmt.Sprint("h", seat), Player: "p1"}
	}
	bob := store.Seat{Name: "Bob", TokenHash: "hb", Player: "p2"}
	bot := store.Seat{Name: "", Bot: "easy"}
	table := func(id string, created int64, rated, public bool, seats ...store.Seat) {
		t.Helper()
		must(t, s.CreateTable(ctx, store.Table{ID: id, Game: "cabo", Players: len(seats), Created: time.UnixMilli(created),
			Seats: seats, Host: 0, Rated: rated, Public: public}, &store.Start{No: 1, Seed: 7}))
	}
	// a: private, unrated; matches 1 and 2 over, 3 under way.
	table("a", 1000, false, false, ann(0), bot)
	must(t, s.EndMatch(ctx, "a", 1))
	must(t, s.StartMatch(ctx, "a", 2, 8))
	must(t, s.EndMatch(ctx, "a", 2))
	must(t, s.StartMatch(ctx, "a", 3, 9))
	// b: rated and public, Ann's seat (1) left to a bot, which keeps her id.
	left := ann(1)
	left.Bot = "normal"
	table("b", 2000, true, true, bob, left)
	must(t, s.EndMatch(ctx, "b", 1))
	// c: created with b, its match under way.
	table("c", 2000, false, false, ann(0), bot)
	// d: Bob's alone.
	table("d", 3000, false, true, bob, bot)
	must(t, s.EndMatch(ctx, "d", 1))
	// e: waiting for a player, no match.
	must(t, s.CreateTable(ctx, store.Table{ID: "e", Game: "cabo", Players: 2, Created: time.UnixMilli(1500),
		Seats: []store.Seat{ann(0), {}}, Host: 0}, nil))
	// f: finished, then closed.
	table("f", 500, false, false, bot, ann(1))
	must(t, s.EndMatch(ctx, "f", 1))
	must(t, s.CloseTable(ctx, "f", store.Expired, "idle"))

	key := func(ps []store.Played) string {
		out := ""
		for _, p := range ps {
			out += fmt.Sprintf("%s%d ", p.Table, p.No)
		}
		return out
	}
	check := func(when string) {
		t.Helper()
		all, err := s.PlayedMatches(ctx, "p1", store.PlayedCursor{}, 50)
		must(t, err)
		if got := key(all); got != "b1 a2 a1 f1 " {
			t.Fatalf("%s: Ann's matches %q, want b1 a2 a1 f1", when, got)
		}
		want := store.Played{Table: "b", No: 1, Game: "cabo", Players: 2, Created: time.UnixMilli(2000), Rated: true, Public: true, Seat: 1}
		if got := all[0]; !got.Created.Equal(want.Created) || got.Table != want.Table || got.No != want.No || got.Game != want.Game ||
			got.Players != want.Players || got.Rated != want.Rated || got.Public != want.Public || got.Seat != want.Seat {
			t.Fatalf("%s: %+v, want %+v", when, got, want)
		}
		if all[1].Rated || all[1].Public || all[1].Seat != 0 || all[3].Seat != 1 {
			t.Fatalf("%s: %+v", when, all)
		}
		// Pages of two, each after the last line of the one before.
		var pages []string
		for c := (store.PlayedCursor{}); ; {
			pg, err := s.PlayedMatches(ctx, "p1", c, 2)
			must(t, err)
			if len(pg) == 0 {
				break
			}
			pages = append(pages, key(pg))
			c = pg[len(pg)-1].Cursor()
		}
		if fmt.Sprint(pages) != "[b1 a2  a1 f1 ]" {
			t.Fatalf("%s: pages %q", when, pages)
		}
		for _, c := range []struct {
			player string
			limit  int
			want   string
		}{{"p2", 50, "d1 b1 "}, {"p1", 0, ""}, {"p1", -1, ""}, {"nobody", 50, ""}, {"", 50, ""}} {
			got, err := s.PlayedMatches(ctx, c.player, store.PlayedCursor{}, c.limit)
			must(t, err)
			if key(got) != c.want {
				t.Fatalf("%s: %q's matches (limit %d): %q, want %q", when, c.player, c.limit, key(got), c.want)
			}
		}
	}
	check("written")
	if k.durable {
		must(t, s.Close())
		s = k.open(t)
		check("reopened")
	}
	must(t, s.Close())
	if _, err := s.PlayedMatches(ctx, "p1", store.PlayedCursor{}, 5); err == nil {
		t.Fatal("a closed store lists matches")
	}
}
