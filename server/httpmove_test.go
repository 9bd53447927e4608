package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"tapis/server/servertest"
)

// A seat moves over plain HTTP with its token (issue 29): the answer is
// its new state, the move is in the store before it, and the socket of
// the other seat sees it as a socket's move. Every refusal says why with
// its code, and a token or a session of another seat acts for nobody.
func TestMoveOverHTTP(t *testing.T) {
	srv := servertest.New(t, servertest.Unlimited())
	ada := srv.Create("cabo", []string{"", ""}, "Ada", "")
	bea := srv.Join(ada.Table, "Bea")
	ca := srv.Dial(ada.Table, ada.Token)
	ca.Next("welcome")
	ca.Next("state")
	anon := srv.Person()
	moves := "/api/tables/" + ada.Table + "/moves"
	withBea := moves + "?token=" + bea.Token

	var st servertest.Msg
	anon.Must(http.StatusOK, "GET", "/api/tables/"+ada.Table+"/state?token="+bea.Token, nil, &st)
	if st.Type != "state" || st.N != 0 || len(st.Legal) == 0 {
		t.Fatalf("Bea's state: %+v", st)
	}

	// The refusals, each with its code; none changes anything.
	var r apiRefusal
	if code := anon.Do("POST", moves, map[string]any{"n": 0, "move": st.Legal[0]}, &r); code != http.StatusForbidden || r.Code != "not_seated" {
		t.Fatalf("no token, no session: %d %+v", code, r)
	}
	if code := anon.Do("POST", moves+"?token=0123", map[string]any{"n": 0, "move": st.Legal[0]}, &r); code != http.StatusForbidden || r.Code != "bad_token" {
		t.Fatalf("a wrong token: %d %+v", code, r)
	}
	if code := anon.Do("POST", withBea, map[string]any{"move": st.Legal[0]}, &r); code != http.StatusBadRequest || r.Code != "bad_request" {
		t.Fatalf("no n: %d %+v", code, r)
	}
	if code := anon.Do("POST", withBea, map[string]any{"n": 3, "move": st.Legal[0]}, &r); code != http.StatusBadRequest || r.Code != "bad_request" {
		t.Fatalf("n ahead: %d %+v", code, r)
	}
	if code := anon.Do("POST", withBea, map[string]any{"n": 0, "move": map[string]any{"type": "fly"}}, &r); code != http.StatusBadRequest || r.Code != "bad_move" {
		t.Fatalf("not a move: %d %+v", code, r)
	}
	// Cabo begins with each player's peek: drawing first is refused by
	// the rules, with their reason.
	if code := anon.Do("POST", withBea, map[string]any{"n": 0, "move": map[string]any{"type": "draw"}}, &r); code != http.StatusConflict || r.Code != "refused" || r.Reason != "peek_first" {
		t.Fatalf("a move the rules refuse: %d %+v", code, r)
	}

	// The move itself: Bea's state after it, stored, and told to Ada.
	var after servertest.Msg
	anon.Must(http.StatusOK, "POST", withBea, map[string]any{"n": 0, "move": st.Legal[0]}, &after)
	if after.Type != "state" || after.N != 1 || after.By != bea.Seat {
		t.Fatalf("the answer: %+v", after)
	}
	sv, err := srv.Store.Load(context.Background(), ada.Table)
	if err != nil || sv.Match == nil || len(sv.Match.Moves) != 1 || sv.Match.Moves[0].Seat != int(bea.Seat) {
		t.Fatalf("the store holds %+v, %v", sv.Match, err)
	}
	if m := ca.Next("state"); m.N != 1 || m.By != bea.Seat {
		t.Fatalf("Ada's socket was told %+v", m)
	}
	if code := anon.Do("POST", withBea, map[string]any{"n": 0, "move": st.Legal[0]}, &r); code != http.StatusConflict || r.Code != "stale" {
		t.Fatalf("a stale move: %d %+v", code, r)
	}
}

// A signed-in player moves at their seat with their session alone, on a
// device that never saw the token; another player's session acts for
// nobody there.
func TestMoveOverHTTPSignedIn(t *testing.T) {
	srv := servertest.New(t, servertest.Unlimited())
	ada, _ := srv.SignUp("Ada", "ada")
	var tab servertest.Seat
	ada.Must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}}, &tab)
	path := "/api/tables/" + tab.Table
	var st servertest.Msg
	ada.Must(http.StatusOK, "GET", path+"/state", nil, &st)
	other, _ := srv.SignUp("Zed", "zed")
	var r apiRefusal
	if code := other.Do("POST", path+"/moves", map[string]any{"n": st.N, "move": st.Legal[0]}, &r); code != http.StatusForbidden || r.Code != "not_seated" {
		t.Fatalf("another player's session: %d %+v", code, r)
	}
	if code := other.Do("GET", path+"/state", nil, &r); code != http.StatusForbidden || r.Code != "not_seated" {
		t.Fatalf("another player's state: %d %+v", code, r)
	}
	var after servertest.Msg
	ada.Must(http.StatusOK, "POST", path+"/moves", map[string]any{"n": st.N, "move": st.Legal[0]}, &after)
	if after.N != st.N+1 || after.By != tab.Seat {
		t.Fatalf("after Ada's move: %+v", after)
	}
}

// Moves over HTTP are paced per client as a socket's messages are.
func TestMoveOverHTTPPaced(t *testing.T) {
	cfg := servertest.Unlimited()
	cfg.Rate, cfg.Burst = 0.001, 3
	srv := servertest.New(t, cfg)
	ada := srv.Create("cabo", []string{"", "random"}, "Ada", "")
	p := srv.Person()
	path := "/api/tables/" + ada.Table + "/state?token=" + ada.Token
	for i := range 3 {
		var raw json.RawMessage
		if code := p.Do("GET", path, nil, &raw); code != http.StatusOK {
			t.Fatalf("request %d: %d %s", i, code, raw)
		}
	}
	var r apiRefusal
	if code := p.Do("POST", "/api/tables/"+ada.Table+"/moves?token="+ada.Token, map[string]any{"n": 0, "move": map[string]any{"type": "draw"}}, &r); code != http.StatusTooManyRequests || r.Code != "too_fast" {
		t.Fatalf("beyond the burst: %d %+v", code, r)
	}
}
