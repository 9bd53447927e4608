package papayoo

import (
	"encoding/json"

	"tapis/game"
)

// Entry is Papayoo as Tapis knows it beyond its rules (game.Entry): the
// bots' budgets, their ratings, how the client draws it, and the
// conformance suite's tables. Its private events are a seat's own hand,
// which its view shows while it is its own: it has no memory rule.
func (Game) Entry() game.Entry {
	cfgs := game.Configs(MinPlayers, MaxPlayers)
	for _, c := range []struct {
		n int
		o string
	}{{4, `{"rounds":1}`}, {3, `{"rounds":7}`}, {8, `{"rounds":2}`}} {
		cfgs = append(cfgs, game.Config{Players: c.n, Options: json.RawMessage(c.o)})
	}
	return game.Entry{
		Game: Game{},
		// bot.Budget says how these were chosen.
		Levels: game.Levels{Normal: 300, Hard: 1000},
		// rating's anchors.go says how these were measured.
		Anchors: map[string]float64{"random": -15.36, "easy": 33.67, "normal": 33.69, "hard": 42.51},
		Look:    game.Look{Title: "Papayoo", Scoring: "low", Round: "round", Screen: "papayoo.js"},
		Trials:  []game.Trial{{Games: 50, Configs: cfgs}},
		Reasons: Reasons(),
	}
}
