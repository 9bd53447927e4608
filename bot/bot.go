// Package bot holds the players that act only on what their seat is told:
// a uniform random player, the games' heuristic players, and the driver
// that plays a whole game between them.
package bot

import (
	"fmt"

	"tapis/game"
)

// Names are the bots New knows.
var Names = []string{"random", "heuristic"}

// New returns the bot called name for seat s of game g.
func New(g game.Game, name string, s game.Seat, seed uint64) (game.Player, error) {
	switch name {
	case "random":
		return NewRandom(seed), nil
	case "heuristic":
		if h, ok := g.(game.HeuristicGame); ok {
			return h.Heuristic(s, seed), nil
		}
		return nil, fmt.Errorf("bot: %s has no heuristic bot yet", g.Name())
	}
	return nil, fmt.Errorf("bot: unknown bot %q (have %v)", name, Names)
}

// Random chooses uniformly among the legal moves.
type Random struct {
	rng game.RNG
	buf []game.Move
}

// NewRandom returns a random player seeded with seed.
func NewRandom(seed uint64) *Random { return &Random{rng: game.NewRNG(seed)} }

// Observe implements game.Player; a random player remembers nothing.
func (r *Random) Observe(game.Event) {}

// Choose implements game.Player.
func (r *Random) Choose(k game.Knowledge) game.Move {
	r.buf = k.Legal(r.buf[:0])
	return r.buf[r.rng.IntN(len(r.buf))]
}
