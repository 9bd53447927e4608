package rating

import (
	"errors"
	"fmt"
	"math"
)

// Update rates one game: ratings[i] finished at ranks[i], where a smaller
// rank is a better place (0 is first) and equal ranks are a tie. Only the
// order of the ranks matters, not their values. It returns the new
// ratings in the same order and leaves its arguments alone.
//
// It refuses fewer than two players, slices of different lengths, and a
// Mu or Sigma that is not finite or a negative Sigma.
func Update(ratings []Rating, ranks []int) ([]Rating, error) {
	return UpdateFixed(ratings, ranks, nil)
}

// UpdateFixed is Update with anchors: a player whose fixed[i] is true
// (a bot whose scale must not drift with the people it plays) keeps its
// rating, but still counts as an opponent exactly as it would in Update,
// so the others' results are the same as if it had been rated too. A nil
// fixed fixes no one; otherwise it must be as long as ratings.
func UpdateFixed(ratings []Rating, ranks []int, fixed []bool) ([]Rating, error) {
	if len(ratings) < 2 {
		return nil, fmt.Errorf("rating: %d players, a game needs at least 2", len(ratings))
	}
	if len(ranks) != len(ratings) {
		return nil, fmt.Errorf("rating: %d ranks for %d players", len(ranks), len(ratings))
	}
	if fixed != nil && len(fixed) != len(ratings) {
		return nil, fmt.Errorf("rating: %d fixed flags for %d players", len(fixed), len(ratings))
	}
	teams := make([][]Rating, len(ratings))
	for i, r := range ratings {
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("rating: player %d: %w", i, err)
		}
		teams[i] = ratings[i : i+1 : i+1]
	}
	rated := rateTeams(defaultModel, teams, ranks)
	out := make([]Rating, len(ratings))
	for i := range out {
		if fixed != nil && fixed[i] {
			out[i] = ratings[i]
			continue
		}
		out[i] = rated[i][0]
	}
	return out, nil
}

var (
	errNotFinite     = errors.New("mu or sigma is not a finite number")
	errNegativeSigma = errors.New("sigma is negative")
)

func (r Rating) check() error {
	if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || math.IsNaN(r.Sigma) || math.IsInf(r.Sigma, 0) {
		return errNotFinite
	}
	if r.Sigma < 0 {
		return errNegativeSigma
	}
	return nil
}

// model holds the parameters the maths takes. The package uses only
// defaultModel; the tests also check the maths against published numbers
// made with other settings.
type model struct {
	beta, kappa, tau float64
}

var defaultModel = model{beta: Beta, kappa: Kappa, tau: Tau}

// rateTeams is Weng and Lin's Algorithm 4 (Plackett–Luce). It is written
// for teams, as the paper is, because a team's sums are where the
// formulas come from and because the published test numbers use teams;
// Update only ever passes teams of one. A team's skill is the sum of its
// players' means with the sum of their variances; a smaller rank is a
// better place; equal ranks tie.
//
// Ties are not in the paper: as OpenSkill does, the teams tied at a place
// share it, each of the A_q of them counting 1/A_q of that place's term.
func rateTeams(m model, teams [][]Rating, ranks []int) [][]Rating {
	k := len(teams)
	mu := make([]float64, k)
	var2 := make([]float64, k) // a team's σ², after τ
	sumC := 0.0
	for i, team := range teams {
		for _, p := range team {
			mu[i] += p.Mu
			var2[i] += p.Sigma*p.Sigma + m.tau*m.tau
		}
		sumC += var2[i] + m.beta*m.beta
	}
	c := math.Sqrt(sumC)

	// e[i] = exp(μ_i / c), scaled by exp(−max μ / c): every probability
	// below is a ratio of these, so the scale cancels, and it keeps the
	// exponentials finite however far apart the means are.
	maxMu := mu[0]
	for _, x := range mu {
		maxMu = math.Max(maxMu, x)
	}
	e := make([]float64, k)
	for i := range e {
		e[i] = math.Exp((mu[i] - maxMu) / c)
	}
	// For each team q: the sum of e over the teams that did not beat it
	// (C_q in the paper) and A_q, how many teams share its place.
	sumQ := make([]float64, k)
	share := make([]float64, k)
	for q := range teams {
		for s := range teams {
			if ranks[s] >= ranks[q] {
				sumQ[q] += e[s]
			}
			if ranks[s] == ranks[q] {
				share[q]++
			}
		}
	}

	out := make([][]Rating, k)
	for i, team := range teams {
		// Ω_i moves the mean, Δ_i shrinks the variance: sums over the
		// places q at or above team i's of how surprising it was that i
		// was not the one to take place q (p̂ is the model's probability
		// that i would have).
		omega, delta := 0.0, 0.0
		for q := range teams {
			if ranks[q] > ranks[i] {
				continue
			}
			p := e[i] / sumQ[q]
			if q == i {
				omega += (1 - p) / share[q]
			} else {
				omega -= p / share[q]
			}
			delta += p * (1 - p) / share[q]
		}
		omega *= var2[i] / c
		gamma := math.Sqrt(var2[i]) / c // the paper's default γ_i = σ_i / c
		delta *= gamma * var2[i] / (c * c)

		out[i] = make([]Rating, len(team))
		for j, p := range team {
			pv := p.Sigma*p.Sigma + m.tau*m.tau
			w := pv / var2[i] // the player's share of the team's variance
			out[i][j] = Rating{
				Mu:    p.Mu + w*omega,
				Sigma: math.Sqrt(pv * math.Max(1-w*delta, m.kappa)),
			}
		}
	}
	return out
}
