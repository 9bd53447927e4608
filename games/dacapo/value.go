package dacapo

import (
	"math"

	"tapis/game"
)

// Rounds implements game.Valuer: the games of the match finished so far.
func (st *State) Rounds() int { return st.games }

// Turns implements game.Horizon: the turns ended since the state was made.
func (st *State) Turns() int { return int(st.turns) }

// Horizon implements game.Horizon: how many turns from its root a search
// plays before it values the position, the root's own turn included: the
// rest of the seat's turn, the next player's, and its own next one, whose
// chances depend on what the first turn left. Playing on to the end of
// the game (some 40 turns each) drowns one move's effect in the noise of
// the others, and a shorter horizon cannot judge the helper move.
func (st *State) Horizon() int { return horizonTurns }

// TreeDepth implements game.Horizon: 1, a flat search over the root's
// moves, each followed by the playout policy. Da Capo's turns chain many
// moves, so a deeper tree spends its iterations on the poor replies it
// tries below a good build and ranks that build below ending the turn.
func (st *State) TreeDepth() int { return 1 }

const horizonTurns = 3

// Value implements game.Valuer: how well seat s stands, from what is
// public. A finished match pays its winners. A game in progress (a search
// that stops at its horizon) is judged by the race of the personal
// piles: cards ahead of the nearest opponent, whose turn it is, and the
// helper move each seat made last (helperScore, what the playout policy
// thinks of it; which also rewards helper piles that leave good places
// for the next card). In a match, the scores so far count too.
//
// The scale is steeper than the chance to win (fitted on games between
// heuristic bots: 0.28 per card, 0.1 for the turn): the search compares
// nearby positions, and a steeper value separates them sooner.
func (st *State) Value(s game.Seat) float64 {
	if st.over {
		if st.winners.Has(s) {
			return 1 / float64(st.winners.Len())
		}
		return 0
	}
	n := int(st.n)
	nearest := int8(MaxPileSize + 1)
	best, helps := math.MinInt, 0
	for t := 0; t < n; t++ {
		if game.Seat(t) == s {
			continue
		}
		nearest = min(nearest, st.nStock[t])
		best = max(best, st.scores[t])
		helps += int(st.helpScore[t])
	}
	z := valueCard * float64(nearest-st.nStock[s])
	if st.turn == s {
		z += valueTurn
	} else {
		z -= valueTurn
	}
	z += valueHelp * (float64(st.helpScore[s]) - float64(helps)/float64(n-1))
	if st.opt.MatchTarget > 0 {
		z += valueMatch * float64(st.scores[s]-best) / float64(st.opt.MatchTarget)
	}
	return 1 / (1 + math.Exp(-valueSteep*z))
}

// Value's weights, per card ahead, for the turn, per point of helper
// score (in hundredths of the heuristic's points), and for a lead in the
// match worth its whole target; then the steepness.
const (
	valueCard  = 0.28
	valueTurn  = 0.1
	valueHelp  = 0.0002
	valueMatch = 4
	valueSteep = 3
)

// exploration is the search's UCB constant for Da Capo!'s values
// (game.Explorer). Its search is a flat bandit over the root's moves
// (TreeDepth), whose values differ little: the generic 0.7 kept sharing
// the iterations out among builds already known worse. hard@1000 against
// the heuristic, 2 players, duplicate deals, 64 games (share of the wins,
// then points a game more than the heuristic's): seed 1, 0.7 57.8%
// [46.5%, 69.1%], +0.97; 0.3 70.3% [59.2%, 81.4%], +2.95; seed 2, 0.7
// 64.1%, +1.83; 0.3 64.1%, +2.47; seed 3, 0.7 73.4%, +3.05; 0.3 71.9%,
// +2.94. A small edge over 192 games, not yet told apart (docs/bots.md,
// Exploration constants).
const exploration = 0.3

// Exploration implements game.Explorer.
func (st *State) Exploration() float64 { return exploration }
