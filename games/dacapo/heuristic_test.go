package dacapo_test

import (
	"testing"

	"tapis/bot"
	"tapis/game"
	"tapis/games/dacapo"
)

// The heuristic bot wins at least 90% of 2-player games against random
// play (the acceptance), seated first or second alike.
func TestHeuristicBeatsRandom(t *testing.T) {
	const games = 500 // about half a second: no shorter run for -short
	wins := 0
	for g := 0; g < games; g++ {
		me := game.Seat(g % 2)
		st, err := dacapo.Game{}.New(game.Config{Players: 2, Seed: uint64(g) + 1})
		if err != nil {
			t.Fatal(err)
		}
		players := make([]game.Player, 2)
		players[me] = dacapo.Game{}.Heuristic(me, uint64(g))
		players[1-me] = bot.NewRandom(uint64(g) + 1000)
		if _, err := bot.Play(st, players, 100000); err != nil {
			t.Fatal(err)
		}
		w := st.Result().Winners
		if len(w) == 1 && w[0] == me {
			wins++
		}
	}
	rate := float64(wins) / float64(games)
	t.Logf("heuristic won %d of %d 2-player games against random (%.1f%%)", wins, games, 100*rate)
	if rate < 0.90 {
		t.Fatalf("heuristic won %.1f%% against random, want at least 90%%", 100*rate)
	}
}
