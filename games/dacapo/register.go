package dacapo

import (
	"encoding/json"

	"tapis/game"
)

// Entry is Da Capo! as Tapis knows it beyond its rules (game.Entry): the
// bots' budgets, their ratings, how the client draws it (a match's rows
// are whole games), and the conformance suite's tables. Its private
// events are a seat's own hand and drawn cards, which its view shows
// while they are its own: it has no memory rule.
func (Game) Entry() game.Entry {
	// Short personal piles, and matches.
	var variants []game.Config
	for _, c := range []struct {
		players int
		opts    string
	}{
		{3, `{"pile_size":5}`},
		{3, `{"pile_size":4,"match_target":12}`},
		{2, `{"pile_size":3,"match_target":5}`},
		{6, `{"pile_size":23}`},
	} {
		variants = append(variants, game.Config{Players: c.players, Options: json.RawMessage(c.opts)})
	}
	return game.Entry{
		Game: Game{},
		// bot.Budget says how these were chosen. Hard plans whole turns
		// (Plans) and searches once a plan: 2,000 iterations a plan at 2
		// players, 2,000*2/n at n seats, where a playout costs more
		// (docs/bots.md, Whole turns, Levels' budgets).
		Levels: game.Levels{Normal: 300, Hard: 2000, HardSeats: 2},
		// rating's anchors.go says how these were measured.
		Anchors: map[string]float64{"random": 18.37, "easy": 25.88, "normal": 28.11, "hard": 27.19},
		Look:    game.Look{Title: "Da Capo!", Round: "game", Screen: "dacapo.js"},
		// 200 random games per table size, and fewer for the option
		// variants (a match plays several games), keep the suite within
		// a minute on a shared machine.
		Trials: []game.Trial{
			{Games: 200, Configs: game.Configs(MinPlayers, MaxPlayers)},
			{Games: 60, Configs: variants},
		},
		Reasons: Reasons(),
	}
}
