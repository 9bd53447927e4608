// Package bot holds the players that act only on what their seat is told:
// a uniform random player, the games' heuristic players, the search player
// built on them, and the driver that plays a whole game between them.
package bot

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"tapis/bot/learn"
	"tapis/game"
)

// Names are the bots New knows. The search levels (normal, hard, and the
// cheating reference) search the game's fixed number of iterations a move
// (Budgets); a search bot's name may end in @N for another budget of N
// iterations (hard@2000) or @D for a duration (hard@300ms), for
// measurement, and normal's and hard's may say +belief or -belief before
// it (hard+belief@1000) to weigh their samples or not (bot/belief.go), or
// +learn (hard+learn) to value playouts early with the game's learned
// evaluator (bot/learn), or +pimc (hard+pimc@96x32) to search worlds
// drawn from its knowledge one by one (bot/pimc.go). And a level may
// end in +Lpass (hard+cheatpass) or +LN (cheat+hard5) for another bot L
// at Papayoo's pass (and its first N tricks: bot/phased.go), for
// measurement; cheat-future is the cheat blind to the future (Search.Blind:
// the dice still to roll, Da Capo!'s cards face down); and hard-plans (cheat-plans) searches single moves where
// the game lists whole turns (hard-plans: Papayoo's pass card by card, as
// hard did before it judged whole passes flat). +flat (normal+flat) judges
// the game's plans flat where it says a decision may not be determinized
// yet, as hard does (bot/flat.go).
var Names = []string{"random", "heuristic", "easy", "normal", "hard", "cheat"}

// Offered are the bots a table may seat: the levels, from weakest. The
// cheating reference bot is not among them.
var Offered = []string{"random", "easy", "normal", "hard"}

// priorShare is the prior's weight in the search levels' decision.
const priorShare = 0.1

// New returns the bot called name for seat s of game g.
func New(g game.Game, name string, s game.Seat, seed uint64) (game.Player, error) {
	if p, ok, err := newPhased(g, name, s, seed); ok {
		return p, err
	}
	base, budget, hasBudget := strings.Cut(name, "@")
	// A search level's name may also say whether it weighs its samples
	// (hard+belief, hard-belief), for measurement; without, it does not.
	// It may also say +learn (hard+learn): its playouts then stop early
	// and are valued by the game's learned evaluator (bot/learn), where
	// the game has one.
	// And +pimc (hard+pimc): perfect-information Monte Carlo over worlds
	// drawn from its knowledge (bot/pimc.go), its budget then also
	// written worlds×iterations a world (hard+pimc@16x125).
	// Hard and the cheat may say -plans (hard-plans, cheat-future-plans):
	// they then search single moves where the game lists whole turns, as
	// normal does.
	noPlans := false
	if b, ok := strings.CutSuffix(base, "-plans"); ok && (b == "hard" || b == "cheat" || b == "cheat-future") {
		base, noPlans = b, true
	}
	// The cheat may say -future (cheat-future): its worlds then redraw
	// the future randomness, the dice still to roll (Search.Blind).
	blind := false
	if b, ok := strings.CutSuffix(base, "-future"); ok && b == "cheat" {
		base, blind = b, true
	}
	belief, hasBelief, learned, perfect := false, false, false, false
	flat := false
	for _, sfx := range []string{"+flat", "+pimc", "+learn", "+belief", "-belief"} {
		if b, ok := strings.CutSuffix(base, sfx); ok {
			base = b
			switch sfx {
			case "+flat":
				flat = true
			case "+learn":
				learned = true
			case "+pimc":
				perfect = true
			default:
				belief, hasBelief = sfx[0] == '+', true
			}
		}
	}
	if (hasBelief || learned || perfect || flat) && base != "normal" && base != "hard" {
		return nil, fmt.Errorf("bot: %q: only normal and hard take +belief, -belief, +learn, +pimc or +flat", name)
	}
	switch base {
	case "random":
		if !hasBudget {
			return NewRandom(seed), nil
		}
	case "heuristic", "easy":
		if hasBudget {
			break
		}
		if h, ok := g.(game.HeuristicGame); ok {
			return h.Heuristic(s, seed), nil
		}
		return nil, fmt.Errorf("bot: %s has no heuristic bot yet", g.Name())
	case "normal", "hard", "cheat":
		n, _ := LevelBudget(g, base)
		p := NewSearch(n, 0, seed)
		p.Cheat = base == "cheat"
		p.Blind = blind
		if base != "normal" {
			// Fewer iterations at larger tables, where each costs more,
			// in games that say so (game.Levels' HardSeats); not for a
			// budget given by name, a measurement's.
			p.Seats = Budgets(g).HardSeats
			// And more where the game says a decision cannot be
			// determinized yet (game.Levels' HardEarly: Papayoo's pass).
			p.Early = Budgets(g).HardEarly
		}
		// Hard (and the cheating bot, its measure) plans whole turns in
		// games that list them; normal searches single moves.
		p.Plans = base != "normal" && !noPlans || flat
		// And hard judges them flat where the game says a decision may
		// not be determinized yet (Papayoo's whole passes, bot/flat.go):
		// 52.0% of the heuristics' points where searching the pass card
		// by card took 59.6% (docs/bots.md, Whole passes judged flat).
		// The cheat, the measure, searches there card by card as before.
		p.Flat = flat || base == "hard" && !noPlans
		// No level weighs its samples by default: in Papayoo, the one game
		// whose states can (game.Believer), hard with belief-weighted
		// sampling played as hard without, within a point of the
		// heuristics' share and of the wins over 100 deals (docs/bots.md,
		// Belief-weighted sampling); plain samples assume nothing of how
		// people play.
		p.Belief = hasBelief && belief
		if learned {
			if leaf := learn.For(g.Name()); leaf != nil {
				p.Leaf = leaf
			}
		}
		if perfect {
			p.Worlds = DefaultWorlds
		}
		if hasBudget {
			p.Seats, p.Early = 0, 0
			if err := p.budget(budget); err != nil {
				return nil, fmt.Errorf("bot: %q: %v", name, err)
			}
			if p.Worlds > 0 && p.Iterations == 0 {
				return nil, fmt.Errorf("bot: %q: PIMC takes iterations, not a duration", name)
			}
		}
		if h, ok := g.(game.HeuristicGame); ok {
			// The prior gets its own seed so that it does not share the
			// search's random stream.
			p.Prior, p.PriorShare = h.Heuristic(s, seed^0x5bd1e995), priorShare
		}
		return p, nil
	}
	if hasBudget {
		return nil, fmt.Errorf("bot: %q: only search bots (normal, hard, cheat) take a budget", name)
	}
	return nil, fmt.Errorf("bot: unknown bot %q (have %v)", name, Names)
}

