package server_test

import (
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
// default; 2 s here).
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
	if got := cy.listed(); !slices.Contains(got, here.Table) || !slices.Contains(got, gone.Table) {
		t.Fatalf("the lobby lists %v, want both new tables", got)
	}
	eventually(t, "Bob's unopened table to leave the lobby", func() bool { return !slices.Contains(cy.listed(), gone.Table) })
	if got := cy.listed(); !slices.Contains(got, here.Table) {
		t.Fatalf("the lobby lists %v once Bob's table is gone, want Ada's: she is there", got)
	}
	// Ada leaves: her table goes too.
	c.ws.Close(websocket.StatusNormalClosure, "")
	eventually(t, "Ada's table to leave the lobby once she left", func() bool { return !slices.Contains(cy.listed(), here.Table) })
}
