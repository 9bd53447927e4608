package dacapo

import (
	"encoding/json"
	"testing"

	"tapis/game"
	"tapis/game/gametest"
)

func configs() []game.Config {
	cfgs := gametest.Configs(MinPlayers, MaxPlayers)
	for _, o := range []string{
		`{"pile_size":5}`,
		`{"pile_size":4,"match_target":12}`,
	} {
		cfgs = append(cfgs, game.Config{Players: 3, Options: json.RawMessage(o)})
	}
	cfgs = append(cfgs, game.Config{Players: 2, Options: json.RawMessage(`{"pile_size":3,"match_target":5}`)})
	return cfgs
}

func TestContract(t *testing.T) { gametest.Run(t, Game{}, configs()) }

func TestProperty(t *testing.T) { gametest.Property(t, Game{}, configs()) }

func BenchmarkPlayout(b *testing.B) {
	for _, n := range []int{2, 4, 6} {
		b.Run(map[int]string{2: "2p", 4: "4p", 6: "6p"}[n], func(b *testing.B) {
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
