package table_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/server/servertest"
	"tapis/tutorial"
	"tapis/wire"
)

// message is what the tutorial's test reads of a message.
type message struct {
	Type   string `json:"type"`
	N      int    `json:"n"`
	Match  int    `json:"match"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
	wire.Tutorial
}

// next returns c's next message of one of the types.
func next(t *testing.T, c *servertest.Client, types ...string) message {
	t.Helper()
	timeout := time.After(servertest.Patience)
	for {
		select {
		case b, ok := <-c.Msgs():
			if !ok {
				t.Fatal("the socket closed")
			}
			var m message
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			for _, typ := range types {
				if m.Type == typ {
					return m
				}
			}
		case <-timeout:
			t.Fatalf("no %v message", types)
		}
	}
}

// The Cabo tutorial, through the API: a table whose other seat plays the
// script, whose player is told each step before the state that asks for
// it, and refused any other move; left and joined again mid-way; then an
// ordinary match once the script is played out.
func TestTutorial(t *testing.T) {
	h := servertest.New(t, servertest.Unlimited())
	var bad struct{ Code string }
	if code := h.Post("/api/tutorials/chess", map[string]string{"name": "Ann"}, &bad); code != http.StatusBadRequest || bad.Code != "bad_game" {
		t.Fatalf("a tutorial of no game: %d %q", code, bad.Code)
	}
	var list struct{ Games []string }
	if resp, err := http.Get(h.URL + "/api/tutorials"); err != nil || json.NewDecoder(resp.Body).Decode(&list) != nil || len(list.Games) == 0 || list.Games[0] != "cabo" {
		t.Fatalf("GET /api/tutorials: %v %+v", err, list)
	}
	var seat servertest.Seat
	if code := h.Post("/api/tutorials/cabo", map[string]string{"name": "Ann", "lang": "fr"}, &seat); code != http.StatusCreated || seat.Seat != tutorial.Seat {
		t.Fatalf("POST /api/tutorials/cabo: %d, seat %d", code, seat.Seat)
	}
	info := h.Info(seat.Table)
	if info.Status != "playing" || info.Rated || len(info.Seats) != 2 || info.Seats[1].Bot != "tutorial" {
		t.Fatalf("the tutorial's table: %+v", info)
	}
	sc, _ := tutorial.For("cabo")
	watcher := h.Dial(seat.Table, "")
	c := h.Dial(seat.Table, seat.Token)
	var step message
	refused, resumed := false, false
	for {
		m := next(t, c, "tutorial", "state")
		if m.Type == "tutorial" {
			step = m
			continue
		}
		if m.N >= len(sc.Moves) {
			break
		}
		want, no, _ := sc.At(m.N)
		if want.Seat != tutorial.Seat {
			// Only the player's step is told, and never before its turn.
			if !step.Waiting || step.Text != nil || step.Step != no {
				t.Fatalf("move %d is the bot's: the player is told %+v", m.N, step.Tutorial)
			}
			continue
		}
		if step.Waiting || step.Step != no || step.Of != sc.Steps() || step.Text["en"] != want.Step.Text.EN || step.Text["fr"] != want.Step.Text.FR || step.Point != want.Step.Point {
			t.Fatalf("move %d, step %d: told %+v", m.N, no, step.Tutorial)
		}
		if !refused {
			// Another legal move is refused, saying what the step wants.
			c.Send(map[string]any{"type": "move", "n": m.N, "move": map[string]any{"type": "peek_initial", "slots": []int{2, 3}}})
			if e := next(t, c, "error"); e.Code != "refused" || e.Reason != "tutorial_step" {
				t.Fatalf("another move than the step's: %+v", e)
			}
			refused = true
		}
		if no == 5 && !resumed {
			// The player leaves and comes back by the table's link: the
			// same step awaits them.
			c.Conn.Close(websocket.StatusNormalClosure, "")
			c = h.Dial(seat.Table, seat.Token)
			resumed = true
			continue
		}
		c.Send(map[string]any{"type": "move", "n": m.N, "move": want.Move})
	}
	if !refused || !resumed {
		t.Fatal("the test did not try everything")
	}
	if m := next(t, c, "tutorial"); !m.Done || m.End["fr"] != sc.End.FR {
		t.Fatalf("the end of the script: %+v", m.Tutorial)
	}
	// A spectator is never told the steps: they are the player's.
	for {
		m := next(t, watcher, "state", "tutorial")
		if m.Type == "tutorial" {
			t.Fatalf("a spectator is told a step: %+v", m.Tutorial)
		}
		if m.N >= len(sc.Moves) {
			break
		}
	}
	// The round is scored, the next is dealt: the player may now play
	// any legal move, as at any table.
	c.Send(map[string]any{"type": "move", "n": len(sc.Moves), "move": map[string]any{"type": "peek_initial", "slots": []int{2, 3}}})
	for {
		m := next(t, c, "state", "error")
		if m.Type == "error" {
			t.Fatalf("after the script: %+v", m)
		}
		if m.N > len(sc.Moves) {
			break
		}
	}
}

// Every tutorial plays through a real table to its end, the script's
// moves sent as the player's, the others played by the script bot.
func TestTutorialsPlayThrough(t *testing.T) {
	h := servertest.New(t, servertest.Unlimited())
	for _, game := range tutorial.Games() {
		t.Run(game, func(t *testing.T) {
			sc, _ := tutorial.For(game)
			var seat servertest.Seat
			if code := h.Post("/api/tutorials/"+game, map[string]string{"name": "Ann"}, &seat); code != http.StatusCreated {
				t.Fatalf("POST /api/tutorials/%s: %d", game, code)
			}
			c := h.Dial(seat.Table, seat.Token)
			var step message // the last step told, before its state
			for {
				m := next(t, c, "state", "error", "tutorial")
				if m.Type == "error" {
					t.Fatalf("%+v", m)
				}
				if m.Type == "tutorial" {
					step = m
					continue
				}
				if m.N >= len(sc.Moves) {
					break
				}
				if want, _, _ := sc.At(m.N); want.Seat == tutorial.Seat {
					c.Send(map[string]any{"type": "move", "n": m.N, "move": want.Move})
				}
			}
			if !step.Done {
				t.Fatalf("the end of %s's script: %+v", game, step.Tutorial)
			}
		})
	}
}
