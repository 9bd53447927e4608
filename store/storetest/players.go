package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"tapis/store"
)

// testPeople runs the players, sessions, lobby, queue and chat suite
// on every store.
func testPeople(t *testing.T, bk Backend) {
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	t.Run("players", func(t *testing.T) { testPlayers(t, s) })
	t.Run("sessions", func(t *testing.T) { testSessions(t, s) })
	t.Run("delete", func(t *testing.T) { testDeletePlayer(t, s) })
	t.Run("lobby", func(t *testing.T) { testLobby(t, s) })
	t.Run("queue", func(t *testing.T) { testQueue(t, s) })
	t.Run("chat", func(t *testing.T) { testChat(t, s) })
	t.Run("chat bounds", func(t *testing.T) { testChatBounds(t, s) })
}

// Two servers sharing a database race to seat overlapping players: one
// seats them, the other gets ErrQueueChanged and writes no table.
func testSeatQueuedRace(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	if !k.durable {
		t.Skip("keeps no data shared between the stores it opens")
	}
	a, b := k.open(t), k.open(t)
	defer a.Close()
	defer b.Close()
	for round := 0; round < 10; round++ {
		p := func(i int) string { return fmt.Sprintf("r%d-%d", round, i) }
		for i := 0; i < 3; i++ {
			must(t, a.Enqueue(ctx, store.Entry{Player: p(i), Name: p(i), Game: "cabo", Joined: ms(int64(i))}))
		}
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i, st := range []store.Store{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Store i seats players i and 1.
				pl := []string{p(i * 2), p(1)}
				tab := store.Table{ID: fmt.Sprintf("race-%d-%d", round, i), Game: "cabo", Players: 2, Created: ms(1), Host: -1,
					Seats: []store.Seat{{Name: "x", TokenHash: "x", Player: pl[0]}, {Name: "y", TokenHash: "y", Player: pl[1]}}}
				errs[i] = st.SeatQueued(ctx, pl, tab, &store.Start{No: 1, Seed: 1})
			}()
		}
		wg.Wait()
		won := -1
		for i, err := range errs {
			switch {
			case err == nil && won >= 0:
				t.Fatalf("round %d: both stores seated player 1", round)
			case err == nil:
				won = i
			case !errors.Is(err, store.ErrQueueChanged):
				t.Fatalf("round %d: store %d: %v", round, i, err)
			}
		}
		if won < 0 {
			t.Fatalf("round %d: neither store seated the players", round)
		}
		lost := 1 - won
		if _, err := a.Load(ctx, fmt.Sprintf("race-%d-%d", round, lost)); err == nil {
			t.Fatalf("round %d: the losing store wrote its table", round)
		}
		e, err := a.QueueEntry(ctx, p(lost*2))
		must(t, err)
		if e.Table != "" {
			t.Fatalf("round %d: the loser's player was seated: %+v", round, e)
		}
		e, err = a.QueueEntry(ctx, p(1))
		must(t, err)
		if e.Table != fmt.Sprintf("race-%d-%d", round, won) || e.Seat != 1 {
			t.Fatalf("round %d: player 1's entry: %+v", round, e)
		}
	}
}

// ms is a time in Unix milliseconds, which every store keeps exactly.
func ms(n int64) time.Time { return time.UnixMilli(n) }

