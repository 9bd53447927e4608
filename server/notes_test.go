package server_test

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"

	"tapis/server/servertest"
)

// inbox is GET /api/me/inbox's answer.
type inbox struct {
	Items []struct {
		Kind    string `json:"kind"`
		Payload struct {
			Table string `json:"table"`
			Game  string `json:"game"`
			N     int    `json:"n"`
		} `json:"payload"`
	} `json:"items"`
}

// kinds counts p's notifications by kind about table.
func kinds(p *servertest.Person, table string) map[string]int {
	var in inbox
	p.Must(http.StatusOK, "GET", "/api/me/inbox", nil, &in)
	n := map[string]int{}
	for _, it := range in.Items {
		if it.Payload.Table == table {
			n[it.Kind]++
		}
	}
	return n
}

// A move that makes it a person's turn notifies them when they have no
// socket open at the table, and only then; the match's end notifies
// every seated person without one (issue 29). Ada keeps her socket open,
// Bea plays over HTTP alone; both move with HTTP requests, so that the
// test knows each move is done, its notifications written, when its
// answer comes.
func TestTablesNotify(t *testing.T) {
	cfg := servertest.Unlimited()
	cfg.AwayAfter = -1 // no stand-in for Bea, however slow the machine
	srv := servertest.New(t, cfg)
	ada, _ := srv.SignUp("Ada", "ada")
	bea, _ := srv.SignUp("Bea", "bea")
	var tab servertest.Seat
	ada.Must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2}, &tab)
	var beaSeat servertest.Seat
	bea.Must(http.StatusOK, "POST", "/api/tables/"+tab.Table+"/join", map[string]any{}, &beaSeat)
	ca := ada.Dial(tab.Table)
	ca.Next("welcome")
	path := "/api/tables/" + tab.Table
	rng := rand.New(rand.NewPCG(1, 2))
	turnsOfBea := 0 // moves of Ada's that made it Bea's turn
	over := false
	for i := 0; i < 5000 && !over; i++ {
		for _, p := range []*servertest.Person{ada, bea} {
			var st servertest.Msg
			p.Must(http.StatusOK, "GET", path+"/state", nil, &st)
			if st.Status == "over" {
				over = true
				break
			}
			if len(st.Legal) == 0 {
				continue
			}
			var after servertest.Msg
			p.Must(http.StatusOK, "POST", path+"/moves", map[string]any{"n": st.N, "move": st.Legal[rng.IntN(len(st.Legal))]}, &after)
			if p == ada && !slices.Contains(st.ToMove, beaSeat.Seat) && slices.Contains(after.ToMove, beaSeat.Seat) && after.Status != "over" {
				turnsOfBea++
				// The inbox shows the latest 50.
				if got := kinds(bea, tab.Table)["your_turn"]; turnsOfBea <= 40 && got != turnsOfBea {
					t.Fatalf("Bea was told of %d turns, want %d", got, turnsOfBea)
				}
			}
			over = after.Status == "over"
			if over {
				break
			}
		}
	}
	if !over || turnsOfBea == 0 {
		t.Fatalf("the match did not end (%v) or never came to Bea (%d)", over, turnsOfBea)
	}
	if got := kinds(ada, tab.Table); got["your_turn"] != 0 || got["game_over"] != 0 {
		t.Fatalf("Ada, connected, was notified: %v", got)
	}
	if got := kinds(bea, tab.Table); got["game_over"] != 1 {
		t.Fatalf("Bea's notifications at the end: %v", got)
	}
	var in inbox
	bea.Must(http.StatusOK, "GET", "/api/me/inbox", nil, &in)
	if p := in.Items[0].Payload; in.Items[0].Kind != "game_over" || p.Game != "cabo" {
		t.Fatalf("the latest of Bea's: %+v", in.Items[0])
	}
}
