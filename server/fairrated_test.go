package server_test

import (
	"context"
	"database/sql"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"tapis/store"
	"tapis/store/sqlite"
)

// Issue 24's findings on rated play: a rated table always has a time per
// move, a player who walks away is rated last, and a match that ended
// before a crash is marked over when the server starts again.

// Finding 7: a player who stays connected but idle at a rated table
// without a time per move stalled it forever. A rated table always has
// one: 60 s when the creator gives none; none (0) is refused, saying why.
func TestRatedTableAlwaysHasATimePerMove(t *testing.T) {
	h := newHarness(t, testConfig())
	ada, _ := signedUp(h, "Ada", "ada")
	req := func(turn any) map[string]any {
		r := map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "rated": true}
		if turn != nil {
			r["turn_seconds"] = turn
		}
		return r
	}
	var tab seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", req(nil), &tab)
	if n := turnOf(t, ada, tab.Table); n != 60 {
		t.Fatalf("a rated table created without a time per move has %d s, want 60", n)
	}
	ada.must(http.StatusCreated, "POST", "/api/tables", req(30), &tab)
	if n := turnOf(t, ada, tab.Table); n != 30 {
		t.Fatalf("turn_seconds 30: %d", n)
	}
	var e struct{ Code, Error string }
	if code := ada.do("POST", "/api/tables", req(0), &e); code != http.StatusBadRequest || e.Code != "bad_turn_seconds" {
		t.Fatalf("a rated table with turn_seconds 0: %d %q %q", code, e.Code, e.Error)
	}
	// A table that is not rated keeps none by default.
	unrated := req(nil)
	unrated["rated"] = false
	ada.must(http.StatusCreated, "POST", "/api/tables", unrated, &tab)
	if n := turnOf(t, ada, tab.Table); n != 0 {
		t.Fatalf("an unrated table: %d s", n)
	}
}

// Finding 7: an idle player connected to a rated table no longer stalls
// it: the time per move plays for them, and once its stand-in has made
// most of their moves they rank last.
func TestRatedIdlePlayerIsPlayedForAndRankedLast(t *testing.T) {
	cfg := testConfig()
	cfg.TurnUnit = time.Millisecond // the default 60 "s" are 60 ms here
	h := newHarness(t, cfg)
	ada, adaID := signedUp(h, "Ada", "ada")
	var tab seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "rated": true}, &tab)
	c := ada.dial(tab.Table) // connected, and never moves
	for m := c.next("state"); m.Status != "over"; m = c.next("state") {
	}
	var rows []store.Result
	eventually(t, "the match rated", func() bool {
		var err error
		rows, err = h.store.MatchResults(context.Background(), tab.Table, 1)
		return err == nil && len(rows) == 2
	})
	if rows[0].Player != adaID || rows[0].Rank != 2 || rows[1].Rank >= 2 {
		t.Fatalf("results %+v: want Ada last (rank 2)", rows)
	}
}

// Finding 7: at a rated table against bots, a player who left was never
// rated: nothing plays at a table nobody is at, and the match was closed
// "abandoned" with no result. Now the sweep that closes it, once the table
// has gone to sleep in the store, rates it first, the leaver last.
func TestRatedWalkAwayIsRatedLast(t *testing.T) {
	h := newHarness(t, lifeConfig(sqliteStore(t)))
	ada, adaID := signedUp(h, "Ada", "ada")
	var tab seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "rated": true}, &tab)
	c := ada.dial(tab.Table)
	if m, err := playRandom(c, tab.Seat, 3, 4); err != nil || m.Status == "over" {
		t.Fatalf("playing: %v, %+v", err, m.Status)
	}
	c.ws.CloseNow() // Ada walks away from a match she is losing
	eventually(t, "the table abandoned", func() bool { return closedAs(t, h.store, tab.Table) == store.Abandoned })
	rows, err := h.store.MatchResults(context.Background(), tab.Table, 1)
	if err != nil || len(rows) != 2 {
		t.Fatalf("the abandoned match was not rated: %+v %v", rows, err)
	}
	if rows[0].Player != adaID || rows[0].Rank != 2 || rows[1].Player != "bot:random" || rows[1].Rank >= 2 {
		t.Fatalf("results %+v: want Ada last (rank 2), the bot ahead", rows)
	}
	if rows[0].MuAfter >= rows[0].MuBefore && rows[0].MuBefore != 0 {
		t.Fatalf("Ada gained by walking away: %+v", rows[0])
	}
}

// Finding 8: kill -9 right after the last move of a rated match (3 of 12
// tries) left it rated once but never marked over: its replay answered 409
// forever, it stayed in /api/me/tables, and tapis check said ok. The
// crash is simulated by clearing the end's mark; the restarted server
// marks it over as soon as a player's tables or its history are asked
// for, and rates it exactly once.
func TestMatchEndedBeforeCrashIsMarkedOver(t *testing.T) {
	for _, first := range []string{"my tables", "replay"} {
		t.Run(first, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tapis.db")
			open := func() store.Store {
				st, err := sqlite.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				return st
			}
			cfg := testConfig()
			cfg.Store = open()
			h := newHarness(t, cfg)
			ada, id := signedUp(h, "Ada", "ada")
			tab := playRated(t, h, ada)
			h.stop()
			cfg.Store.Close()

			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`UPDATE tapis_matches SET over = 0`); err != nil {
				t.Fatal(err)
			}
			db.Close()

			cfg.Store = open()
			h2 := newHarness(t, cfg)
			defer cfg.Store.Close()
			ada2 := &person{h: h2, c: ada.c} // the same browser, cookies and all
			mine := func() {
				t.Helper()
				var out struct{ Tables []struct{ ID string } }
				ada2.must(http.StatusOK, "GET", "/api/me/tables", nil, &out)
				for _, tb := range out.Tables {
					if tb.ID == tab {
						t.Fatalf("the finished match's table is still among Ada's tables: %+v", out.Tables)
					}
				}
			}
			replay := func() {
				t.Helper()
				ada2.must(http.StatusOK, "GET", "/api/tables/"+tab+"/replay", nil, nil)
			}
			if first == "replay" {
				replay()
				mine()
			} else {
				mine()
				replay()
			}
			sv, err := cfg.Store.Load(context.Background(), tab)
			if err != nil || sv.Match == nil || !sv.Match.Over {
				t.Fatalf("the store does not mark the match over: %+v %v", sv.Match, err)
			}
			p, err := cfg.Store.Profile(context.Background(), id, 5)
			if err != nil || len(p.Standings) != 1 || p.Standings[0].Games != 1 || len(p.History) != 1 {
				t.Fatalf("rated other than once: %+v %v", p, err)
			}
		})
	}
}
