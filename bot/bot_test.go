package bot

import (
	"reflect"
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

// A restarted random bot plays a game exactly as a new one with the same
// seed: the sim reuses its bots on that promise.
func TestRandomRestartIsNew(t *testing.T) {
	g := games.Named("papayoo")
	play := func(players []game.Player) game.Result {
		st, err := g.New(game.Config{Players: 4, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Play(st, players, 1_000_000); err != nil {
			t.Fatal(err)
		}
		return st.Result()
	}
	used := []game.Player{NewRandom(1), NewRandom(2), NewRandom(3), NewRandom(4)}
	play(used)
	fresh := make([]game.Player, 4)
	for s := range used {
		used[s].(Restarter).Restart(uint64(s) + 10)
		fresh[s] = NewRandom(uint64(s) + 10)
	}
	a, b := play(used), play(fresh)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("restarted bots: %+v; new bots: %+v", a, b)
	}
	if reflect.DeepEqual(a, play([]game.Player{NewRandom(1), NewRandom(2), NewRandom(3), NewRandom(4)})) {
		t.Fatal("other seeds played the same game: the test shows nothing")
	}
}
