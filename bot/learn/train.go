package learn

import (
	"fmt"
	"math"

	"tapis/game"
	"tapis/games/papayoo"
)

// Settings are what a training run is made of; the same settings give
// the same weights, byte for byte.
type Settings struct {
	Seed uint64
	// Games is how many rounds of self-play the model learns from.
	Games int
}

// Committed are the settings papayoo.txt was trained with.
var Committed = Settings{Seed: 1, Games: 20000}

// explore is the chance that a self-play move is uniform among the legal
// ones rather than the playout policy's: the positions the search's
// playouts reach, and a few they would not.
const explore = 0.1

// ridge keeps the least-squares system well posed where a feature barely
// varies.
const ridge = 1e-3

// tables are the table sizes the self-play rounds cycle through: half of
// them at 4 players, the table the model is measured at, and every other
// size Papayoo allows.
var tables = [...]int{4, 3, 4, 5, 4, 6, 4, 7, 4, 8}

// Train learns a Papayoo model by self-play Monte Carlo regression: it
// plays rounds between copies of the game's playout policy (the
// heuristic's rules, with a uniform move now and then), and fits, by
// least squares, the points each seat took from each position of the
// play phase to the round's end against the position's features for that
// seat. One generator (math/rand/v2's PCG, seeded) drives everything and
// the sums are taken in play order, so the same settings give the same
// weights; every product is rounded before it is added (the float64
// conversions), so that no platform fuses the two into one instruction
// that rounds otherwise (Go allows it there, and arm64 does it).
func Train(set Settings) (*Model, error) {
	if set.Games < 1 {
		return nil, fmt.Errorf("learn: %d games", set.Games)
	}
	const nf = papayoo.FeatureCount
	xtx := make([]float64, nf*nf)
	xty := make([]float64, nf)
	rng := game.NewRNG(set.Seed)
	type row struct {
		f     [nf]float64
		seat  game.Seat
		taken int
	}
	var rows []row
	var buf []game.Move
	var f []float64
	for g := 0; g < set.Games; g++ {
		n := tables[g%len(tables)]
		st, err := papayoo.NewState(game.Config{Players: n, Seed: rng.Uint64(), Options: []byte(`{"rounds":1}`)})
		if err != nil {
			return nil, err
		}
		rows = rows[:0]
		for moves := 0; !st.Over(); moves++ {
			s := st.ToMove().First()
			// Every other position: the next one says nearly the same,
			// and the sums cost the square of the features a row.
			for t := 0; t < n && moves%2 == 0; t++ {
				var ok bool
				if f, ok = st.Features(game.Seat(t), f[:0]); !ok {
					break // the pass: no position to learn from yet
				}
				r := row{seat: game.Seat(t), taken: st.Taken(game.Seat(t))}
				copy(r.f[:], f)
				rows = append(rows, r)
			}
			var m game.Move
			if buf = st.Legal(s, buf[:0]); len(buf) > 1 && rng.IntN(1000) < explore*1000 {
				m = buf[rng.IntN(len(buf))]
			} else {
				m = st.RolloutMove(&rng, buf[:0])
			}
			if err := st.Apply(s, m, nil); err != nil {
				return nil, fmt.Errorf("learn: self-play: %v", err)
			}
		}
		scores := st.Result().Scores
		for i := range rows {
			r := &rows[i]
			y := float64(scores[r.seat]-r.taken) / 100
			for a := 0; a < nf; a++ {
				xty[a] += float64(r.f[a] * y)
				for b := a; b < nf; b++ {
					xtx[a*nf+b] += float64(r.f[a] * r.f[b])
				}
			}
		}
	}
	for a := 0; a < nf; a++ {
		xtx[a*nf+a] += ridge
		for b := 0; b < a; b++ {
			xtx[a*nf+b] = xtx[b*nf+a]
		}
	}
	w, err := solve(xtx, xty, nf)
	if err != nil {
		return nil, err
	}
	return &Model{
		Header: []string{
			fmt.Sprintf("tapis train --game papayoo --seed %d --games %d", set.Seed, set.Games),
			"Papayoo's leaf evaluator (bot/learn): the points a seat will still take this round, in hundreds,",
			"as the dot product of these weights with its features (games/papayoo/features.go), one a line.",
		},
		Weights: w,
	}, nil
}

// solve solves the n×n system a·x = y (a row-major, changed in place) by
// Gaussian elimination with partial pivoting.
func solve(a, y []float64, n int) ([]float64, error) {
	x := append([]float64(nil), y...)
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r*n+c]) > math.Abs(a[p*n+c]) {
				p = r
			}
		}
		if a[p*n+c] == 0 {
			return nil, fmt.Errorf("learn: feature %d never varies", c)
		}
		if p != c {
			for k := 0; k < n; k++ {
				a[c*n+k], a[p*n+k] = a[p*n+k], a[c*n+k]
			}
			x[c], x[p] = x[p], x[c]
		}
		for r := c + 1; r < n; r++ {
			k := a[r*n+c] / a[c*n+c]
			for j := c; j < n; j++ {
				a[r*n+j] -= float64(k * a[c*n+j])
			}
			x[r] -= float64(k * x[c])
		}
	}
	for c := n - 1; c >= 0; c-- {
		for j := c + 1; j < n; j++ {
			x[c] -= float64(a[c*n+j] * x[j])
		}
		x[c] /= a[c*n+c]
	}
	return x, nil
}
