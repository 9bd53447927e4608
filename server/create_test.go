package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"tapis/game"
	"tapis/games"
	"tapis/games/cabo"
)

// apiRefusal is an HTTP API refusal as a client reads it.
type apiRefusal struct {
	Code   string         `json:"code"`
	Reason string         `json:"reason"`
	Args   map[string]any `json:"args"`
	Error  string         `json:"error"`
}

// POST /api/tables refuses what it cannot serve, with a code and a
// reason, and stores nothing: a table nobody sits at, a bots list that is
// not one entry per seat, a level the server does not seat.
func TestCreateRefusesWhatItCannotServe(t *testing.T) {
	h := newHarness(t, testConfig())
	for _, c := range []struct {
		name   string
		body   map[string]any
		code   string
		reason string
		args   map[string]any
	}{
		{"no name and no session", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "easy"}},
			"bad_name", "name_needed", nil},
		{"no name, no session, no bots", map[string]any{"game": "cabo", "players": 2},
			"bad_name", "name_needed", nil},
		{"a blank name", map[string]any{"game": "cabo", "players": 2, "name": " \u200b "},
			"bad_name", "name_needed", nil},
		{"a bots list shorter than the seats", map[string]any{"game": "cabo", "players": 3, "bots": []string{"", "easy"}, "name": "Ann"},
			"bad_bots", "bots_length", map[string]any{"bots": 2.0, "players": 3.0}},
		{"one bot for two players", map[string]any{"game": "cabo", "players": 2, "bots": []string{"easy"}, "name": "Ann"},
			"bad_bots", "bots_length", map[string]any{"bots": 1.0, "players": 2.0}},
		{"a bots list longer than the seats", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "easy", "easy"}, "name": "Ann"},
			"bad_bots", "bots_length", map[string]any{"bots": 3.0, "players": 2.0}},
		{"the old level heuristic", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "heuristic"}, "name": "Ann"},
			"bad_bots", "unknown_bot", map[string]any{"bot": "heuristic"}},
		{"an unknown level", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "genius"}, "name": "Ann"},
			"bad_bots", "unknown_bot", map[string]any{"bot": "genius"}},
		{"a budget", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "hard@100000"}, "name": "Ann"},
			"bad_bots", "unknown_bot", map[string]any{"bot": "hard@100000"}},
	} {
		var e apiRefusal
		if code := h.post("/api/tables", c.body, &e); code != http.StatusBadRequest || e.Code != c.code || e.Reason != c.reason ||
			!reflect.DeepEqual(e.Args, c.args) || e.Error == "" {
			t.Errorf("%s: %d %+v, want 400 %s %s %v", c.name, code, e, c.code, c.reason, c.args)
		}
	}
	if ids, err := h.store.Tables(context.Background()); err != nil || len(ids) != 0 {
		t.Fatalf("refused tables were stored: %v %v", ids, err)
	}

	// Without a bots list, every seat is a person's: the creator's first.
	var s seatResp
	if code := h.post("/api/tables", map[string]any{"game": "cabo", "players": 3, "name": "Ann"}, &s); code != http.StatusCreated || s.Seat != 0 || s.Token == "" {
		t.Fatalf("no bots list: %d %+v", code, s)
	}
	if names := tableSeats(t, h, s.Table); !reflect.DeepEqual(names, []string{"Ann", "", ""}) {
		t.Fatalf("seats %v", names)
	}
	// A session is a player: no name is needed.
	guest, _ := signedUp(h, "Bea", "")
	guest.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "easy"}}, &s)
	if s.Seat != 0 || s.Token == "" {
		t.Fatalf("a guest's table: %+v", s)
	}
}

// refusingGame is Cabo under another name, whose engine refuses the
// option "refuse" and every move with a typed refusal (game.Refusal), as
// the engines do: what the server answers is the refusal's reason and
// args, beside its words.
type refusingGame struct{ game.Game }

func (refusingGame) Name() string { return "refusing" }

func (g refusingGame) New(c game.Config) (game.State, error) {
	if strings.Contains(string(c.Options), "refuse") {
		return nil, game.Refuse("refusing", "options", game.ReasonBadOption, map[string]any{"option": "refuse"}, "no such option")
	}
	st, err := g.Game.New(game.Config{Players: c.Players, Seed: c.Seed, Log: c.Log})
	return refusingState{st}, err
}

type refusingState struct{ game.State }

func (refusingState) Apply(game.Seat, game.Move, *game.Log) error {
	return game.Refuse("limits", "hide", "no_card_of_colour", map[string]any{"colour": "red"}, "you hold no red card")
}

// An engine's refusal reaches the client with its reason and args, over
// HTTP (a bad option) and over the WebSocket (a move).
func TestRefusalsCarryTheirReason(t *testing.T) {
	cfg := testConfig()
	cfg.Games = append(games.All(), refusingGame{cabo.Game{}})
	h := newHarness(t, cfg)

	var e apiRefusal
	body := map[string]any{"game": "refusing", "players": 2, "bots": []string{"", ""}, "name": "Ann", "options": map[string]any{"refuse": true}}
	if code := h.post("/api/tables", body, &e); code != http.StatusBadRequest || e.Code != "bad_options" || e.Reason != "bad_option" ||
		!reflect.DeepEqual(e.Args, map[string]any{"option": "refuse"}) || e.Error != "refusing: options: no such option" {
		t.Fatalf("a refused option: %d %+v", code, e)
	}

	ann := h.create("refusing", []string{"", ""}, "Ann", "")
	var bea seatResp
	if code := h.post("/api/tables/"+ann.Table+"/join", map[string]string{"name": "Bea"}, &bea); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	c := h.dial(ann.Table, ann.Token)
	st := c.next("state")
	for st.N != 0 || len(st.Legal) == 0 {
		st = c.next("state")
	}
	c.send(map[string]any{"type": "move", "move": st.Legal[0], "n": st.N, "id": 7})
	b := c.nextRaw("error")
	want := `{"type":"error","code":"refused","reason":"no_card_of_colour","args":{"colour":"red"},"error":"limits: hide: you hold no red card","id":7}`
	if string(b) != want {
		t.Fatalf("the refusal:\n%s\nwant\n%s", b, want)
	}
}

// nextRaw returns the next message of type typ as sent.
func (c *client) nextRaw(typ string) []byte {
	c.t.Helper()
	for {
		select {
		case b, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("connection closed while waiting for %s", typ)
			}
			var m struct{ Type string }
			if json.Unmarshal(b, &m) == nil && m.Type == typ {
				return b
			}
		case <-time.After(20 * time.Second):
			c.t.Fatalf("no %s message in 20s", typ)
		}
	}
}