func testPlayers(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(t, s.CreatePlayer(ctx, store.Player{ID: "p1", Name: "Ann", Created: ms(1000)}))
	must(t, s.CreatePlayer(ctx, store.Player{ID: "p2", Name: "Bob", Created: ms(2000)}))
	if err := s.CreatePlayer(ctx, store.Player{ID: "p1", Name: "Again", Created: ms(3000)}); err == nil {
		t.Fatal("a second player p1 was created")
	}
	p, err := s.Player(ctx, "p1")
	must(t, err)
	if p.ID != "p1" || p.Name != "Ann" || p.Username != "" || p.UsernameKey != "" || p.Password != "" || p.Deleted || !p.Created.Equal(ms(1000)) {
		t.Fatalf("guest read back as %+v", p)
	}
	if _, err := s.Player(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing player: %v, want ErrNotFound", err)
	}
	// Two guests have no username: the empty key is nobody's.
	if _, err := s.PlayerByUsername(ctx, ""); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("empty username: %v, want ErrNotFound", err)
	}

	must(t, s.ClaimUsername(ctx, "p1", "Ann.E", "ann.e", "hash1"))
	if err := s.ClaimUsername(ctx, "p2", "ANN.E", "ann.e", "hash2"); !errors.Is(err, store.ErrTaken) {
		t.Fatalf("claiming a taken key: %v, want ErrTaken", err)
	}
	// A player has at most one username: a second claim, of another
	// username or the same, changes nothing (issue 24, finding 1: 6 claims
	// sent at once all took a username).
	for _, k := range []string{"ann.f", "ann.e"} {
		if err := s.ClaimUsername(ctx, "p1", "x", k, "hashX"); !errors.Is(err, store.ErrClaimed) {
			t.Fatalf("a second claim (%s) by p1: %v, want ErrClaimed", k, err)
		}
	}
	if _, err := s.PlayerByUsername(ctx, "ann.f"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the refused second claim holds ann.f: %v", err)
	}
	if err := s.ClaimUsername(ctx, "nobody", "x", "x", "h"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("claim by a missing player: %v, want ErrNotFound", err)
	}
	if err := s.CreatePlayer(ctx, store.Player{ID: "p3", Name: "Eve", Username: "ann.E", UsernameKey: "ann.e", Created: ms(1)}); !errors.Is(err, store.ErrTaken) {
		t.Fatalf("creating a player with a taken key: %v, want ErrTaken", err)
	}
	must(t, s.SetPassword(ctx, "p1", "hash3"))
	if err := s.SetPassword(ctx, "nobody", "h"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("password of a missing player: %v, want ErrNotFound", err)
	}
	p, err = s.PlayerByUsername(ctx, "ann.e")
	must(t, err)
	if p.ID != "p1" || p.Username != "Ann.E" || p.UsernameKey != "ann.e" || p.Password != "hash3" {
		t.Fatalf("claimed player read back as %+v", p)
	}
	b, err := s.Player(ctx, "p2")
	must(t, err)
	if b.Username != "" || b.Password != "" {
		t.Fatalf("the refused claim changed p2: %+v", b)
	}

	// Ann sits at an open table and a finished one; her new name follows
	// her to the open one only. PlayerTables lists open tables only,
	// newest first.
	must(t, s.CreateTable(ctx, store.Table{ID: "open-old", Game: "cabo", Players: 2, Created: ms(10), Host: -1,
		Seats: []store.Seat{{Name: "Bob", TokenHash: "b", Player: "p2"}, {Name: "Ann", TokenHash: "a", Player: "p1"}}}, &store.Start{No: 1, Seed: 1}))
	must(t, s.CreateTable(ctx, store.Table{ID: "open-new", Game: "papayoo", Players: 3, Created: ms(20), Host: 0,
		Seats: []store.Seat{{Name: "Ann", TokenHash: "a2", Player: "p1"}, {Bot: "random"}}}, nil))
	must(t, s.CreateTable(ctx, store.Table{ID: "finished", Game: "cabo", Players: 2, Created: ms(30), Host: -1,
		Seats: []store.Seat{{Name: "Ann", TokenHash: "a3", Player: "p1"}, {Bot: "random"}}}, &store.Start{No: 1, Seed: 2}))
	must(t, s.EndMatch(ctx, "finished", 1))
	must(t, s.CreateTable(ctx, store.Table{ID: "closed", Game: "cabo", Players: 2, Created: ms(40), Host: -1,
		Seats: []store.Seat{{Name: "Ann", TokenHash: "a4", Player: "p1"}}}, nil))
	must(t, s.CloseTable(ctx, "closed", store.Expired, "nobody came"))
	// A seat its player left mid-match keeps their id (a rated loss is
	// theirs) while a bot plays it: not one of their tables any more.
	must(t, s.CreateTable(ctx, store.Table{ID: "left", Game: "cabo", Players: 2, Created: ms(50), Host: -1,
		Seats: []store.Seat{{Name: "Ann", Bot: "easy", Player: "p1"}, {Bot: "random"}}}, &store.Start{No: 1, Seed: 3}))

	must(t, s.RenamePlayer(ctx, "p1", "Annie"))
	if err := s.RenamePlayer(ctx, "nobody", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("renaming a missing player: %v, want ErrNotFound", err)
	}
	p, err = s.Player(ctx, "p1")
	must(t, err)
	if p.Name != "Annie" {
		t.Fatalf("renamed player: %+v", p)
	}
	for id, want := range map[string]store.Seat{
		"open-old": {Name: "Annie", TokenHash: "a", Player: "p1"}, "open-new": {Name: "Annie", TokenHash: "a2", Player: "p1"},
		"finished": {Name: "Ann", TokenHash: "a3", Player: "p1"}, "closed": {Name: "Ann", TokenHash: "a4", Player: "p1"},
	} {
		tab, err := s.Load(ctx, id)
		must(t, err)
		seat := tab.Seats[0]
		if id == "open-old" {
			seat = tab.Seats[1]
			if tab.Seats[0].Name != "Bob" {
				t.Fatalf("renaming Ann renamed Bob: %+v", tab.Seats)
			}
		}
		if seat != want {
			t.Fatalf("table %s: Ann's seat %+v, want %+v", id, seat, want)
		}
	}
	pts, err := s.PlayerTables(ctx, "p1")
	must(t, err)
	want := []store.PlayerTable{
		{Summary: store.Summary{ID: "open-new", Game: "papayoo", Players: 3, Created: ms(20), Active: ms(20), Seated: 2}, Seat: 0},
		{Summary: store.Summary{ID: "open-old", Game: "cabo", Players: 2, Created: ms(10), Active: ms(10), Started: true, Seated: 2}, Seat: 1},
	}
	if !samePlayerTables(pts, want) {
		t.Fatalf("tables of p1: %+v, want %+v", pts, want)
	}
	if pts, err := s.PlayerTables(ctx, "nobody"); err != nil || len(pts) != 0 {
		t.Fatalf("tables of nobody: %+v, %v", pts, err)
	}

	// Ann, a guest, signs in as the account p9: her seats at the open
	// tables go with her; the finished and closed ones stay hers.
	must(t, s.MoveSeats(ctx, "p1", "p9", "Ann A."))
	for id, want := range map[string]store.Seat{
		"open-old": {Name: "Ann A.", TokenHash: "a", Player: "p9"}, "open-new": {Name: "Ann A.", TokenHash: "a2", Player: "p9"},
		"finished": {Name: "Ann", TokenHash: "a3", Player: "p1"}, "closed": {Name: "Ann", TokenHash: "a4", Player: "p1"},
	} {
		tab, err := s.Load(ctx, id)
		must(t, err)
		seat := tab.Seats[0]
		if id == "open-old" {
			seat = tab.Seats[1]
			if tab.Seats[0].Player != "p2" || tab.Seats[0].Name != "Bob" {
				t.Fatalf("moving Ann's seats moved Bob's: %+v", tab.Seats)
			}
		}
		if seat != want {
			t.Fatalf("table %s after the move: Ann's seat %+v, want %+v", id, seat, want)
		}
	}
	if pts, err := s.PlayerTables(ctx, "p9"); err != nil || len(pts) != 2 {
		t.Fatalf("tables of p9 after the move: %+v, %v", pts, err)
	}
	if pts, err := s.PlayerTables(ctx, "p1"); err != nil || len(pts) != 0 {
		t.Fatalf("tables of p1 after the move: %+v, %v", pts, err)
	}
}

