package papayoo

// The conformance suite (game/gametest) runs over every registered game
// in games' TestContract, with the tables of this game's Entry.

import (
	"fmt"
	"testing"

	"tapis/game"
	"tapis/game/gametest"
)

func BenchmarkPlayout(b *testing.B) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		b.Run(fmt.Sprintf("%dp", n), func(b *testing.B) {
			start, err := NewState(game.Config{Players: n, Seed: 7})
			if err != nil {
				b.Fatal(err)
			}
			st := *start
			seed := uint64(0)
			gametest.Playouts(b, func() game.State {
				st = *start
				seed++
				st.rng = game.NewRNG(seed)
				return &st
			})
		})
	}
}
