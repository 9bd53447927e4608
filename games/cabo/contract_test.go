package cabo

import (
	"encoding/json"
	"fmt"
	"testing"

	"tapis/game"
	"tapis/game/gametest"
)

func configs() []game.Config {
	cfgs := gametest.Configs(MinPlayers, MaxPlayers)
	for _, o := range []string{
		`{"hand_size":6}`,
		`{"swap_opponents":true}`,
		`{"initial_peek":0,"reset_at_100_to":70,"max_resets":1}`,
	} {
		cfgs = append(cfgs, game.Config{Players: 3, Options: json.RawMessage(o)})
	}
	return cfgs
}

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
				st = *start
				seed++
				st.rng = game.NewRNG(seed)
				return &st
			})
		})
	}
}
