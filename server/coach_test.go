package server_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"tapis/server/servertest"
)

// The coach (issue 27): refused at a rated table (reason rated); at a
// table created with it, the player to move gets the hard bot's choice,
// one of their legal moves, with its value, every hint counted in the
// table's info for the score sheet; a hint at a table without the coach
// is refused with its reason.
func TestCoach(t *testing.T) {
	srv := servertest.New(t, servertest.Unlimited())
	anon := srv.Person()
	var r apiRefusal
	if code := anon.Do("POST", "/api/tables", map[string]any{"game": "papayoo", "players": 3, "bots": []string{"", "easy", "easy"},
		"name": "Ann", "rated": true, "coach": true}, &r); code != http.StatusBadRequest || r.Code != "bad_coach" || r.Reason != "rated" {
		t.Fatalf("the coach at a rated table: %d %+v", code, r)
	}
	var ann servertest.Seat
	if code := anon.Do("POST", "/api/tables", map[string]any{"game": "limits", "players": 2, "bots": []string{"", "easy"},
		"name": "Ann", "coach": true}, &ann); code != http.StatusCreated {
		t.Fatalf("a coached table: %d", code)
	}
	c := srv.Dial(ann.Table, ann.Token)
	c.Next("welcome")
	hint := "/api/tables/" + ann.Table + "/hint?token=" + ann.Token
	type hintResp struct {
		Move  json.RawMessage
		Value float64
		N     int
		Hints int
	}
	var info struct {
		Coach bool  `json:"coach"`
		Hints []int `json:"hints"`
	}
	for i := 1; i <= 2; i++ {
		for len(c.Next("state").Legal) == 0 {
		}
		var h hintResp
		if code := anon.Do("POST", hint, nil, &h); code != http.StatusOK {
			t.Fatalf("hint %d: %d", i, code)
		}
		// Ann's state now: the bot may have moved since the hint, never
		// Ann, whose moves are still to make.
		var st servertest.Msg
		anon.Must(http.StatusOK, "GET", "/api/tables/"+ann.Table+"/state?token="+ann.Token, nil, &st)
		legal := false
		for _, m := range st.Legal {
			var a, b any
			json.Unmarshal(m, &a)
			json.Unmarshal(h.Move, &b)
			legal = legal || reflect.DeepEqual(a, b)
		}
		if !legal || h.N > st.N || h.Hints != i || h.Value < 0 || h.Value > 1 {
			t.Fatalf("hint %d: %+v; legal %s", i, h, st.Legal)
		}
		anon.Must(http.StatusOK, "GET", "/api/tables/"+ann.Table, nil, &info)
		if !info.Coach || !reflect.DeepEqual(info.Hints, []int{i, 0}) {
			t.Fatalf("after hint %d the table's info says %+v", i, info)
		}
		// The hint is played.
		var played servertest.Msg
		anon.Must(http.StatusOK, "POST", "/api/tables/"+ann.Table+"/moves?token="+ann.Token, map[string]any{"n": st.N, "move": h.Move}, &played)
	}

	// Without the coach: refused, its reason said.
	plain := srv.Create("limits", []string{"", "easy"}, "Bo", "")
	cp := srv.Dial(plain.Table, plain.Token)
	cp.Next("welcome")
	cp.Next("state")
	if code := anon.Do("POST", "/api/tables/"+plain.Table+"/hint?token="+plain.Token, nil, &r); code != http.StatusConflict || r.Code != "no_coach" || r.Reason != "coach_off" {
		t.Fatalf("a hint without the coach: %d %+v", code, r)
	}
}
