package limits_test

import (
	"testing"

	"tapis/bot"
	"tapis/game"
	"tapis/games/limits"
)

// winRate plays games of the heuristic bot (seat alternating) against
// random players and returns the share it won (a shared win counts).
func winRate(t *testing.T, players, games int) float64 {
	t.Helper()
	g := limits.Game{}
	wins := 0.0
	for i := 0; i < games; i++ {
		seed := uint64(i) + 1000
		st, err := g.New(game.Config{Players: players, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		hs := game.Seat(i % players)
		ps := make([]game.Player, players)
		for s := range ps {
			if game.Seat(s) == hs {
				ps[s] = g.Heuristic(hs, seed*7+1)
			} else {
				ps[s] = bot.NewRandom(seed*7 + 2 + uint64(s))
			}
		}
		if _, err := bot.Play(st, ps, 100000); err != nil {
			t.Fatal(err)
		}
		for _, w := range st.Result().Winners {
			if w == hs {
				wins++
			}
		}
	}
	return wins / float64(games)
}

// The acceptance: the heuristic bot wins at least 80% of
// 2-player games against random.
func TestHeuristicBeatsRandom(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 500
	}
	rate := winRate(t, 2, games)
	t.Logf("heuristic vs random, 2 players, %d games: %.1f%% won", games, 100*rate)
	if rate < 0.80 {
		t.Errorf("heuristic won %.1f%% of %d 2-player games against random, want at least 80%%", 100*rate, games)
	}
}

// At larger tables it still beats its fair share (1/n) by far.
func TestHeuristicBeatsRandomAtLargerTables(t *testing.T) {
	for _, n := range []int{3, 4, 6} {
		rate := winRate(t, n, 200)
		t.Logf("heuristic vs %d random, %d players: %.1f%% won", n-1, n, 100*rate)
		if rate < 2.0/float64(n) {
			t.Errorf("%d players: heuristic won %.1f%%, want at least twice its share", n, 100*rate)
		}
	}
}
