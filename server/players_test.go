package server_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"tapis/game"
	"tapis/store"
)

type meResp struct {
	Player *struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Username string `json:"username"`
		Guest    bool   `json:"guest"`
	} `json:"player"`
}

type myTablesResp struct {
	Tables []struct {
		ID     string `json:"id"`
		Seat   int    `json:"seat"`
		Status string `json:"status"`
	} `json:"tables"`
}

// A guest's tables follow them once they have claimed a username: signed
// in from another browser (a new cookie jar), they see the same open
// table and its WebSocket seats them without a token.
func TestSeatsFollowThePlayer(t *testing.T) {
	h := newHarness(t, testConfig())
	ada := h.person()
	var me meResp
	ada.must(http.StatusOK, "GET", "/api/me", nil, &me)
	if me.Player != nil {
		t.Fatalf("a first visit is somebody: %+v", me.Player)
	}
	ada.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Ada"}, &me)
	if me.Player == nil || !me.Player.Guest || me.Player.Name != "Ada" {
		t.Fatalf("a guest made: %+v", me.Player)
	}
	id := me.Player.ID
	var tab seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}}, &tab)
	if tab.Seat != 0 {
		t.Fatalf("the creator sits at %d", tab.Seat)
	}
	ada.must(http.StatusOK, "POST", "/api/account/claim", map[string]string{"username": "ada", "password": "lovelace-1815"}, nil)

	other := h.person()
	var mine myTablesResp
	other.must(http.StatusOK, "GET", "/api/me/tables", nil, &mine)
	if len(mine.Tables) != 0 {
		t.Fatalf("a stranger has tables: %+v", mine)
	}
	other.must(http.StatusOK, "POST", "/api/account/signin", map[string]string{"username": "ada", "password": "lovelace-1815"}, nil)
	other.must(http.StatusOK, "GET", "/api/me", nil, &me)
	if me.Player == nil || me.Player.ID != id || me.Player.Username != "ada" {
		t.Fatalf("signed in as %+v, want player %s", me.Player, id)
	}
	other.must(http.StatusOK, "GET", "/api/me/tables", nil, &mine)
	if len(mine.Tables) != 1 || mine.Tables[0].ID != tab.Table || mine.Tables[0].Seat != 0 || mine.Tables[0].Status != "waiting" {
		t.Fatalf("the other device lists %+v, want table %s seat 0 waiting", mine, tab.Table)
	}
	var info struct {
		You int `json:"you"`
	}
	other.must(http.StatusOK, "GET", "/api/tables/"+tab.Table, nil, &info)
	if info.You != 0 {
		t.Fatalf("the table says you are %d", info.You)
	}
	c := other.dial(tab.Table)
	if w := c.next("welcome"); w.Seat != 0 {
		t.Fatalf("the session's WebSocket is seat %d, want 0", w.Seat)
	}
	// Joining again from the other device gives the same seat back.
	var again seatResp
	other.must(http.StatusOK, "POST", "/api/tables/"+tab.Table+"/join", map[string]string{}, &again)
	if again.Seat != 0 || again.Token != "" {
		t.Fatalf("a player joining their own table again: %+v", again)
	}
	// A stranger's WebSocket watches.
	s := h.person().dial(tab.Table)
	if w := s.next("welcome"); w.Seat != game.Spectator {
		t.Fatalf("a stranger's WebSocket is seat %d", w.Seat)
	}
}

