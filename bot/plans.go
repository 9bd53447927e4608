package bot

import (
	"math"

	"tapis/game"
)

// planned is the rest of the plan a search chose earlier in its seat's
// turn: moves[at:] are still to play, and keys[i] is what the seat was
// to know (game.Keyer) before moves[i+1].
type planned struct {
	moves []game.Move
	keys  []uint64
	at    int
}

// next returns the plan's next move when the seat's knowledge is what
// the plan expected there (it always is, since a plan stops where the
// seat would learn something; the check guards against a table that
// moved on otherwise), and forgets the plan if not.
func (pl *planned) next(k game.Knowledge) (game.Move, bool) {
	if pl.at == 0 || pl.at >= len(pl.moves) {
		pl.at = 0
		return 0, false
	}
	// Any sample will do: the key is of what the seat knows. A fixed
	// generator keeps the search's own draws as they were.
	r := game.NewRNG(1)
	keyer, ok := k.Sample(&r).(game.Keyer)
	m := pl.moves[pl.at]
	if !ok || keyer.InfoKey(k.Seat()) != pl.keys[pl.at-1] || !game.Contains(k.Legal(nil), m) {
		pl.at = 0
		return 0, false
	}
	pl.at++
	return m, true
}

// choosePlan searches the game's plans for the seat's turn (game.Planner)
// and returns the first move of the best, keeping the rest for the next
// choices; false when the game lists no plans here.
func (p *Search) choosePlan(k game.Knowledge) (game.Move, bool) {
	root, plan, count := p.plans(k)
	if count == 0 {
		return 0, false
	}
	me := k.Seat()
	best := 0
	if count > 1 {
		visits := make([]float64, count)
		reward := make([]float64, count)
		p.c = p.C
		n := p.run(p.iterations(k.Players()), func(n int) {
			st := p.sample(k)
			if x, ok := st.(game.Explorer); ok {
				p.c = x.Exploration()
			}
			end := newBound(st, p.Horizon)
			i := p.pickPlan(n, visits, reward)
			for _, m := range plan(i) {
				p.apply(st, me, m)
			}
			rw := p.playout(st, &end)
			visits[i]++
			reward[i] += rw[me]
		})
		// The first plan is the playout policy's, the game's own idea of
		// a good turn: it is credited as the prior's choice is.
		most := -1.0
		for i, v := range visits {
			if i == 0 {
				v += p.PriorShare * float64(n)
			}
			if v > most {
				best, most = i, v
			}
		}
	}
	return p.keepPlan(root, me, plan(best)), true
}

// plans lists the game's plans for the seat of k (game.Planner) from a
// sample drawn with a copy of the search's generator: the sample, plan(i)
// the moves of plan i, and how many there are (0 where the game lists
// none).
func (p *Search) plans(k game.Knowledge) (root game.State, plan func(i int) []game.Move, count int) {
	r := p.rng
	root = k.Sample(&r)
	pl, ok := root.(game.Planner)
	if !ok {
		return root, nil, 0
	}
	var ends []int
	p.buf, ends = pl.Plans(k.Seat(), p.buf[:0], nil)
	moves := append([]game.Move(nil), p.buf...)
	plan = func(i int) []game.Move {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		return moves[start:ends[i]]
	}
	return root, plan, len(ends)
}

// keepPlan keeps the chosen plan's moves after its first, with what the
// seat is to know before each (game.Keyer: played on root, a sample of
// its knowledge), for the next choices of the turn; it returns the first.
func (p *Search) keepPlan(root game.State, me game.Seat, chosen []game.Move) game.Move {
	p.plan.moves = append(p.plan.moves[:0], chosen...)
	p.plan.keys = p.plan.keys[:0]
	p.plan.at = 0
	if keyer, ok := root.(game.Keyer); ok && len(chosen) > 1 {
		for _, m := range chosen[:len(chosen)-1] {
			p.apply(root, me, m)
			p.plan.keys = append(p.plan.keys, keyer.InfoKey(me))
		}
		p.plan.at = 1
	}
	return chosen[0]
}

// pickPlan chooses the plan of iteration n: each in turn once, then by
// UCB (every plan is playable in every drawn state).
func (p *Search) pickPlan(n int, visits, reward []float64) int {
	if n < len(visits) {
		return n
	}
	best, score := 0, math.Inf(-1)
	logN := math.Log(float64(n))
	for i, v := range visits {
		u := reward[i]/v + p.c*math.Sqrt(logN/v)
		if u > score {
			best, score = i, u
		}
	}
	return best
}
