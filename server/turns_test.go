package server_test

import (
	"net/http"
	"testing"
	"time"

	"tapis/server/servertest"
)

// turns is GET /api/me/turns's answer.
type turns struct {
	Turns []struct {
		Table    string     `json:"table"`
		Game     string     `json:"game"`
		Seat     int        `json:"seat"`
		N        int        `json:"n"`
		Since    time.Time  `json:"since"`
		Deadline *time.Time `json:"deadline"`
	} `json:"turns"`
}

// GET /api/me/turns lists the tables where it is the player's turn, the
// longest waiting first, with the deadline where there is a time per
// move; a move takes the table off the list of the one who made it.
func TestMyTurns(t *testing.T) {
	srv := servertest.New(t, servertest.Unlimited())
	ada, _ := srv.SignUp("Ada", "ada")
	bea, _ := srv.SignUp("Bea", "bea")
	var none turns
	srv.Person().Must(http.StatusOK, "GET", "/api/me/turns", nil, &none)
	if len(none.Turns) != 0 {
		t.Fatalf("nobody signed in: %+v", none)
	}
	// Two Cabo tables of Ada's and Bea's: the first without a time per
	// move, the second with 60 s. Each starts with both players' peek.
	var tabs [2]servertest.Seat
	for i, turn := range []int{0, 60} {
		ada.Must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "turn_seconds": turn}, &tabs[i])
		bea.Must(http.StatusOK, "POST", "/api/tables/"+tabs[i].Table+"/join", map[string]any{}, nil)
	}
	var got turns
	servertest.Eventually(t, "both tables in Ada's turns", func() bool {
		// Read afresh: decoded into the last read, a turn without a
		// deadline (omitted) would keep the one read there before.
		got = turns{}
		ada.Must(http.StatusOK, "GET", "/api/me/turns", nil, &got)
		return len(got.Turns) == 2
	})
	first, second := got.Turns[0], got.Turns[1]
	if first.Table != tabs[0].Table || second.Table != tabs[1].Table || first.Since.After(second.Since) {
		t.Fatalf("not the longest waiting first: %+v, tables %v", got, tabs)
	}
	if first.Deadline != nil || second.Deadline == nil || !second.Deadline.Equal(second.Since.Add(60*time.Second)) {
		t.Fatalf("deadlines: %+v", got)
	}
	if first.Game != "cabo" || first.Seat != 0 || first.N != 0 {
		t.Fatalf("the first turn: %+v", first)
	}

	// Ada peeks at the first table: it is no longer her turn there (Bea
	// has still to peek), and still Bea's at both.
	var st servertest.Msg
	ada.Must(http.StatusOK, "GET", "/api/tables/"+tabs[0].Table+"/state", nil, &st)
	ada.Must(http.StatusOK, "POST", "/api/tables/"+tabs[0].Table+"/moves", map[string]any{"n": st.N, "move": st.Legal[0]}, nil)
	got = turns{}
	ada.Must(http.StatusOK, "GET", "/api/me/turns", nil, &got)
	if len(got.Turns) != 1 || got.Turns[0].Table != tabs[1].Table {
		t.Fatalf("Ada's turns after her peek: %+v", got)
	}
	var hers turns
	bea.Must(http.StatusOK, "GET", "/api/me/turns", nil, &hers)
	if len(hers.Turns) != 2 || hers.Turns[0].Table != tabs[0].Table || hers.Turns[0].N != 1 || hers.Turns[0].Seat != 1 {
		t.Fatalf("Bea's turns: %+v", hers)
	}
}
