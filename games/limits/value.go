package limits

import (
	"math"

	"tapis/game"
)

// Rounds implements game.Valuer: the accusations resolved so far.
func (st *State) Rounds() int { return st.rounds }

// roundSwing is how far one round moves the score difference of two
// players when one of them takes the limit card: -2 for one, +1 for the
// other.
const roundSwing = 3

// Value implements game.Valuer: seat s's chance to win from the public
// scores, the rest of the game taken as rounds that each player wins or
// loses with even chances. With 2 players it is the exact binomial
// chance that the score difference ends positive (a tie counts half);
// with more, a smooth guess from the gap to the best other seat.
func (st *State) Value(s game.Seat) float64 {
	n := int(st.n)
	if st.phase == phaseOver {
		if !st.winners.Has(s) {
			return 0
		}
		return 1 / float64(st.winners.Len())
	}
	left := int(st.nLimits) + 1 // the round turned up counts
	best := math.MinInt
	for t := 0; t < n; t++ {
		if game.Seat(t) != s {
			best = max(best, st.Score(game.Seat(t)))
		}
	}
	d := st.Score(s) - best
	if n == 2 {
		return binomialWin(d, left)
	}
	// Each round, some seat gains 1 and another loses 2: spread the
	// uncertainty of the rounds left over the gap, and share the win
	// among the seats.
	sd := roundSwing * math.Sqrt(float64(left)*2/float64(n))
	return 1 / (1 + math.Exp(-1.7*float64(d)/sd)) // logistic ~ normal
}

// binomialWin is the chance that a score difference d, moved by ±3 in
// each of `left` fair rounds, ends above 0, a tie counting half.
func binomialWin(d, left int) float64 {
	if left > len(binom)-1 {
		left = len(binom) - 1
	}
	p := 0.0
	for k := 0; k <= left; k++ {
		end := d + roundSwing*(2*k-left)
		switch {
		case end > 0:
			p += binom[left][k]
		case end == 0:
			p += binom[left][k] / 2
		}
	}
	return p
}

// binom[n][k] is C(n, k)/2^n.
var binom = func() (b [LimitCards + 1][LimitCards + 1]float64) {
	for n := range b {
		b[n][0] = 1
		for k := 1; k <= n; k++ {
			b[n][k] = b[n-1][k-1]
			if k < n {
				b[n][k] += b[n-1][k]
			}
		}
	}
	for n := range b {
		for k := 0; k <= n; k++ {
			b[n][k] /= math.Ldexp(1, n)
		}
	}
	return b
}()
