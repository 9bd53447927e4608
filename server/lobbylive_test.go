package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// listed returns the ids of the tables the lobby lists.
func (p *person) listed() []string {
	p.h.t.Helper()
	var l struct{ Tables []struct{ ID string } }
	p.must(http.StatusOK, "GET", "/api/lobby", nil, &l)
	var ids []string
	for _, t := range l.Tables {
		ids = append(ids, t.ID)
	}
	return ids
}

// Finding 17: a public table whose host had gone (never connected, or
// left) stayed listed, and a newcomer who joined played against a
// stand-in. The lobby lists a waiting table only while someone seated
// there is connected, or was within Config.ListedFor (a minute by
// default; 2 s here); a table nobody seated ever opened, not at all.
func TestLobbyListsOnlyAttendedTables(t *testing.T) {
	cfg := testConfig()
	cfg.ListedFor = 2 * time.Second
	h := newHarness(t, cfg)
	ada, bob, cy := h.person(), h.person(), h.person()
	var here, gone seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "public": true, "name": "Ada"}, &here)
	c := h.dial(here.Table, here.Token)
	c.next("welcome")
	// Bob's table: made, never opened.
	bob.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "public": true, "name": "Bob"}, &gone)
	if got := cy.listed(); !slices.Contains(got, here.Table) || slices.Contains(got, gone.Table) {
		t.Fatalf("the lobby lists %v, want Ada's table and not Bob's unopened one", got)
	}
	// Ada leaves: her table goes too.
	c.ws.Close(websocket.StatusNormalClosure, "")
	eventually(t, "Ada's table to leave the lobby once she left", func() bool { return !slices.Contains(cy.listed(), here.Table) })
}

// Issue 24, red team: a real host stayed connected at a public cabo
// table while six /24s made 654 never-opened public "Bait" tables in
// 70 s; the real table was missing from /api/lobby?game=cabo the whole
// time, as the lobby lists the newest 100 and a new table was listed for
// a minute before anyone opened it. Now a table is listed only once
// someone seated there has connected: 150 bait tables from six networks
// (more than the lobby's 100) leave the connected host's table listed and
// are not listed themselves, and a table is listed as soon as its host's
// socket connects.
func TestLobbyBaitTablesDoNotHideRealOnes(t *testing.T) {
	h := newHarness(t, testConfig())
	ada, cy := h.person(), h.person()
	var real seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "public": true, "name": "Ada"}, &real)
	h.dial(real.Table, real.Token).next("welcome")
	bait := map[string]bool{}
	for i := range 150 {
		var r seatResp
		c := from(fmt.Sprintf("127.6.%d.%d", i%6, 2+i/6))
		if resp := postFrom(t, c, h.hs.URL+"/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "public": true, "name": "Bait"}, &r); resp.StatusCode != http.StatusCreated {
			t.Fatalf("bait table %d: status %d", i, resp.StatusCode)
		}
		bait[r.Table] = true
	}
	got := cy.listed()
	if !slices.Contains(got, real.Table) {
		t.Fatalf("after 150 bait tables, the lobby lists %d tables without Ada's, where she is connected", len(got))
	}
	for _, id := range got {
		if bait[id] {
			t.Fatalf("the lobby lists the never-opened bait table %s", id)
		}
	}
	// Bob's table: not listed until his page connects, then at once.
	var bob seatResp
	h.person().must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "public": true, "name": "Bob"}, &bob)
	if slices.Contains(cy.listed(), bob.Table) {
		t.Fatal("Bob's table is listed before his page connected")
	}
	h.dial(bob.Table, bob.Token).next("welcome")
	eventually(t, "Bob's table to be listed once he connected", func() bool { return slices.Contains(cy.listed(), bob.Table) })
}
