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
// Mu − 3·Sigma climbs for a new player whatever their skill, because each
// game shrinks Sigma: early on even a third place of four raises it. The
// climb ends where τ balances what games teach, Sigma about 1.6 in a
// stream of 4-player games, and until then the conservative value
// understates a steady player by 3·(Sigma − 1.6). Below 4 that is at most
// about 7 (some 170 Display points), against 20 for a new player, and
// Sigma is shrinking by only about 0.05 a game. TestProvisionalGames
// simulates 4-player games among twelve players of spread skills: Sigma
// falls below 4 after about 50 games (45 to 66 there); below 2.5 would
// take some 135, too many for a table to wait on.
const ProvisionalSigma = 4.0

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