// budget sets the search's budget from "2000" (iterations) or "300ms",
// or for PIMC "16x125" (16 worlds of 125 iterations each).
func (p *Search) budget(b string) error {
	if w, per, ok := strings.Cut(b, "x"); ok && p.Worlds > 0 {
		nw, err1 := strconv.Atoi(w)
		np, err2 := strconv.Atoi(per)
		if err1 != nil || err2 != nil || nw < 1 || np < 1 {
			return fmt.Errorf("budget %q is not worlds×iterations (16x125)", b)
		}
		p.Worlds, p.Iterations = nw, nw*np
		return nil
	}
	if n, err := strconv.Atoi(b); err == nil {
		if n < 1 {
			return fmt.Errorf("a budget of %d iterations", n)
		}
		p.Iterations = n
		return nil
	}
	d, err := time.ParseDuration(b)
	if err != nil || d <= 0 {
		return fmt.Errorf("budget %q is neither iterations (2000) nor a duration (300ms)", b)
	}
	p.Iterations, p.Time = 0, d
	return nil
}

// Restarter is a Player that can sit down to a new game: after
// Restart(seed) it plays exactly as the bot New would make for the same
// game, seat and seed, but keeps the memory it has, so that a driver of
// many games need not allocate new bots for each.
type Restarter interface {
	game.Player
	Restart(seed uint64)
}

// Random chooses uniformly among the legal moves.
type Random struct {
	rng game.RNG
	buf []game.Move
}

// randomBuf is the capacity a random player's move buffer starts with:
// more than any game's legal moves (Cabo, 5 players: 80), so that the
// buffer never grows while a game is played.
const randomBuf = 128

// NewRandom returns a random player seeded with seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: game.NewRNG(seed), buf: make([]game.Move, 0, randomBuf)}
}

// Restart implements Restarter.
func (r *Random) Restart(seed uint64) { r.rng = game.NewRNG(seed) }

// Observe implements game.Player; a random player remembers nothing.
func (r *Random) Observe(game.Event) {}

// Deaf implements game.Deaf: a random player needs no event.
func (r *Random) Deaf() bool { return true }

// Choose implements game.Player.
func (r *Random) Choose(k game.Knowledge) game.Move {
	r.buf = k.Legal(r.buf[:0])
	return r.buf[r.rng.IntN(len(r.buf))]
}