// samePlayerTables compares times with Equal: stores read them back in
// their own location.
func samePlayerTables(a, b []store.PlayerTable) bool {
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

func testSessions(t *testing.T, s store.Store) {
	ctx := context.Background()
	for _, ss := range []store.Session{
		{Hash: "s1", Player: "q1", Created: ms(0), Expires: ms(1000)},
		{Hash: "s2", Player: "q1", Created: ms(0), Expires: ms(5000)},
		{Hash: "s3", Player: "q1", Created: ms(0), Expires: ms(5000)},
		{Hash: "s4", Player: "q2", Created: ms(0), Expires: ms(5000)},
		{Hash: "s5", Player: "q2", Created: ms(0), Expires: ms(500)},
	} {
		must(t, s.CreateSession(ctx, ss))
	}
	got, err := s.Session(ctx, "s1", ms(999))
	must(t, err)
	if got.Hash != "s1" || got.Player != "q1" || !got.Created.Equal(ms(0)) || !got.Expires.Equal(ms(1000)) {
		t.Fatalf("session s1: %+v", got)
	}
	for _, c := range []struct {
		hash string
		now  int64
	}{{"s1", 1000}, {"s1", 2000}, {"nope", 0}} {
		if _, err := s.Session(ctx, c.hash, ms(c.now)); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("session %s at %d: %v, want ErrNotFound", c.hash, c.now, err)
		}
	}
	must(t, s.DeleteSession(ctx, "s2"))
	must(t, s.DeleteSession(ctx, "s2")) // not an error
	alive := func(hashes ...string) {
		t.Helper()
		for _, h := range []string{"s1", "s2", "s3", "s4", "s5"} {
			_, err := s.Session(ctx, h, ms(0))
			in := false
			for _, w := range hashes {
				in = in || w == h
			}
			if in != (err == nil) {
				t.Fatalf("session %s: %v, want alive %v", h, err, in)
			}
		}
	}
	alive("s1", "s3", "s4", "s5")
	must(t, s.CreateSession(ctx, store.Session{Hash: "s6", Player: "q1", Expires: ms(5000)}))
	must(t, s.DeleteSessions(ctx, "q1", "s3"))
	alive("s3", "s4", "s5")
	n, err := s.DeleteExpiredSessions(ctx, ms(500))
	must(t, err)
	if n != 1 {
		t.Fatalf("deleted %d expired sessions, want 1 (s5)", n)
	}
	alive("s3", "s4")
	must(t, s.DeleteSessions(ctx, "q2", ""))
	alive("s3")
}

