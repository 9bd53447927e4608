package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"tapis/game"
	"tapis/games"
	"tapis/store"
)

// seatsFor gives a table of every game: two humans, then bots of each
// kind the game has.
func seatsFor(g game.Game) []string {
	lo, hi := g.Players()
	n := min(max(lo, 4), hi)
	bots := []string{"", ""}
	kinds := []string{"random"}
	if _, ok := g.(game.HeuristicGame); ok {
		kinds = append(kinds, "easy", "normal", "hard")
	}
	for i := 2; i < n; i++ {
		bots = append(bots, kinds[i%len(kinds)])
	}
	return bots[:n]
}

// Humans over WebSockets and bots in the server play complete games of
// every registered game; a spectator watches to the end; "play again"
// starts a second match with the same seats.
func TestPlayEveryGame(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			h := newHarness(t, testConfig())
			bots := seatsFor(g)
			a := h.create(g.Name(), bots, "Ann", "")
			ca := h.dial(a.Table, a.Token)
			if w := ca.next("welcome"); w.Seat != a.Seat || w.Table.Status != "waiting" {
				t.Fatalf("welcome: %+v", w)
			}
			b := h.join(a.Table, "Bob")
			cb := h.dial(a.Table, b.Token)
			spec := h.dial(a.Table, "")
			if w := spec.next("welcome"); w.Seat != game.Spectator {
				t.Fatalf("spectator welcome: seat %d", w.Seat)
			}
			for match := 1; match <= 2; match++ {
				errs := make(chan error, 2)
				finals := make(chan msg, 2)
				for i, c := range []*client{ca, cb} {
					seat := []game.Seat{a.Seat, b.Seat}[i]
					go func() {
						m, err := playRandom(c, seat, uint64(match*10+i), 1<<30)
						finals <- m
						errs <- err
					}()
				}
				for range 2 {
					if err := <-errs; err != nil {
						t.Fatal(err)
					}
					if m := <-finals; m.Status != "over" || len(m.Result.Winners) == 0 || m.Match != match {
						t.Fatalf("match %d ended as %+v", match, m)
					}
				}
				var last msg
				for last.Status != "over" {
					last = spec.next("state")
				}
				if len(last.Legal) != 0 {
					t.Fatal("a spectator was offered moves")
				}
				ca.send(`{"type":"again"}`)
			}
		})
	}
}

// The lobby lists every game with its options and bots, and what its
// registration tells the client.
func TestListGames(t *testing.T) {
	h := newHarness(t, testConfig())
	resp, err := h.hs.Client().Get(h.hs.URL + "/api/games")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []struct {
		Name    string
		Min     int
		Max     int
		Options []game.Option
		Bots    []string
		// The registry's: each game's look and memory rule.
		MemoryAid bool `json:"memory_aid"`
		game.Look
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	if len(list) != len(games.All()) {
		t.Fatalf("%d games listed, %d registered", len(list), len(games.All()))
	}
	for _, gi := range list {
		g := games.Named(gi.Name)
		if g == nil || len(gi.Options) != len(g.Options()) || !slices.Contains(gi.Bots, "random") {
			t.Fatalf("listed %+v", gi)
		}
		_, heur := g.(game.HeuristicGame)
		if slices.Contains(gi.Bots, "easy") != heur || slices.Contains(gi.Bots, "hard") != heur || slices.Contains(gi.Bots, "cheat") {
			t.Fatalf("%s: heuristic bot listed wrongly", gi.Name)
		}
		if e, _ := games.Lookup(gi.Name); gi.Look != e.Look || gi.Title == "" || gi.MemoryAid != (e.Forget != nil) {
			t.Fatalf("%s: listed %+v and memory aid %v, registered %+v", gi.Name, gi.Look, gi.MemoryAid, e.Look)
		}
	}
}

// A finished table that nobody watches any more leaves memory; its game
// stays in the store, and its page is served again from there (issue 26:
// it was "not found").
func TestIdleTableEvicted(t *testing.T) {
	cfg := testConfig()
	lc := &loadCounter{Store: store.NewMemory()}
	cfg.Store, cfg.IdleTimeout = lc, 50*time.Millisecond
	h := newHarness(t, cfg)
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	c := h.dial(a.Table, a.Token)
	if m, err := playRandom(c, a.Seat, 1, 1<<30); err != nil || m.Status != "over" {
		t.Fatalf("%v %+v", err, m)
	}
	c.ws.CloseNow()
	// Left memory: asked again, it is read from the store again.
	before := lc.loads.Load()
	for i := 0; lc.loads.Load() == before; i++ {
		if code, st := status(t, h, a.Table); code != http.StatusOK || st != "over" {
			t.Fatalf("the finished table answers %d %q", code, st)
		}
		if i > 100 {
			t.Fatal("the idle table is still served from memory")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if sv, err := h.store.Load(context.Background(), a.Table); err != nil || !sv.Match.Over {
		t.Fatalf("the finished game is not in the store: %v", err)
	}
}
