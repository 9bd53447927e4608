package bot

import "tapis/game"

// Perfect-information Monte Carlo (PIMC: Ginsberg's GIB in bridge,
// Sturtevant's Hearts player; Long, Sturtevant, Buro & Furtak 2010 on
// when it works): draw worlds from the seat's knowledge, search each as if
// its cards were known, and play the move the worlds' searches favour
// together. Each world's search is the cheating bot's, the same tree
// search on a state whose every card it sees, here a world the seat's
// knowledge drew rather than the true state: so the bot stays honest, its
// worlds being samples (or the belief pool's, when it weighs them), and
// no second search is written for it. A world's search shares the
// searching seat's later choices with nothing else, so it may plan them
// on cards it could not know (strategy fusion); PIMC's bet is that in
// trick-taking games, where what is hidden shows itself quickly and the
// worlds agree on most of a move's worth, that costs less than the noise
// a shared tree pays for mixing every world into each of its nodes. In
// Papayoo it came out even: as strong as the single tree at the same CPU
// (docs/bots.md, PIMC), so no level uses it.

// pimc is a PIMC search's scratch space for one decision.
type pimc struct {
	worlds []game.State
	score  []float64 // per move of the search's legal, its worlds' votes
}

// choosePIMC chooses among p.legal by PIMC: the search's iterations are
// shared out among p.Worlds worlds drawn from k, each searched with its
// cards seen, its root trying every move, and a move is worth the mean
// over the worlds of the best reward any of its world's iterations
// brought through it (a world is a deterministic problem where the other
// seats play the game's policy: its best line found is what the move can
// reach there, as a perfect-information solver would say). The prior's
// choice is credited with priorTie a world, which only settles ties (two
// cards that both lose the trick are often worth the same).
func (p *Search) choosePIMC(k game.Knowledge, prior game.Move, hasPrior bool) game.Move {
	me := k.Seat()
	total := p.iterations(k.Players())
	worlds := min(p.Worlds, total)
	// Every world is drawn first, from the belief pool when the search
	// filled one: the worlds' searches then play their own world only.
	x := &p.pimc
	x.worlds = x.worlds[:0]
	for range worlds {
		x.worlds = append(x.worlds, p.sample(k))
	}
	p.worlds.pool, p.worlds.cum = p.worlds.pool[:0], p.worlds.cum[:0]
	x.score = append(x.score[:0], make([]float64, len(p.legal))...)
	p.openRoot = true
	for w, world := range x.worlds {
		n := total / worlds
		if w < total%worlds {
			n++
		}
		// Omniscient knowledge of a world the seat drew: its Sample is
		// the world itself, as the cheating bot's is the true state.
		p.grow(game.Omniscient(world, me), n)
		for e := p.nodes[0].edge; e >= 0; e = p.edges[e].next {
			ed := &p.edges[e]
			if ed.seat != me {
				continue
			}
			if i := index(p.legal, ed.move); i >= 0 {
				x.score[i] += ed.top
			}
		}
		x.worlds[w] = nil
	}
	p.openRoot = false
	if hasPrior {
		if i := index(p.legal, prior); i >= 0 {
			x.score[i] += priorTie * float64(worlds)
		}
	}
	best := 0
	for i, v := range x.score {
		if v > x.score[best] {
			best = i
		}
	}
	return p.legal[best]
}

// priorTie is the prior's credit a world in PIMC, in rewards (Papayoo's
// 0.002 is a fifth of a point): enough to settle a tie, never to outweigh
// a point the worlds' searches found. A larger one (0.01) played to the
// same share of the heuristics' points over 64 games, 53.8%.
const priorTie = 0.002

// index returns the position of m in moves, or -1.
func index(moves []game.Move, m game.Move) int {
	for i, x := range moves {
		if x == m {
			return i
		}
	}
	return -1
}

// DefaultWorlds is how many worlds a PIMC search (+pimc) draws a decision
// when its budget does not say.
var DefaultWorlds = 96

// perfectHere reports whether the game lets PIMC decide the seat's move
// now (game.Determinable); one sample tells, since the game judges from
// the seat's knowledge alone. It is drawn with a copy of the search's
// generator, which leaves the search's own draws as they were.
func (p *Search) perfectHere(k game.Knowledge) bool {
	r := p.rng
	d, ok := k.Sample(&r).(game.Determinable)
	return !ok || d.Determinable(k.Seat())
}