func testDeletePlayer(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(t, s.CreatePlayer(ctx, store.Player{ID: "d1", Name: "Dee", Username: "Dee", UsernameKey: "dee", Password: "h", Created: ms(1)}))
	must(t, s.CreatePlayer(ctx, store.Player{ID: "d2", Name: "Kay", Created: ms(1)}))
	must(t, s.CreateSession(ctx, store.Session{Hash: "ds1", Player: "d1", Expires: ms(5000)}))
	must(t, s.CreateSession(ctx, store.Session{Hash: "ds2", Player: "d2", Expires: ms(5000)}))
	must(t, s.CreateTable(ctx, store.Table{ID: "d-done", Game: "cabo", Players: 2, Created: ms(1), Host: -1,
		Seats: []store.Seat{{Name: "Dee", TokenHash: "x", Player: "d1"}, {Name: "Kay", TokenHash: "y", Player: "d2"}}}, &store.Start{No: 1, Seed: 1}))
	must(t, s.EndMatch(ctx, "d-done", 1))
	for i, who := range []string{"d1", "d2"} {
		if _, err := s.AppendChat(ctx, store.Line{Table: "d-done", Seat: i, Player: who, Name: who + "-name", Text: "gg", At: ms(2)}); err != nil {
			t.Fatal(err)
		}
	}
	must(t, s.Enqueue(ctx, store.Entry{Player: "d1", Name: "Dee", Game: "cabo", Joined: ms(3)}))

	must(t, s.DeletePlayer(ctx, "d1"))
	if err := s.DeletePlayer(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleting a missing player: %v, want ErrNotFound", err)
	}
	p, err := s.Player(ctx, "d1")
	must(t, err)
	if !p.Deleted || p.Name != "" || p.Username != "" || p.UsernameKey != "" || p.Password != "" {
		t.Fatalf("deleted player: %+v", p)
	}
	if _, err := s.PlayerByUsername(ctx, "dee"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted player's username: %v, want ErrNotFound", err)
	}
	if _, err := s.Session(ctx, "ds1", ms(0)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted player's session: %v, want ErrNotFound", err)
	}
	if _, err := s.Session(ctx, "ds2", ms(0)); err != nil {
		t.Fatalf("another player's session: %v", err)
	}
	tab, err := s.Load(ctx, "d-done")
	must(t, err)
	if want := []store.Seat{{TokenHash: "x", Player: "d1"}, {Name: "Kay", TokenHash: "y", Player: "d2"}}; !reflect.DeepEqual(tab.Seats, want) {
		t.Fatalf("seats after deletion: %+v, want %+v", tab.Seats, want)
	}
	lines, err := s.Chat(ctx, "d-done", 10)
	must(t, err)
	if len(lines) != 2 || lines[0].Name != "" || lines[0].Player != "d1" || lines[0].Text != "gg" || lines[1].Name != "d2-name" {
		t.Fatalf("chat after deletion: %+v", lines)
	}
	if _, err := s.QueueEntry(ctx, "d1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted player's queue entry: %v, want ErrNotFound", err)
	}
	// The username is free again.
	must(t, s.ClaimUsername(ctx, "d2", "Dee", "dee", "h2"))
}

