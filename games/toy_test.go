package games_test

import (
	"tapis/game"
	"tapis/game/gametest"
)

// toy is a fifth game, registered as docs/games.md says a new game is:
// its engine (here gametest.Toy, in a real game games/toy/toy.go and its
// other rule files) and its Entry (games/toy/register.go), then one line
// in games/games.go, which a test stands in for with registeredAndToy.
type toy struct{ gametest.Toy }

// Entry is the toy's registration: everything Tapis knows about it.
func (toy) Entry() game.Entry {
	return game.Entry{
		Game:    toy{},
		Levels:  game.Levels{Normal: 20, Hard: 50},
		Anchors: map[string]float64{"random": 0, "easy": 20, "normal": 25, "hard": 30},
		Look:    game.Look{Title: "Toy", Scoring: "high", Round: "round"},
		Trials:  []game.Trial{{Games: 100, Configs: game.Configs(2, 4)}},
		Reasons: []string{game.ReasonNotYourTurn, game.ReasonBadMove, game.ReasonUnreadable, game.ReasonBadPlayers, game.ReasonBadOptions},
	}
}