// Public tables waiting for players are in the lobby; private ones, full
// ones and other games' (with a filter) are not.
func TestLobbyListsPublicWaitingTables(t *testing.T) {
	h := newHarness(t, testConfig())
	ada := h.person()
	ada.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Ada"}, nil)
	var pub, priv, lim seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 3, "bots": []string{"", "", "easy"},
		"public": true, "lang": "fr", "turn_seconds": 30}, &pub)
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}}, &priv)
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "limits", "players": 2, "bots": []string{"", ""}, "public": true}, &lim)
	// A table is listed once its host's page has connected.
	for _, tab := range []seatResp{pub, priv, lim} {
		h.dial(tab.Table, tab.Token).next("welcome")
	}
	type row struct {
		ID          string `json:"id"`
		Game        string `json:"game"`
		Lang        string `json:"lang"`
		TurnSeconds int    `json:"turn_seconds"`
		Seats       []struct {
			Name string `json:"name"`
			Bot  string `json:"bot"`
			Free bool   `json:"free"`
		} `json:"seats"`
	}
	var all, cabo struct{ Tables []row }
	bea := h.person()
	bea.must(http.StatusOK, "GET", "/api/lobby", nil, &all)
	bea.must(http.StatusOK, "GET", "/api/lobby?game=cabo", nil, &cabo)
	if len(all.Tables) != 2 || all.Tables[0].ID != lim.Table || all.Tables[1].ID != pub.Table {
		t.Fatalf("the lobby lists %+v, want the limits table then the public cabo one", all.Tables)
	}
	if len(cabo.Tables) != 1 || cabo.Tables[0].ID != pub.Table {
		t.Fatalf("the cabo lobby lists %+v", cabo.Tables)
	}
	r := cabo.Tables[0]
	if r.Lang != "fr" || r.TurnSeconds != 30 || len(r.Seats) != 3 || r.Seats[0].Name != "Ada" || r.Seats[0].Free ||
		!r.Seats[1].Free || r.Seats[2].Bot != "easy" {
		t.Fatalf("the public table is listed as %+v", r)
	}
	// One click: Bea joins as a guest; the table is full and leaves the
	// lobby.
	var seat seatResp
	bea.must(http.StatusOK, "POST", "/api/tables/"+pub.Table+"/join", map[string]string{"name": "Bea"}, &seat)
	bea.must(http.StatusOK, "GET", "/api/lobby?game=cabo", nil, &cabo)
	if len(cabo.Tables) != 0 {
		t.Fatalf("a full table is still listed: %+v", cabo.Tables)
	}
	if code := bea.do("GET", "/api/lobby?game=chess", nil, nil); code != http.StatusBadRequest {
		t.Fatalf("a lobby of an unknown game: status %d", code)
	}
}

// A request from another site's page changes nothing: its Origin is
// refused before the handler runs.
func TestCrossSiteRequestsRefused(t *testing.T) {
	h := newHarness(t, testConfig())
	p := h.person()
	body := map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "name": "Eve"}
	var e struct{ Code string }
	if code := p.do("POST", "/api/tables", body, &e, "Origin", "https://evil.example"); code != http.StatusForbidden || e.Code != "cross_site" {
		t.Fatalf("a cross-site creation: status %d, code %q", code, e.Code)
	}
	if code := p.do("POST", "/api/me", map[string]string{"name": "Eve"}, &e, "Sec-Fetch-Site", "cross-site"); code != http.StatusForbidden {
		t.Fatalf("a cross-site guest: status %d", code)
	}
	if code := p.do("POST", "/api/tables", body, nil, "Origin", h.hs.URL); code != http.StatusCreated {
		t.Fatalf("a same-origin creation: status %d", code)
	}
}

type queueResp struct {
	Entry *struct {
		Game  string `json:"game"`
		Table string `json:"table"`
		Seat  int    `json:"seat"`
	} `json:"entry"`
}

// untilSeated polls the person's queue entry until it has a table.
func (p *person) untilSeated(t *testing.T) (string, int) {
	t.Helper()
	var q queueResp
	eventually(t, "seated from the queue", func() bool {
		p.must(http.StatusOK, "GET", "/api/queue", nil, &q)
		return q.Entry != nil && q.Entry.Table != ""
	})
	return q.Entry.Table, q.Entry.Seat
}

