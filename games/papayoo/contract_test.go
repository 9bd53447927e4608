package papayoo

import (
	"encoding/json"
	"fmt"
	"testing"

	"tapis/game"
	"tapis/game/gametest"
)

func configs() []game.Config {
	cfgs := gametest.Configs(MinPlayers, MaxPlayers)
	for _, c := range []struct {
		n int
		o string
	}{{4, `{"rounds":1}`}, {3, `{"rounds":7}`}, {8, `{"rounds":2}`}} {
		cfgs = append(cfgs, game.Config{Players: c.n, Options: json.RawMessage(c.o)})
	}
	return cfgs
}

func TestContract(t *testing.T) {
	s := gametest.Suite{Games: 50}
	s.Run(t, Game{}, configs())
}

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
				st = *start
				seed++
				st.rng = game.NewRNG(seed)
				return &st
			})
		})
	}
}