func testLobby(t *testing.T, s store.Store) {
	ctx := context.Background()
	for _, tab := range []struct {
		store.Table
		start bool
	}{
		{Table: store.Table{ID: "w-old", Game: "cabo", Players: 2, Public: true, Lang: "fr", Seats: []store.Seat{{Name: "A", TokenHash: "a", Player: "x"}}}},
		{Table: store.Table{ID: "w-papayoo", Game: "papayoo", Players: 3, Public: true, Lang: "en", Seats: []store.Seat{{Bot: "random"}}}},
		{Table: store.Table{ID: "w-private", Game: "cabo", Players: 2, Seats: []store.Seat{{Name: "B", TokenHash: "b"}}}},
		{Table: store.Table{ID: "w-full", Game: "cabo", Players: 2, Public: true, Seats: []store.Seat{{Name: "C", TokenHash: "c"}, {Bot: "random"}}}},
		// Named but without a token: the seat is still free.
		{Table: store.Table{ID: "w-new", Game: "cabo", Players: 2, Public: true, Lang: "en", Seats: []store.Seat{{Name: "D", TokenHash: "d"}, {Name: "held"}}}},
		{Table: store.Table{ID: "w-started", Game: "cabo", Players: 2, Public: true, Seats: []store.Seat{{Name: "E", TokenHash: "e"}}}, start: true},
		{Table: store.Table{ID: "w-closed", Game: "cabo", Players: 2, Public: true, Seats: []store.Seat{{Name: "F", TokenHash: "f"}}}},
	} {
		tab.Created, tab.Host = ms(int64(100+len(tab.ID))*1000+int64(tab.ID[2])), 0
		var st *store.Start
		if tab.start {
			st = &store.Start{No: 1, Seed: 3}
		}
		must(t, s.CreateTable(ctx, tab.Table, st))
	}
	must(t, s.CloseTable(ctx, "w-closed", store.Expired, ""))
	ids := func(game string, limit int) []string {
		t.Helper()
		ts, err := s.WaitingTables(ctx, game, time.Time{}, limit)
		must(t, err)
		var out []string
		for _, x := range ts {
			out = append(out, x.ID)
		}
		return out
	}
	// Created: w-papayoo (9 letters) after w-new (5) and w-old (5), w-old
	// after w-new ('o' > 'n').
	for _, c := range []struct {
		game  string
		limit int
		want  []string
	}{
		{"", 10, []string{"w-papayoo", "w-old", "w-new"}},
		{"", 2, []string{"w-papayoo", "w-old"}},
		{"cabo", 10, []string{"w-old", "w-new"}},
		{"cabo", 1, []string{"w-old"}},
		{"limits", 10, nil},
	} {
		if got := ids(c.game, c.limit); !reflect.DeepEqual(got, c.want) {
			t.Fatalf("waiting tables of %q, limit %d: %v, want %v", c.game, c.limit, got, c.want)
		}
	}
	// Only the tables active since a time (issue 24, finding 17: a
	// table nobody is at is not listed): Active is Created at first, then
	// what Touch says.
	since := func(at time.Time) []string {
		t.Helper()
		ts, err := s.WaitingTables(ctx, "", at, 10)
		must(t, err)
		var out []string
		for _, x := range ts {
			out = append(out, x.ID)
		}
		return out
	}
	if got := since(ms(105111)); !reflect.DeepEqual(got, []string{"w-papayoo", "w-old"}) {
		t.Fatalf("waiting tables active since w-old was made: %v", got)
	}
	must(t, s.Touch(ctx, "w-new", ms(200_000)))
	if got := since(ms(150_000)); !reflect.DeepEqual(got, []string{"w-new"}) {
		t.Fatalf("waiting tables active since a touch of w-new: %v", got)
	}
	ts, err := s.WaitingTables(ctx, "cabo", time.Time{}, 1)
	must(t, err)
	w := ts[0]
	if !w.Public || w.Lang != "fr" || w.Players != 2 || !reflect.DeepEqual(w.Seats, []store.Seat{{Name: "A", TokenHash: "a", Player: "x"}, {}}) {
		t.Fatalf("waiting table w-old: %+v", w)
	}
	// Taking the last free seat takes the table out of the lobby.
	must(t, s.SetSeat(ctx, "w-old", 1, store.Seat{Name: "G", TokenHash: "g", Player: "y"}, nil))
	if got := ids("cabo", 10); !reflect.DeepEqual(got, []string{"w-new"}) {
		t.Fatalf("after w-old filled: %v", got)
	}
	l, err := s.Load(ctx, "w-old")
	must(t, err)
	if l.Seats[1].Player != "y" || !l.Public || l.Lang != "fr" {
		t.Fatalf("w-old loaded: %+v", l)
	}
}

