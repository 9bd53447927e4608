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
// apart, hard closes as much of the gap to the cheating bot (the same
// search seeing every card) as a move's cost allows, and a hard move
// costs at most some 20 ms of one core (issue 27). A game whose playouts
// cost more at larger tables (Cabo, Da Capo!: about twice the CPU an
// iteration at 4 players as at 2) says at which size its Hard is meant
// (HardSeats), and hard searches Hard*HardSeats/n iterations at n seats
// above it, so that a move costs about the same at every size.
//
// Cabo's hard searches 3,000 iterations a move at 2 players (1,500 at
// 4), Da Capo!'s 2,000 a whole turn (1,000 at 4): Cabo 15.4 CPU ms a
// move at 2 players and 12.9 at 4, Da Capo! 14.2 and 11.1, on 2 shared
// cores at load 8 (2026-11-27; before, 1,000 and 1,600 at every size:
// 5.1 and 9.7, 11.1 and 19.3). At 2 players Cabo's closes 83% [76%,
// 90%] of the gap to the cheating bot at the same budget, Da Capo!'s
// only 56% [40%, 72%]; docs/bots.md, Budgets by table size, has the
// runs:
//
//	tapis sim --game G --players 2 --bots hard@N,easy --duplicate --games 256 --seed 1 --workers 1
//	tapis sim --game G --players 2 --bots cheat@N,easy --duplicate --games 256 --seed 1 --workers 1
//	tapis sim --levels-table --game G --games 256 --seed 1 --workers 1
//	go test ./bot -run XXX -bench 'Levels/.*/.*/hard' -benchtime 200x   (cpu-ms/move)
//
// Earlier budgets (2026-11-24, hard@N against the heuristic, rotated,
// 2 players): Cabo hard@1000 78.0% [71.8%, 83.2%], Limits 97.2% (and
// 66.2% against hard@100), Da Capo! 66.7% [58.8%, 73.7%]; Papayoo, 4
// players: win share 49.8% [42.9%, 56.6%] against three heuristics.
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