// Two people asking for a 2-player Cabo are seated together at once; a
// third, alone with a short wait, gets a bot; a fourth who leaves the
// queue is seated nowhere.
func TestQuickMatch(t *testing.T) {
	h := newHarness(t, testConfig())
	ada, bea := h.person(), h.person()
	ada.must(http.StatusOK, "POST", "/api/queue", map[string]any{"game": "cabo", "players": 2, "name": "Ada", "wait_seconds": -1}, nil)
	bea.must(http.StatusOK, "POST", "/api/queue", map[string]any{"game": "cabo", "players": 2, "name": "Bea", "wait_seconds": -1}, nil)
	ta, sa := ada.untilSeated(t)
	tb, sb := bea.untilSeated(t)
	if ta != tb || sa == sb {
		t.Fatalf("Ada at %s seat %d, Bea at %s seat %d: want one table, two seats", ta, sa, tb, sb)
	}
	ca, cb := ada.dial(ta), bea.dial(tb)
	if w := ca.next("welcome"); int(w.Seat) != sa || w.Table.Status != "playing" {
		t.Fatalf("Ada's WebSocket: seat %d, table %s", w.Seat, w.Table.Status)
	}
	if w := cb.next("welcome"); int(w.Seat) != sb {
		t.Fatalf("Bea's WebSocket: seat %d", w.Seat)
	}
	// Told until the player leaves the queue (issue 24, finding 16), as
	// the web client does once at the table: then the entry is gone.
	var q queueResp
	ada.must(http.StatusOK, "GET", "/api/queue", nil, &q)
	if q.Entry == nil || q.Entry.Table != ta {
		t.Fatalf("a seated entry asked again: %+v, want table %s", q.Entry, ta)
	}
	ada.must(http.StatusOK, "POST", "/api/queue/leave", map[string]any{}, nil)
	ada.must(http.StatusOK, "GET", "/api/queue", nil, &q)
	if q.Entry != nil {
		t.Fatalf("a seated entry is still there after leaving: %+v", q.Entry)
	}

	cy := h.person()
	cy.must(http.StatusOK, "POST", "/api/queue", map[string]any{"game": "cabo", "name": "Cy", "wait_seconds": 1, "bot": "easy"}, nil)
	tc, _ := cy.untilSeated(t)
	var info struct {
		Status string
		Seats  []struct{ Name, Bot string }
	}
	cy.must(http.StatusOK, "GET", "/api/tables/"+tc, nil, &info)
	if len(info.Seats) != 2 || info.Seats[0].Name != "Cy" || info.Seats[1].Bot != "easy" || info.Status != "playing" {
		t.Fatalf("Cy's table: %+v", info)
	}

	// Leaving is instant: a player who left is not seated.
	dee := h.person()
	dee.must(http.StatusOK, "POST", "/api/queue", map[string]any{"game": "papayoo", "name": "Dee", "wait_seconds": -1}, nil)
	dee.must(http.StatusOK, "POST", "/api/queue/leave", map[string]any{}, nil)
	dee.must(http.StatusOK, "GET", "/api/queue", nil, &q)
	if q.Entry != nil {
		t.Fatalf("an entry after leaving: %+v", q.Entry)
	}
	for _, bad := range []map[string]any{
		{"game": "chess", "name": "X"},
		{"game": "cabo", "players": 9, "name": "X"},
		{"game": "cabo", "bot": "god", "name": "X"},
		{"game": "cabo", "wait_seconds": 100000, "name": "X"},
		{"game": "cabo"},
	} {
		if code := h.person().do("POST", "/api/queue", bad, nil); code != http.StatusBadRequest {
			t.Errorf("queue request %v: status %d, want 400", bad, code)
		}
	}
}

// A signed-in spectator chats under their player's name without saying
// it, and a name offered in a hello does not change it.
func TestSignedInSpectatorChats(t *testing.T) {
	h := newHarness(t, testConfig())
	ada, bea := h.person(), h.person()
	ada.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Ada"}, nil)
	bea.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Bea"}, nil)
	var tab seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "easy"}}, &tab)
	c := bea.dial(tab.Table)
	if w := c.next("welcome"); w.Seat != game.Spectator {
		t.Fatalf("Bea watches from seat %d", w.Seat)
	}
	c.send(map[string]string{"type": "chat", "text": "hi"})
	if m := c.chatNext("chat"); m.Line.Name != "Bea" || !m.Line.Spectator || m.Line.Text != "hi" {
		t.Fatalf("Bea's line: %+v", m.Line)
	}
	c.send(map[string]string{"type": "hello", "name": "Ada"})
	if m := c.chatNext("hello", "error"); m.Type != "hello" || m.Name != "Bea" {
		t.Fatalf("a signed-in spectator's hello: %+v", m)
	}
}

