package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"tapis/game"
	"tapis/games"
	"tapis/replay"
)

// get fetches path and decodes its JSON answer into out (if not nil),
// returning the status and the refusal's code.
func (h *harness) get(path string, out any) (int, string) {
	h.t.Helper()
	resp, err := h.hs.Client().Get(h.hs.URL + path)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e struct{ Code, Error string }
		json.NewDecoder(resp.Body).Decode(&e)
		if e.Error == "" {
			h.t.Fatalf("GET %s: %d without words", path, resp.StatusCode)
		}
		return resp.StatusCode, e.Code
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			h.t.Fatalf("GET %s: %v", path, err)
		}
	}
	return resp.StatusCode, ""
}

// playMatch has two clients play the table's current match to its end at
// random and returns the final state message.
func playMatch(t *testing.T, cs []*client, seats []game.Seat, seed uint64) msg {
	t.Helper()
	type end struct {
		m   msg
		err error
	}
	ends := make(chan end, len(cs))
	for i, c := range cs {
		go func() {
			m, err := playRandom(c, seats[i], seed*10+uint64(i), 1<<30)
			ends <- end{m, err}
		}()
	}
	var last msg
	for range cs {
		e := <-ends
		if e.err != nil {
			t.Fatal(e.err)
		}
		if e.m.Status != "over" {
			t.Fatalf("the match ended as %+v", e.m)
		}
		last = e.m
	}
	return last
}

// statesOf returns the "state" messages of match no a client received,
// by position.
func statesOf(t *testing.T, c *client, no int) map[int]json.RawMessage {
	views := map[int]json.RawMessage{}
	for _, b := range c.messages() {
		var m msg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "state" && m.Match == no {
			views[m.N] = m.View
		}
	}
	return views
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// Twenty finished matches of every game, exported, give exactly the table's
// scores and winners under `tapis replay` (replay.Run); their page has the
// table's score sheet, and the viewer's seat views are what the seat was
// sent during play.
func TestHistoryExport(t *testing.T) {
	matches := 20
	if raceDetector {
		// Five under -race: the race phase looks for data races, which
		// five matches a game find as well as twenty (the run without
		// -race plays twenty); it was this package's longest test
		// under -race.
		matches = 5
	}
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			h := newHarness(t, testConfig())
			lo, _ := g.Players()
			bots := []string{"", ""}
			for len(bots) < lo {
				bots = append(bots, "random")
			}
			a := h.create(g.Name(), bots, "Ann", "")
			ca := h.dial(a.Table, a.Token)
			b := h.join(a.Table, "Bob")
			cb := h.dial(a.Table, b.Token)
			finals := map[int]msg{}
			for no := 1; no <= matches; no++ {
				finals[no] = playMatch(t, []*client{ca, cb}, []game.Seat{a.Seat, b.Seat}, uint64(no))
				if finals[no].Match != no {
					t.Fatalf("match %d ended as match %d", no, finals[no].Match)
				}
				if no < matches {
					ca.send(`{"type":"again"}`)
				}
			}
			for no := 1; no <= matches; no++ {
				var sc replay.Script
				if code, _ := h.get(fmt.Sprintf("/api/tables/%s/replay?match=%d", a.Table, no), &sc); code != http.StatusOK {
					t.Fatalf("match %d: export: %d", no, code)
				}
				if sc.Game != g.Name() || sc.Players != len(bots) || len(sc.Moves) != finals[no].N {
					t.Fatalf("match %d: script %s, %d players, %d moves; the table played %d", no, sc.Game, sc.Players, len(sc.Moves), finals[no].N)
				}
				out, err := replay.Run(sc, games.Named)
				if err != nil {
					t.Fatalf("match %d: %v", no, err)
				}
				want := finals[no].Result
				if len(out.Rejected) != 0 || !out.Over || !slices.Equal(out.Scores, want.Scores) || !slices.Equal(out.Winners, want.Winners) {
					t.Fatalf("match %d: replay gives over %v, scores %v, winners %v, rejected %v; the table recorded %v, %v",
						no, out.Over, out.Scores, out.Winners, out.Rejected, want.Scores, want.Winners)
				}
			}
			// Without ?match, the latest finished match.
			var latest replay.Script
			h.get("/api/tables/"+a.Table+"/replay", &latest)
			if len(latest.Moves) != finals[matches].N {
				t.Fatalf("the default export has %d moves, the last match %d", len(latest.Moves), finals[matches].N)
			}

			// The page of the last match: seats, result, every round.
			var page struct {
				Seats []struct {
					Name string `json:"name"`
					Bot  string `json:"bot"`
				} `json:"seats"`
				Result game.Result `json:"result"`
				Rounds [][]int     `json:"rounds"`
				Moves  int         `json:"moves"`
			}
			if code, _ := h.get(fmt.Sprintf("/api/tables/%s/matches/%d", a.Table, matches), &page); code != http.StatusOK {
				t.Fatalf("match page: %d", code)
			}
			var rounds struct {
				Rounds [][]int `json:"rounds"`
			}
			final := ca.messages()
			for i := len(final) - 1; i >= 0; i-- {
				var m msg
				json.Unmarshal(final[i], &m)
				if m.Type == "state" {
					json.Unmarshal(final[i], &rounds)
					break
				}
			}
			if page.Seats[a.Seat].Name != "Ann" || page.Seats[b.Seat].Name != "Bob" || page.Moves != finals[matches].N ||
				!reflect.DeepEqual(page.Result, finals[matches].Result) || !reflect.DeepEqual(page.Rounds, rounds.Rounds) || len(page.Rounds) == 0 {
				t.Fatalf("match page %+v\nthe table's last state: result %+v, rounds %v", page, finals[matches].Result, rounds.Rounds)
			}

			// The viewer's steps as Ann and as Bob: one per position, each
			// view what that seat was sent at that position.
			for _, c := range []struct {
				seat game.Seat
				cl   *client
			}{{a.Seat, ca}, {b.Seat, cb}} {
				var st struct {
					Steps []struct {
						N    int             `json:"n"`
						By   game.Seat       `json:"by"`
						Move json.RawMessage `json:"move"`
						View json.RawMessage `json:"view"`
					} `json:"steps"`
				}
				if code, _ := h.get(fmt.Sprintf("/api/tables/%s/matches/1/steps?seat=%d", a.Table, c.seat), &st); code != http.StatusOK {
					t.Fatalf("steps: %d", code)
				}
				if len(st.Steps) != finals[1].N+1 {
					t.Fatalf("%d steps for %d moves", len(st.Steps), finals[1].N)
				}
				sent := statesOf(t, c.cl, 1)
				compared := 0
				for n, v := range sent {
					s := st.Steps[n]
					if s.N != n || (n == 0) != (s.Move == nil) {
						t.Fatalf("step %d: n %d, move %s", n, s.N, s.Move)
					}
					if !sameJSON(s.View, v) {
						t.Fatalf("seat %d, position %d: the viewer shows\n%s\nthe seat was sent\n%s", c.seat, n, s.View, v)
					}
					compared++
				}
				if compared < 3 {
					t.Fatalf("only %d positions compared", compared)
				}
			}
			var all struct {
				Steps []struct {
					Views []json.RawMessage `json:"views"`
					State json.RawMessage   `json:"state"`
				} `json:"steps"`
			}
			h.get(fmt.Sprintf("/api/tables/%s/matches/1/steps?seat=all", a.Table), &all)
			if len(all.Steps) != finals[1].N+1 || len(all.Steps[1].Views) != len(bots) || len(all.Steps[1].State) == 0 {
				t.Fatalf("every card shown: %d steps, %d views", len(all.Steps), len(all.Steps[1].Views))
			}
		})
	}
}

