package papayoo_test

import (
	"testing"

	"tapis/bot"
	"tapis/game"
	"tapis/games/papayoo"
)

// strength plays games with one heuristic player among random ones, the
// heuristic seat rotating, and returns the mean points per round of the
// heuristic player and of a random one.
func strength(t testing.TB, players, games int) (heur, random float64) {
	var hs, rs, rounds float64
	for g := 0; g < games; g++ {
		st, err := papayoo.NewState(game.Config{Players: players, Seed: uint64(g)})
		if err != nil {
			t.Fatal(err)
		}
		hseat := g % players
		ps := make([]game.Player, players)
		for s := range ps {
			if s == hseat {
				ps[s] = papayoo.Game{}.Heuristic(game.Seat(s), uint64(g))
			} else {
				ps[s] = bot.NewRandom(uint64(g*10 + s))
			}
		}
		if _, err := bot.Play(st, ps, 100000); err != nil {
			t.Fatal(err)
		}
		res := st.Result()
		for s, sc := range res.Scores {
			if s == hseat {
				hs += float64(sc)
			} else {
				rs += float64(sc)
			}
		}
		rounds += float64(res.Rounds)
	}
	return hs / rounds, rs / rounds / float64(players-1)
}

// One heuristic player at a table with three random ones takes at most
// half the points per round of a random player (the acceptance).
func TestHeuristicBeatsRandom(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 200
	}
	h, r := strength(t, 4, games)
	t.Logf("4 players, %d games: heuristic %.1f points/round, random %.1f", games, h, r)
	if h > r/2 {
		t.Fatalf("heuristic takes %.1f points per round, random players %.1f: not at most half", h, r)
	}
}

// The same at every table size, for the record (go test -v -run All).
func TestHeuristicAllTables(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	for n := papayoo.MinPlayers; n <= papayoo.MaxPlayers; n++ {
		h, r := strength(t, n, 300)
		t.Logf("%d players: heuristic %.1f points/round, random %.1f", n, h, r)
		if h > r/2 {
			t.Errorf("%d players: heuristic %.1f points per round, random %.1f", n, h, r)
		}
	}
}

// Heuristic players alone finish games at every table size, and only
// ever choose moves the engine accepts (bot.Play fails otherwise).
func TestHeuristicTable(t *testing.T) {
	for n := papayoo.MinPlayers; n <= papayoo.MaxPlayers; n++ {
		for seed := uint64(0); seed < 10; seed++ {
			st, err := papayoo.NewState(game.Config{Players: n, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			ps := make([]game.Player, n)
			for s := range ps {
				ps[s] = papayoo.Game{}.Heuristic(game.Seat(s), seed)
			}
			if _, err := bot.Play(st, ps, 100000); err != nil {
				t.Fatalf("%d players, seed %d: %v", n, seed, err)
			}
		}
	}
}
