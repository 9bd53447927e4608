package bot

import "tapis/game"

// Budget is the search levels' fixed number of iterations a move in one
// game. A level is a number of iterations, not a time: the same seed then
// plays the same moves on any machine and under any load, its strength is
// the one measured, and its cost is bounded (a time budget would take
// every core it is given: 1 s a move was about 100 times the budgets its
// strength was measured at).
//
// Each game registers its budgets (game.Entry's Levels, in the game's
// register.go), chosen from strength measured against budget (docs/bots.md,
// Levels' budgets), so that hard plays at least as well as normal and
// normal as easy (the heuristic) where the measurement can tell them
// apart, and a hard move costs a few milliseconds of one core (Da Capo!,
// the dearest, 10 to 16 at 1,600 iterations a whole turn: hard plans
// turns there, and searches once a turn rather than once a move):
//
//	tapis sim --game G --players 2 --bots hard@N,heuristic --games 200 --seed 1 --rotate
//	    (Papayoo: --players 4 --bots hard@N,heuristic,heuristic,heuristic;
//	    Da Capo!: 150 games; Limits, where every N from 30 on beats the
//	    heuristic, also --bots hard@1000,hard@100 and the like)
//	go test ./bot -run XXX -bench Levels -benchtime 200x   (ms a move)
//
// measured on 2026-11-24 for N = 30 to 1,000. Hard against the heuristic,
// 2 players: Cabo 78.0% [71.8%, 83.2%], Limits 97.2% (and 66.2% against
// hard@100), Da Capo! 66.7% [58.8%, 73.7%]; Papayoo, 4 players: win share
// 49.8% [42.9%, 56.6%] against three heuristics.
type Budget = game.Levels

// DefaultBudget is the budget of a game that registers none.
var DefaultBudget = Budget{Normal: 300, Hard: 1000}

// Budgets returns g's level budgets: its registration's, or DefaultBudget.
func Budgets(g game.Game) Budget {
	if e, ok := game.EntryOf(g); ok && e.Levels != (Budget{}) {
		return e.Levels
	}
	return DefaultBudget
}

// LevelBudget returns the iterations a move of search level ("normal",
// "hard") plays with in g, and false for another level.
func LevelBudget(g game.Game, level string) (int, bool) {
	b := Budgets(g)
	switch level {
	case "normal":
		return b.Normal, true
	case "hard", "cheat":
		return b.Hard, true
	}
	return 0, false
}
