package dacapo

import (
	"encoding/json"
	"fmt"
	"testing"

	"tapis/game"
	"tapis/game/gametest"
)

// optionConfigs vary the options: short personal piles, and matches.
func optionConfigs() []game.Config {
	var cfgs []game.Config
	for _, c := range []struct {
		players int
		opts    string
	}{
		{3, `{"pile_size":5}`},
		{3, `{"pile_size":4,"match_target":12}`},
		{2, `{"pile_size":3,"match_target":5}`},
		{6, `{"pile_size":23}`},
	} {
		cfgs = append(cfgs, game.Config{Players: c.players, Options: json.RawMessage(c.opts)})
	}
	return cfgs
}

// configs is every table size with the default options, then the
// option variants.
func configs() []game.Config {
	return append(gametest.Configs(MinPlayers, MaxPlayers), optionConfigs()...)
}

func TestContract(t *testing.T) {
	// 200 random games per table size, and fewer for the option
	// variants (a match plays several games), keep the package's tests
	// within a minute on a shared machine.
	gametest.Suite{Games: 200}.Run(t, Game{}, gametest.Configs(MinPlayers, MaxPlayers))
	gametest.Suite{Games: 60}.Run(t, Game{}, optionConfigs())
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
