package server_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// caboEvent is the part of a Cabo event the memory tests read.
type caboEvent struct {
	Type   string `json:"type"`
	Seat   int    `json:"seat"`
	Seen   []int  `json:"seen"`
	Failed bool   `json:"failed"`
}

// privateLooks are the Cabo events whose "seen" only their actor is told.
var privateLooks = []string{"peek_initial", "peek", "spy", "draw"}

// looksOf returns seat's private looks among evs, as "type:values".
func looksOf(t *testing.T, evs []json.RawMessage, seat int) []string {
	t.Helper()
	var out []string
	for _, raw := range evs {
		var e caboEvent
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		if e.Seat != seat || !slices.Contains(privateLooks, e.Type) {
			continue
		}
		b, _ := json.Marshal(e.Seen)
		out = append(out, e.Type+":"+string(b))
	}
	return out
}

// Memory is a rule: a Cabo player who comes back gets a history without
// the values of the cards they looked at privately (initial peek, draws,
// a 7/8 peek or 9/10 spy), while the live states carried them once;
// with the memory aid the history keeps them, the same as they came.
func TestMemoryAidHistory(t *testing.T) {
	for _, aid := range []bool{false, true} {
		name := map[bool]string{false: "off", true: "on"}[aid]
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, testConfig())
			var r seatResp
			req := map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "Ann", "memory_aid": aid}
			if code := h.post("/api/tables", req, &r); code != http.StatusCreated {
				t.Fatalf("create: %d", code)
			}
			c := h.dial(r.Table, r.Token)
			c.next("welcome")
			// Play seat 0 until it has made every kind of private look:
			// prefer a peek or a spy, else draw, else discard; never
			// call Cabo, which would end the round early.
			var live []json.RawMessage
			seen := map[string]bool{}
			pending := false
			for n := 0; !(seen["peek_initial"] && seen["draw"] && seen["peek"] && seen["spy"]); n++ {
				if n > 5000 {
					t.Fatalf("no peek and spy in %d messages; looks seen: %v", n, seen)
				}
				m := c.next("state", "error")
				if m.Type == "error" {
					t.Fatalf("error %s: %s", m.Code, m.Error)
				}
				if m.Status == "over" {
					t.Fatalf("the match ended before every kind of look; seen %v", seen)
				}
				live = append(live, m.Events...)
				for _, l := range looksOf(t, m.Events, 0) {
					typ, vals, _ := strings.Cut(l, ":")
					if vals != "null" {
						seen[typ] = true
					}
				}
				if m.By == 0 {
					pending = false
				}
				if pending || !slices.Contains(m.ToMove, 0) || len(m.Legal) == 0 {
					continue
				}
				var pick json.RawMessage
				for _, want := range []string{"peek_initial", "peek", "spy", "draw", "discard"} {
					for _, mv := range m.Legal {
						var x struct{ Type string }
						json.Unmarshal(mv, &x)
						if x.Type == want && pick == nil {
							pick = mv
						}
					}
				}
				if pick == nil {
					t.Fatalf("no move to make among %s", m.Legal)
				}
				pending = true
				c.send(map[string]any{"type": "move", "move": pick})
			}
			// The last move sent comes back before the page goes.
			for pending {
				m := c.next("state")
				live = append(live, m.Events...)
				pending = m.By != 0
			}
			liveLooks := looksOf(t, live, 0)
			c.ws.CloseNow()
			back := h.dial(r.Table, r.Token)
			w := back.next("welcome")
			st := back.next("state")
			if len(st.Events) != 0 {
				t.Fatalf("the reconnection's state carries events: %s", st.Events)
			}
			hist := looksOf(t, w.History, 0)
			if len(hist) != len(liveLooks) {
				t.Fatalf("history has %d looks of seat 0, the live states %d", len(hist), len(liveLooks))
			}
			if aid {
				if !reflect.DeepEqual(hist, liveLooks) {
					t.Fatalf("with the memory aid, the history's looks %v, want the live ones %v", hist, liveLooks)
				}
				return
			}
			for _, l := range hist {
				if _, vals, _ := strings.Cut(l, ":"); vals != "null" {
					t.Fatalf("memory aid off: the history gives back a private look %s (all: %v)", l, hist)
				}
			}
			// Public values stay: a failed set's cards, the discards.
			for _, raw := range w.History {
				var e caboEvent
				json.Unmarshal(raw, &e)
				if e.Seen != nil && !e.Failed {
					t.Fatalf("memory aid off: a seen value in %s", raw)
				}
			}
		})
	}
}

// The memory aid is refused for a game without private looks.
func TestMemoryAidOnlyCabo(t *testing.T) {
	h := newHarness(t, testConfig())
	var e struct{ Code string }
	req := map[string]any{"game": "papayoo", "players": 3, "bots": []string{"", "random", "random"}, "name": "Ann", "memory_aid": true}
	if code := h.post("/api/tables", req, &e); code != http.StatusBadRequest || e.Code != "bad_memory_aid" {
		t.Fatalf("papayoo with the memory aid: %d %s", code, e.Code)
	}
}
