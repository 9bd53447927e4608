package server_test

import (
	"context"
	"net/http"
	"testing"
)

// myTables reads p's "Your tables" (/api/me/tables): their ids.
func myTables(t *testing.T, p *person) []string {
	t.Helper()
	var mine myTablesResp
	p.must(http.StatusOK, "GET", "/api/me/tables", nil, &mine)
	var ids []string
	for _, tab := range mine.Tables {
		ids = append(ids, tab.ID)
	}
	return ids
}

// refusedAs sends v on c and returns the code of the error it answers.
func refusedAs(c *client, v any) string {
	c.send(v)
	m, err := c.nextE("error")
	if err != nil {
		for _, b := range c.messages() {
			c.t.Log(string(b))
		}
		c.t.Fatal(err)
	}
	return m.Code
}

// Leaving a waiting table frees the seat: the others see it free, the
// table leaves the leaver's tables, and their sessions no longer seat
// them (a second leave is refused). The host of a waiting table does not
// leave it: they close it.
func TestLeaveWaitingTable(t *testing.T) {
	h := newHarness(t, testConfig())
	ada, _ := signedUp(h, "Ada", "")
	bob, _ := signedUp(h, "Bob", "")
	var tab, joined seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 4, "bots": []string{"", "", "", "random"}}, &tab)
	bob.must(http.StatusOK, "POST", "/api/tables/"+tab.Table+"/join", map[string]string{"name": "Bob"}, &joined)
	if ids := myTables(t, bob); len(ids) != 1 || ids[0] != tab.Table {
		t.Fatalf("Bob's tables before he leaves: %v", ids)
	}
	ca, cb := ada.dial(tab.Table), bob.dial(tab.Table)
	ca.next("welcome")
	cb.next("welcome")
	if code := refusedAs(ca, map[string]any{"type": "leave"}); code != "host_leaves" {
		t.Fatalf("the host leaving a waiting table: %q, want host_leaves", code)
	}
	cb.send(map[string]any{"type": "leave"})
	cb.next("left")
	ca.watch("Bob's seat free", func(m infoMsg) bool {
		s, ok := m.seat(joined.Seat)
		return ok && s.Free
	})
	if in := h.info(tab.Table); !in.Seats[joined.Seat].Free || in.Status != "waiting" {
		t.Fatalf("after Bob left, the table shows %+v", in)
	}
	if ids := myTables(t, bob); len(ids) != 0 {
		t.Fatalf("Bob's tables after he left: %v", ids)
	}
	if ids := myTables(t, ada); len(ids) != 1 {
		t.Fatalf("Ada's tables after Bob left: %v", ids)
	}
	leftForGood(t, bob, tab.Table)
}

// leftForGood checks that p, who left table, opens its page as a
// spectator, with nothing to leave: a second leave is refused.
func leftForGood(t *testing.T, p *person, table string) {
	t.Helper()
	c := p.dial(table)
	if w := c.next("welcome"); w.Seat >= 0 {
		t.Fatalf("seated again at %d after leaving", w.Seat)
	}
	if code := refusedAs(c, map[string]any{"type": "leave"}); code != "not_seated" {
		t.Fatalf("leaving twice: %q, want not_seated", code)
	}
}

// Leaving a running rated match: a bot plays the seat to the end, the
// table leaves the player's tables, and the match ranks them last.
func TestLeaveRunningRatedTable(t *testing.T) {
	h := newHarness(t, testConfig())
	ada, adaID := signedUp(h, "Ada", "ada")
	var tab seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "rated": true}, &tab)
	c := ada.dial(tab.Table)
	if m, err := playRandom(c, tab.Seat, 3, 4); err != nil || m.Status == "over" {
		t.Fatalf("playing: %v, %+v", err, m.Status)
	}
	// Someone watches, so that the bots play on (nothing plays at a
	// table nobody is at).
	w := h.dial(tab.Table, "")
	c.send(map[string]any{"type": "leave"})
	c.next("left")
	if ids := myTables(t, ada); len(ids) != 0 {
		t.Fatalf("Ada's tables after she left: %v", ids)
	}
	for m := w.next("state"); m.Status != "over"; m = w.next("state") {
	}
	rows, err := h.store.MatchResults(context.Background(), tab.Table, 1)
	if err != nil || len(rows) != 2 {
		t.Fatalf("the left match was not rated: %+v %v", rows, err)
	}
	if rows[0].Player != adaID || rows[0].Rank != 2 || rows[1].Rank >= 2 {
		t.Fatalf("results %+v: want Ada last (rank 2)", rows)
	}
	leftForGood(t, ada, tab.Table)
}

// The host closes a waiting table: everyone connected is told, the table
// is gone (the lobby, the players' tables, its page); another seat may
// not close it, nor may the host once the match runs.
func TestCloseTable(t *testing.T) {
	h := newHarness(t, testConfig())
	ada, _ := signedUp(h, "Ada", "")
	bob, _ := signedUp(h, "Bob", "")
	var tab, joined seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 4, "bots": []string{"", "", "", "random"}, "public": true}, &tab)
	bob.must(http.StatusOK, "POST", "/api/tables/"+tab.Table+"/join", map[string]string{"name": "Bob"}, &joined)
	ca, cb := ada.dial(tab.Table), bob.dial(tab.Table)
	ca.next("welcome")
	cb.next("welcome")
	if code := refusedAs(cb, map[string]any{"type": "close_table"}); code != "not_host" {
		t.Fatalf("a guest closing the table: %q, want not_host", code)
	}
	ca.send(map[string]any{"type": "close_table"})
	ca.next("closed")
	cb.next("closed")
	// Its page says it was closed by its host (issue 26: it was "not
	// found"), and nobody plays there any more.
	var closed struct {
		Status, Closed string
		Finished       int
	}
	if code, _ := h.get("/api/tables/"+tab.Table, &closed); code != http.StatusOK || closed.Closed != "host" || closed.Status != "waiting" || closed.Finished != 0 {
		t.Fatalf("the closed table answers %d %+v", code, closed)
	}
	if _, err := h.tryDial(tab.Table, ""); err == nil {
		t.Fatal("the closed table's socket opened")
	}
	for _, p := range []*person{ada, bob} {
		if ids := myTables(t, p); len(ids) != 0 {
			t.Fatalf("tables after the host closed it: %v", ids)
		}
	}
	var lobby struct{ Tables []struct{ ID string } }
	ada.must(http.StatusOK, "GET", "/api/lobby", nil, &lobby)
	for _, l := range lobby.Tables {
		if l.ID == tab.Table {
			t.Fatal("the lobby still lists the closed table")
		}
	}

	// A running table is left, not closed.
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}}, &tab)
	ca = ada.dial(tab.Table)
	ca.next("welcome")
	if code := refusedAs(ca, map[string]any{"type": "close_table"}); code != "started" {
		t.Fatalf("closing a running table: %q, want started", code)
	}
}
