package bot

import (
	"testing"

	"tapis/game"
	"tapis/games"
)

// Random bots finish games of every game at every table size.
func TestRandomPlaysEveryGame(t *testing.T) {
	for _, g := range games.All() {
		lo, hi := g.Players()
		for n := lo; n <= hi; n++ {
			for seed := uint64(0); seed < 20; seed++ {
				st, err := g.New(game.Config{Players: n, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				players := make([]game.Player, n)
				for s := range players {
					players[s] = NewRandom(seed*10 + uint64(s))
				}
				if _, err := Play(st, players, 1_000_000); err != nil {
					t.Fatalf("%s, %d players, seed %d: %v", g.Name(), n, seed, err)
				}
				if len(st.Result().Winners) == 0 {
					t.Fatalf("%s: a finished game with no winner", g.Name())
				}
			}
		}
	}
}

func TestNewRejectsUnknownBot(t *testing.T) {
	if _, err := New(games.Named("cabo"), "genius", 0, 1); err == nil {
		t.Fatal("an unknown bot name was accepted")
	}
}
