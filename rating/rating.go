// Package rating estimates players' skill from the order they finish in,
// with the Bayesian approximation of Weng and Lin ("A Bayesian
// Approximation Method for Online Ranking", JMLR 12, 2011), Algorithm 4:
// the Plackett–Luce model, the one OpenSkill recommends.
//
// A player's skill is a normal belief: Mu is its mean, Sigma its standard
// deviation. Each game moves the means towards what the finishing order
// says and shrinks the deviations. The package is pure: no I/O, no clock,
// no state beyond its constants.
package rating

import "math"

// The model's parameters, OpenSkill's defaults.
const (
	// DefaultMu is a new player's mean skill.
	DefaultMu = 25.0
	// DefaultSigma is a new player's uncertainty: a third of DefaultMu, so
	// a new player's conservative value Mu − 3·Sigma is zero.
	DefaultSigma = DefaultMu / 3
	// Beta is the spread of one game's performance around a skill: the
	// paper's β, half of DefaultSigma.
	Beta = DefaultSigma / 2
	// Kappa is the paper's κ: the least factor by which one game may
	// shrink a variance, so that Sigma stays positive.
	Kappa = 0.0001
	// Tau is added to every updating player's Sigma before each game, in
	// quadrature (σ' = √(σ² + τ²)), as OpenSkill does: skills drift, so
	// certainty must not grow forever and a rating never freezes.
	Tau = DefaultMu / 300
)

// ProvisionalSigma is the Sigma below which a rating is no longer
// provisional.
//
// Early on, a rating's conservative value Mu − 3·Sigma rises after almost
// any game, even a loss, because Sigma falls faster than Mu: a table
// should mark such ratings as provisional rather than rank them. 2.5 is
// where the conservative value has settled: by then Sigma has lost 70% of
// its starting 25/3, and a loss lowers Display. In a stream of 4-player
// games against the same field (TestProvisionalGames simulates it) a new
// player's Sigma falls below it after about 25 games, a number of games
// a regular reaches in a few evenings and a one-off visitor does not.
const ProvisionalSigma = 2.5

// Rating is a player's skill estimate: a normal belief with mean Mu and
// standard deviation Sigma.
type Rating struct {
	Mu, Sigma float64
}

// New returns a new player's rating: DefaultMu, DefaultSigma.
func New() Rating {
	return Rating{Mu: DefaultMu, Sigma: DefaultSigma}
}

// Ordinal is the conservative estimate Mu − 3·Sigma: the player is better
// than this with about 99.9% belief. It is what rankings should sort by,
// so that a lucky newcomer does not top a table after one game.
func (r Rating) Ordinal() float64 {
	return r.Mu - 3*r.Sigma
}

// Display is the number shown to people: 1500 + 24·Ordinal, rounded. A new
// player shows 1500 (25 − 3·25/3 = 0), and the scale's steps look like the
// familiar Elo-style numbers.
func (r Rating) Display() int {
	return int(math.Round(1500 + 24*r.Ordinal()))
}

// Provisional reports whether the rating is still too uncertain to rank:
// Sigma is not yet below ProvisionalSigma.
func (r Rating) Provisional() bool {
	return !(r.Sigma < ProvisionalSigma)
}
