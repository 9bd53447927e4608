package limits

import "tapis/game"

// Entry is Limits as Tapis knows it beyond its rules (game.Entry): the
// bots' budgets, their ratings, how the client draws it, and the
// conformance suite's tables. Its private events are a seat's own hand
// and hidden cards, which its view shows while they are its own: it has
// no memory rule.
func (Game) Entry() game.Entry {
	return game.Entry{
		Game: Game{},
		// bot.Budget says how these were chosen: every budget from 30 on
		// beats the heuristic, so normal is cheaper than elsewhere.
		Levels: game.Levels{Normal: 100, Hard: 1000},
		// rating's anchors.go says how these were measured.
		Anchors: map[string]float64{"random": -15.22, "easy": 34.67, "normal": 37.73, "hard": 36.24},
		Look:    game.Look{Title: "Limits", Round: "round", Screen: "limits.js"},
		Trials:  []game.Trial{{Configs: game.Configs(MinPlayers, MaxPlayers)}},
		Reasons: Reasons(),
	}
}
