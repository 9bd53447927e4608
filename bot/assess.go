package bot

import "tapis/game"

// Assess estimates, for the seat of k, the value of each of moves (legal
// for it) from its knowledge alone: each of samples states drawn from that
// knowledge is played on after each move by the game's playout policy to
// the search's bound (a round's end, a horizon, the game's end) and valued
// as the search values its leaves (game.Valuer, else the result), from 0
// (a certain loss) to 1 (a certain win). It is a flat Monte Carlo search
// with common random numbers: every move is tried on the same drawn
// states with the same playout randomness, so that the differences
// between moves, which post-game analysis and the coach report, are
// measured on the same deals rather than drowned in their luck.
//
// Its values are deterministic for a seed. It appends them to vals, one a
// move in order, and returns it; yield, if not nil, is called between
// samples (a host running it beside people's moves passes
// runtime.Gosched, as Search.Yield).
func Assess(k game.Knowledge, moves []game.Move, samples int, seed uint64, yield func(), vals []float64) []float64 {
	start := len(vals)
	for range moves {
		vals = append(vals, 0)
	}
	if samples < 1 {
		return vals
	}
	out := vals[start:]
	AssessSum(k, moves, 0, samples, seed, yield, out)
	for j := range out {
		out[j] /= float64(samples)
	}
	return vals
}

// AssessSum adds to sums[j] the values of moves[j] on samples from to to
// (exclusive) of Assess's: each sample is drawn from its own generator
// (from seed and its number), so that a caller may run a decision's
// samples in several short pieces, in any order, and get Assess's sums.
func AssessSum(k game.Knowledge, moves []game.Move, from, to int, seed uint64, yield func(), sums []float64) {
	if len(moves) == 0 {
		return
	}
	p := NewSearch(1, 0, seed)
	me := k.Seat()
	for i := from; i < to; i++ {
		if yield != nil && i > from {
			yield()
		}
		root, roll := commonWorld(k, seed, i)
		for j, m := range moves {
			st := root.Clone()
			end := newBound(st, p.Horizon)
			if err := st.Apply(me, m, nil); err != nil {
				panic("bot: assess: a legal move was refused: " + err.Error())
			}
			p.rng = game.NewRNG(roll)
			sums[j] += p.playout(st, &end)[me]
		}
	}
}

// commonWorld returns sample w of a decision's shared worlds, drawn
// from its own generator (from seed and w), and the seed of the
// playouts every candidate plays in it: the candidates are compared on
// the same worlds and the same luck (common random numbers), and a
// caller may draw the samples in any order.
func commonWorld(k game.Knowledge, seed uint64, w int) (game.State, uint64) {
	draw := game.NewRNG(seed ^ uint64(w+1)*0x9e3779b97f4a7c15)
	world := k.Sample(&draw)
	return world, draw.Uint64()
}
