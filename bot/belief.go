package bot

import (
	"math"
	"sort"

	"tapis/game"
)

// Belief-weighted sampling: in games whose states can say how likely the
// other seats' moves so far were under a model of them (game.Believer),
// a search draws its worlds from a pool of samples of its seat's
// knowledge, each weighted by that likelihood (sampling importance
// resampling), rather than taking every sample as equally likely. Only
// the seat's knowledge enters: the pool is samples, and a sample's
// likelihood reads the public moves and the sample's own guesses.

// beliefEps is the model's share of uniform play: a seat makes its
// playout policy's move with probability 1−beliefEps, else any legal
// move. Mixing keeps a world where someone played otherwise than the
// policy from counting for nothing (people are not the policy).
const beliefEps = 0.5

// beliefPool is how many samples the pool holds (at most, and no more
// than the search's iterations): the worlds an iteration's draw chooses
// among, by weight.
const beliefPool = 128

// worlds is a search's weighted pool of samples for one decision.
type worlds struct {
	pool []game.State
	cum  []float64 // cumulative weights, the last 1
}

// fill draws the pool from k with r and weighs it, and reports whether
// the game weighs its samples; when it does not, the pool is left empty
// and the search samples as before.
func (w *worlds) fill(k game.Knowledge, r *game.RNG, size int) bool {
	w.pool, w.cum = w.pool[:0], w.cum[:0]
	// The first draw is on a copy of r, kept only where the game weighs
	// its samples: elsewhere the search draws exactly as without belief.
	try := *r
	first := k.Sample(&try)
	if _, ok := first.(game.Believer); !ok {
		return false
	}
	*r = try
	w.pool = append(w.pool, first)
	for len(w.pool) < size {
		w.pool = append(w.pool, k.Sample(r))
	}
	top := math.Inf(-1)
	for _, st := range w.pool {
		ll := st.(game.Believer).Belief(k.Seat(), beliefEps)
		w.cum = append(w.cum, ll)
		top = math.Max(top, ll)
	}
	sum := 0.0
	for i, ll := range w.cum {
		sum += math.Exp(ll - top)
		w.cum[i] = sum
	}
	for i := range w.cum {
		w.cum[i] /= sum
	}
	return true
}

// draw returns a copy of a pool's world chosen by weight.
func (w *worlds) draw(r *game.RNG) game.State {
	u := float64(r.Uint64()>>11) / (1 << 53)
	i := sort.SearchFloat64s(w.cum, u)
	if i >= len(w.pool) {
		i = len(w.pool) - 1
	}
	return w.pool[i].Clone()
}

// sample is an iteration's world: from the belief pool when the search
// filled one for this decision, else a fresh sample of the seat's
// knowledge.
func (p *Search) sample(k game.Knowledge) game.State {
	if len(p.worlds.pool) > 0 {
		return p.worlds.draw(&p.rng)
	}
	st := k.Sample(&p.rng)
	if p.Blind && p.Cheat {
		st.Reseed(p.rng.Uint64())
	}
	return st
}

// believe fills the belief pool for a decision, when the search weighs
// its samples and may (not the cheating bot, whose one world is true),
// and empties it otherwise.
func (p *Search) believe(k game.Knowledge) {
	p.worlds.pool, p.worlds.cum = p.worlds.pool[:0], p.worlds.cum[:0]
	if p.Belief && !p.Cheat {
		// No more worlds than iterations: a small search would weigh
		// samples it never plays.
		size := beliefPool
		if p.Iterations > 0 {
			size = min(size, p.Iterations)
		}
		p.worlds.fill(k, &p.rng, size)
	}
}
