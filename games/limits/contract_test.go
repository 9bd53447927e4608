package limits

import (
	"fmt"
	"testing"

	"tapis/game"
	"tapis/game/gametest"
)

func configs() []game.Config { return gametest.Configs(MinPlayers, MaxPlayers) }

func TestContract(t *testing.T) { gametest.Run(t, Game{}, configs()) }

func TestProperty(t *testing.T) { gametest.Property(t, Game{}, configs()) }

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
				// A new deal each game, without allocating: reshuffle the
				// start's cards with a new seed.
				seed++
				st = State{n: start.n, handSize: start.handSize, hideN: start.hideN, rng: game.NewRNG(seed)}
				st.deal(nil, nil)
				return &st
			})
		})
	}
}