// A player renamed shows under the new name at their table at once; one
// who deleted their account shows under no name (the page says "deleted
// player"), and their session is gone.
func TestRenameAndDeleteReachTheTable(t *testing.T) {
	h := newHarness(t, testConfig())
	ada := h.person()
	ada.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Ada"}, nil)
	var tab seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}}, &tab)
	watcher := h.dial(tab.Table, "")
	watcher.next("welcome")
	ada.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Ada L."}, nil)
	watcher.within(10*time.Second, "the new name", func(m infoMsg) bool {
		s, ok := m.seat(0)
		return ok && s.Name == "Ada L."
	})
	ada.must(http.StatusOK, "POST", "/api/account/delete", map[string]string{"password": ""}, nil)
	watcher.within(10*time.Second, "no name", func(m infoMsg) bool {
		s, ok := m.seat(0)
		return ok && s.Name == "" && !s.Free
	})
	var me meResp
	ada.must(http.StatusOK, "GET", "/api/me", nil, &me)
	if me.Player != nil {
		t.Fatalf("a deleted player is still signed in: %+v", me.Player)
	}
}

// A guest who signs in to their account on the same browser keeps the
// table they were playing: its seat is the account's now, on this browser
// and on any other where the account is signed in.
func TestGuestSeatsFollowTheSignIn(t *testing.T) {
	h := newHarness(t, testConfig())
	home := h.person()
	home.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Ada"}, nil)
	home.must(http.StatusOK, "POST", "/api/account/claim", map[string]string{"username": "ada", "password": "lovelace-1815"}, nil)
	var me meResp
	home.must(http.StatusOK, "GET", "/api/me", nil, &me)
	account := me.Player.ID

	phone := h.person()
	phone.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "A."}, nil)
	var tab seatResp
	phone.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "easy"}}, &tab)
	watcher := h.dial(tab.Table, "")
	watcher.next("welcome")
	phone.must(http.StatusOK, "POST", "/api/account/signin", map[string]string{"username": "ada", "password": "lovelace-1815"}, nil)
	// The loaded table shows the account's name at once.
	watcher.within(10*time.Second, "the account's name at the seat", func(m infoMsg) bool {
		s, ok := m.seat(0)
		return ok && s.Name == "Ada"
	})
	for _, p := range []*person{phone, home} {
		var mine myTablesResp
		p.must(http.StatusOK, "GET", "/api/me/tables", nil, &mine)
		if len(mine.Tables) != 1 || mine.Tables[0].ID != tab.Table || mine.Tables[0].Seat != 0 {
			t.Fatalf("the account's tables: %+v", mine)
		}
		if w := p.dial(tab.Table).next("welcome"); w.Seat != 0 {
			t.Fatalf("the account's WebSocket is seat %d", w.Seat)
		}
	}
	sv, err := h.store.Load(t.Context(), tab.Table)
	if err != nil || sv.Seats[0].Player != account {
		t.Fatalf("the stored seat: %+v %v", sv.Seats[0], err)
	}
}

// loadCounter is a store that counts its Load calls.
type loadCounter struct {
	store.Store
	loads atomic.Int64
}

func (c *loadCounter) Load(ctx context.Context, id string) (store.Saved, error) {
	c.loads.Add(1)
	return c.Store.Load(ctx, id)
}

// A finished table that has left memory is looked for in the store once:
// loaded again (issue 26: its page shows its result), the requests that
// follow while it is in memory do not read its moves anew.
func TestEndedTablesAreNotReadAgain(t *testing.T) {
	cfg := testConfig()
	lc := &loadCounter{Store: store.NewMemory()}
	cfg.Store, cfg.IdleTimeout = lc, 50*time.Millisecond
	h := newHarness(t, cfg)
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	c := h.dial(a.Table, a.Token)
	if m, err := playRandom(c, a.Seat, 1, 1<<30); err != nil || m.Status != "over" {
		t.Fatalf("playing: %v %s", err, m.Status)
	}
	c.ws.CloseNow()
	p := h.person()
	loaded := lc.loads.Load()
	eventually(t, "the finished table gone from memory", func() bool {
		return p.do("GET", "/api/tables/"+a.Table, nil, nil) == http.StatusOK && lc.loads.Load() > loaded
	})
	// Someone looks at its page: it stays in memory meanwhile.
	w := h.dial(a.Table, "")
	if s := w.next("state"); s.Status != "over" {
		t.Fatalf("the finished table's page shows %q", s.Status)
	}
	before := lc.loads.Load()
	for range 5 {
		if code := p.do("GET", "/api/tables/"+a.Table, nil, nil); code != http.StatusOK {
			t.Fatalf("a finished table: %d", code)
		}
	}
	if n := lc.loads.Load() - before; n != 0 {
		t.Fatalf("5 requests for a finished table read it %d times more", n)
	}
}
