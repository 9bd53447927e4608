package cabo

import (
	"math"

	"tapis/game"
)

// Search bots stop their playouts at the end of a round (game.Valuer) and
// judge the cumulative scores there. A round moves the scores by 0 for its
// winner and 10 to 25 for the others, so the score difference alone says
// little near the end: 80 against 70 is nearly lost when one lost round
// pushes the leader past 100. The value is therefore the chance to win the
// game from those scores, between two equal players: winTable.

// lossCounts is how often the loser of a 2-player round between heuristic
// bots scored each total (caller's penalty included), over 55,471 rounds of
// 5,000 games; a kamikaze (50) is too rare to show.
var lossCounts = [...][2]int{
	{2, 8}, {3, 34}, {4, 97}, {5, 208}, {6, 417}, {7, 672}, {8, 1178}, {9, 2007},
	{10, 2851}, {11, 3617}, {12, 4361}, {13, 4752}, {14, 4895}, {15, 4981},
	{16, 4967}, {17, 4996}, {18, 2704}, {19, 2584}, {20, 2261}, {21, 1980},
	{22, 1651}, {23, 1154}, {24, 827}, {25, 624}, {26, 458}, {27, 362}, {28, 258},
	{29, 187}, {30, 122}, {31, 90}, {32, 61}, {33, 45}, {34, 25}, {35, 11},
	{36, 11}, {37, 9}, {38, 3}, {40, 2}, {44, 1}, {50, 1},
}

// winTable[a][b] is the chance that a player at cumulative score a beats
// one at b (both 0..100, the game not over), if each round is won by
// either with even odds and the loser scores as in lossCounts.
type winTable [101][101]float32

// defaultWins is the table for the default reset (exactly 100 drops to 50),
// built once: a value, never changed after. Other resets use it too: they
// differ only when a score lands on exactly 100.
var defaultWins = newWinTable(50)

// newWinTable solves the game's chances by value iteration: scores only
// grow, except for the drop from exactly 100 to reset, so sweeping from
// high sums down converges fast (3 sweeps: within 1e-5 of 8; about 3 ms).
func newWinTable(reset int) *winTable {
	total := 0
	for _, lc := range lossCounts {
		total += lc[1]
	}
	var p [len(lossCounts)]float64
	for i, lc := range lossCounts {
		p[i] = float64(lc[1]) / float64(total)
	}
	after := func(x int) int {
		if x == 100 {
			return reset
		}
		return x
	}
	v := new([101][101]float64)
	for a := range v {
		for b := range v[a] {
			v[a][b] = 0.5
		}
	}
	for sweep := 0; sweep < 3; sweep++ {
		for sum := 200; sum >= 0; sum-- {
			for a := max(0, sum-100); a <= min(100, sum); a++ {
				b := sum - a
				x := 0.0
				for i, lc := range lossCounts {
					// a loses the round: a past 100 ends the game, lost.
					if na := a + lc[0]; na <= 100 {
						x += 0.5 * p[i] * v[after(na)][b]
					}
					// b loses the round.
					if nb := b + lc[0]; nb > 100 {
						x += 0.5 * p[i]
					} else {
						x += 0.5 * p[i] * v[a][after(nb)]
					}
				}
				v[a][b] = x
			}
		}
	}
	t := new(winTable)
	for a := range v {
		for b := range v[a] {
			t[a][b] = float32(v[a][b])
		}
	}
	return t
}

// Rounds implements game.Valuer.
func (st *State) Rounds() int { return st.rounds }

// valueGain scales the change in the chance to win that the round made,
// in units of what a typical round is worth at these scores (stakes). A
// search compares moves by the mean value of their playouts, with an
// exploration term made for values spread over [0, 1]; one round moves
// the chance by 0.05 early in a game and by 0.5 near its end, so unscaled
// the term would drown the first and be drowned by the second. 2 is best
// (hard@1600: 77% against the heuristic, 72% with 1) once the search's
// tree holds only its own seat's choices; while the opponents' choices are
// tree nodes, chosen without their cards, every spread makes it call Cabo
// too often, and more so the larger it is.
const valueGain = 2

// typicalLoss is a round's mean score for its loser (lossCounts).
const typicalLoss = 15

// Value implements game.Valuer: how much the last round (the one the
// search played out) changed seat s's chance to win the game, from the
// cumulative scores before and after it (public), over the round's
// stakes, squashed into [0, 1] around 0.5.
func (st *State) Value(s game.Seat) float64 {
	var before [MaxPlayers]int
	for t := 0; t < int(st.n); t++ {
		before[t] = st.scores[t] - st.roundScores[t]
		if st.last.reset.Has(game.Seat(t)) {
			before[t] = 100 - st.roundScores[t]
		}
	}
	after := st.chance(s, &st.scores)
	if st.Over() {
		after = 0
		if st.winners.Has(s) {
			after = 1 / float64(st.winners.Len())
		}
	}
	return 0.5 + 0.5*math.Tanh(valueGain*(after-st.chance(s, &before))/st.stakes(s, &before))
}

// stakes is how much a typical round can change seat s's chance from
// these scores: winning it (the others score typicalLoss) against losing
// it (s does).
func (st *State) stakes(s game.Seat, scores *[MaxPlayers]int) float64 {
	win, lose := *scores, *scores
	for t := 0; t < int(st.n); t++ {
		if game.Seat(t) != s {
			win[t] += typicalLoss
		}
	}
	lose[s] += typicalLoss
	return max(st.chance(s, &win)-st.chance(s, &lose), 0.05)
}

// chance is seat s's chance to win from the cumulative scores: with more
// than two players, the product of its chances against each opponent,
// shared out so that the seats' chances add up to 1.
func (st *State) chance(s game.Seat, scores *[MaxPlayers]int) float64 {
	t := defaultWins
	n := int(st.n)
	low, over := scores[0], false
	for i := 0; i < n; i++ {
		low = min(low, scores[i])
		over = over || scores[i] > 100
	}
	if over { // a game just ended: the lowest win
		if scores[s] > low {
			return 0
		}
		k := 0
		for i := 0; i < n; i++ {
			if scores[i] == low {
				k++
			}
		}
		return 1 / float64(k)
	}
	if n == 2 {
		return float64(t[clampScore(scores[s])][clampScore(scores[1-s])])
	}
	var strength [MaxPlayers]float64
	var clamped [MaxPlayers]int
	for i := 0; i < n; i++ {
		clamped[i] = clampScore(scores[i])
	}
	sum := 0.0
	for i := 0; i < n; i++ {
		x := 1.0
		row := &t[clamped[i]]
		for j := 0; j < n; j++ {
			if j != i {
				x *= float64(row[clamped[j]])
			}
		}
		strength[i] = x
		sum += x
	}
	if sum <= 0 {
		return 1 / float64(n)
	}
	return strength[s] / sum
}

func clampScore(x int) int { return min(max(x, 0), 100) }

// exploration is the search's UCB constant for Cabo's values
// (game.Explorer). hard@1000 against the heuristic, 2 players, duplicate
// deals, 128 games a seed, seeds 1 to 4 (hard's share of the wins): 0.7
// 85.2%, 78.1%, 82.0%, 84.4% (82.4%); 0.25 82.8%, 88.3%, 88.3%, 81.2%
// (85.2%), and 2.9 points a round fewer than the heuristic against 2.6:
// a small edge, not told apart at this size (docs/bots.md, Exploration
// constants). The constant could not be lowered before the bound on a
// round nobody calls (stallTurns): two search bots at 0.25 stalled rounds.
const exploration = 0.25

// Exploration implements game.Explorer.
func (st *State) Exploration() float64 { return exploration }