func testQueue(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, err := s.QueueEntry(ctx, "u1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("entry of nobody queued: %v, want ErrNotFound", err)
	}
	must(t, s.Enqueue(ctx, store.Entry{Player: "u1", Name: "One", Game: "papayoo", Players: 3, Bot: "random", Wait: time.Minute, Joined: ms(50)}))
	// u1 changes their mind: one entry, the new one.
	e1 := store.Entry{Player: "u1", Name: "One", Game: "cabo", Players: 2, Bot: "heuristic", Wait: 30 * time.Second, Joined: ms(100)}
	must(t, s.Enqueue(ctx, e1))
	must(t, s.Enqueue(ctx, store.Entry{Player: "u2", Name: "Two", Game: "cabo", Joined: ms(90), Wait: -time.Second}))
	must(t, s.Enqueue(ctx, store.Entry{Player: "u3", Name: "Three", Game: "cabo", Joined: ms(110)}))
	must(t, s.Enqueue(ctx, store.Entry{Player: "u4", Name: "Four", Game: "dacapo", Joined: ms(10)}))
	got, err := s.QueueEntry(ctx, "u1")
	must(t, err)
	if !sameEntry(got, e1) {
		t.Fatalf("u1's entry: %+v, want %+v", got, e1)
	}
	queued := func(game string) []string {
		t.Helper()
		es, err := s.Queued(ctx, game)
		must(t, err)
		var out []string
		for _, e := range es {
			out = append(out, e.Player)
		}
		return out
	}
	if q := queued("cabo"); !reflect.DeepEqual(q, []string{"u2", "u1", "u3"}) {
		t.Fatalf("cabo queue: %v", q)
	}
	if q := queued(""); !reflect.DeepEqual(q, []string{"u4", "u2", "u1", "u3"}) {
		t.Fatalf("whole queue: %v", q)
	}
	if q := queued("papayoo"); q != nil {
		t.Fatalf("papayoo queue after u1 moved: %v", q)
	}
	must(t, s.LeaveQueue(ctx, "u4"))
	must(t, s.LeaveQueue(ctx, "u4")) // not an error
	if q := queued(""); !reflect.DeepEqual(q, []string{"u2", "u1", "u3"}) {
		t.Fatalf("queue after u4 left: %v", q)
	}

	tab := store.Table{ID: "q-1", Game: "cabo", Players: 2, Created: ms(200), Host: -1,
		Seats: []store.Seat{{Name: "Two", TokenHash: "t2", Player: "u2"}, {Name: "One", TokenHash: "t1", Player: "u1"}}}
	must(t, s.SeatQueued(ctx, []string{"u2", "u1"}, tab, &store.Start{No: 1, Seed: 77}))
	for p, seat := range map[string]int{"u1": 1, "u2": 0} {
		e, err := s.QueueEntry(ctx, p)
		must(t, err)
		if e.Table != "q-1" || e.Seat != seat {
			t.Fatalf("%s seated at %s/%d, want q-1/%d", p, e.Table, e.Seat, seat)
		}
	}
	l, err := s.Load(ctx, "q-1")
	must(t, err)
	if l.Match == nil || l.Match.No != 1 || l.Match.Seed != 77 || !reflect.DeepEqual(l.Seats, tab.Seats) {
		t.Fatalf("the queue's table: %+v, match %+v", l.Table, l.Match)
	}
	if q := queued("cabo"); !reflect.DeepEqual(q, []string{"u3"}) {
		t.Fatalf("queue after seating: %v", q)
	}

	// u5 leaves before being seated with u3: nothing is written. u2,
	// seated already, cannot be seated again.
	must(t, s.Enqueue(ctx, store.Entry{Player: "u5", Name: "Five", Game: "cabo", Joined: ms(120)}))
	must(t, s.LeaveQueue(ctx, "u5"))
	for _, c := range []struct{ a, b string }{{"u3", "u5"}, {"u3", "u2"}} {
		tab2 := store.Table{ID: "q-" + c.b, Game: "cabo", Players: 2, Created: ms(300), Host: -1,
			Seats: []store.Seat{{Name: "a", TokenHash: "x", Player: c.a}, {Name: "b", TokenHash: "y", Player: c.b}}}
		if err := s.SeatQueued(ctx, []string{c.a, c.b}, tab2, &store.Start{No: 1, Seed: 1}); !errors.Is(err, store.ErrQueueChanged) {
			t.Fatalf("seating %s and %s: %v, want ErrQueueChanged", c.a, c.b, err)
		}
		if _, err := s.Load(ctx, tab2.ID); err == nil {
			t.Fatalf("table %s written although the queue changed", tab2.ID)
		}
	}
	e, err := s.QueueEntry(ctx, "u3")
	must(t, err)
	if e.Table != "" {
		t.Fatalf("u3 seated by a refused SeatQueued: %+v", e)
	}
	if e, _ := s.QueueEntry(ctx, "u2"); e.Table != "q-1" {
		t.Fatalf("u2's entry changed by a refused SeatQueued: %+v", e)
	}
	// A named player without a seat at the table is a caller's mistake.
	if err := s.SeatQueued(ctx, []string{"u3"}, store.Table{ID: "q-x", Game: "cabo", Players: 2, Host: -1}, nil); err == nil {
		t.Fatal("seated u3 at a table without their seat")
	}
}

