package bot

import "tapis/game"

// Evaluator values a search's leaves (Search.Leaf): asked before each
// move of a playout, with how many moves the playout has played, it may
// end the playout there, setting r to each seat's reward in [0, 1] as the
// game's value would. It sees only the world the iteration drew from the
// searching seat's knowledge, as the playout does.
type Evaluator interface {
	Evaluate(st game.State, played int, r *[game.MaxPlayers]float64) bool
}