// Nothing of an unfinished match is served: its export, page and steps
// are refused with 409 "not_over", for every seat; a finished earlier
// match of the same table is served; missing tables and matches are 404,
// bad numbers 400.
func TestHistoryRefusesUnfinished(t *testing.T) {
	h := newHarness(t, testConfig())
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	c := h.dial(a.Table, a.Token)
	if m, err := playRandom(c, a.Seat, 1, 3); err != nil || m.Status != "playing" {
		t.Fatalf("%v %+v", err, m)
	}
	unfinished := func(no int) []string {
		q := ""
		if no > 0 {
			q = fmt.Sprintf("?match=%d", no)
		}
		m := max(no, 1)
		return []string{
			"/api/tables/" + a.Table + "/replay" + q,
			fmt.Sprintf("/api/tables/%s/matches/%d", a.Table, m),
			fmt.Sprintf("/api/tables/%s/matches/%d/steps?seat=0", a.Table, m),
			fmt.Sprintf("/api/tables/%s/matches/%d/steps?seat=1", a.Table, m),
			fmt.Sprintf("/api/tables/%s/matches/%d/steps?seat=all", a.Table, m),
		}
	}
	for _, p := range append(unfinished(0), unfinished(1)...) {
		if code, why := h.get(p, nil); code != http.StatusConflict || why != "not_over" {
			t.Fatalf("GET %s of an unfinished match: %d %s", p, code, why)
		}
	}
	if m, err := playRandom(c, a.Seat, 2, 1<<30); err != nil || m.Status != "over" {
		t.Fatalf("%v %+v", err, m)
	}
	c.send(`{"type":"again"}`)
	if m, err := playRandom(c, a.Seat, 3, 2); err != nil || m.Match != 2 {
		t.Fatalf("%v %+v", err, m)
	}
	for _, p := range unfinished(2) {
		if code, why := h.get(p, nil); code != http.StatusConflict || why != "not_over" {
			t.Fatalf("GET %s of the running second match: %d %s", p, code, why)
		}
	}
	var sc replay.Script
	if code, _ := h.get("/api/tables/"+a.Table+"/replay", &sc); code != http.StatusOK || len(sc.Moves) == 0 {
		t.Fatalf("the finished first match while the second runs: %d", code)
	}
	for _, c := range []struct {
		path string
		code int
	}{
		{"/api/tables/nosuchtable/replay", 404},
		{"/api/tables/" + a.Table + "/replay?match=9", 404},
		{"/api/tables/" + a.Table + "/matches/9", 404},
		{"/api/tables/" + a.Table + "/replay?match=x", 400},
		{"/api/tables/" + a.Table + "/matches/0", 400},
		{"/api/tables/" + a.Table + "/matches/1/steps?seat=2", 400},
		{"/api/tables/" + a.Table + "/matches/1/steps", 400},
	} {
		if code, _ := h.get(c.path, nil); code != c.code {
			t.Fatalf("GET %s: %d, want %d", c.path, code, c.code)
		}
	}
	// A table still waiting for players has no match to show.
	w := h.create("cabo", []string{"", ""}, "Zoe", "")
	if code, _ := h.get("/api/tables/"+w.Table+"/replay", nil); code != http.StatusNotFound {
		t.Fatalf("a waiting table's export: %d", code)
	}
}