// sameEntry compares entries, times with Equal.
func sameEntry(a, b store.Entry) bool {
	if !a.Joined.Equal(b.Joined) {
		return false
	}
	a.Joined, b.Joined = time.Time{}, time.Time{}
	return a == b
}

func testChat(t *testing.T, s store.Store) {
	ctx := context.Background()
	for _, id := range []string{"c-1", "c-2"} {
		must(t, s.CreateTable(ctx, store.Table{ID: id, Game: "cabo", Players: 2, Created: ms(1), Host: -1}, nil))
	}
	for i := 1; i <= 5; i++ {
		no, err := s.AppendChat(ctx, store.Line{Table: "c-1", Seat: i%3 - 1, Player: "pl", Name: "Pat", Text: fmt.Sprint("line ", i), At: ms(int64(i))})
		must(t, err)
		if no != i {
			t.Fatalf("line %d numbered %d", i, no)
		}
	}
	no, err := s.AppendChat(ctx, store.Line{Table: "c-2", Seat: 0, Text: "other", At: ms(9)})
	must(t, err)
	if no != 1 {
		t.Fatalf("c-2's first line numbered %d", no)
	}
	if _, err := s.AppendChat(ctx, store.Line{Table: "c-none", Text: "x"}); err == nil {
		t.Fatal("chat at a missing table")
	}
	lines, err := s.Chat(ctx, "c-1", 3)
	must(t, err)
	if len(lines) != 3 {
		t.Fatalf("last 3 lines: %+v", lines)
	}
	for i, l := range lines {
		n := i + 3
		want := store.Line{Table: "c-1", No: n, Seat: n%3 - 1, Player: "pl", Name: "Pat", Text: fmt.Sprint("line ", n), At: ms(int64(n))}
		if !l.At.Equal(want.At) {
			t.Fatalf("line %d at %v", n, l.At)
		}
		l.At = want.At
		if l != want {
			t.Fatalf("line %d: %+v, want %+v", n, l, want)
		}
	}
	all, err := s.Chat(ctx, "c-1", 100)
	must(t, err)
	if len(all) != 5 || all[0].No != 1 || all[4].No != 5 {
		t.Fatalf("all lines: %+v", all)
	}
	if none, err := s.Chat(ctx, "c-none", 10); err != nil || len(none) != 0 {
		t.Fatalf("chat of a missing table: %+v, %v", none, err)
	}
}
