package dacapo

import "tapis/game"

// RolloutMove implements game.Roller: the search's playout policy. It
// plays like the heuristic bot, from what the seat to move knows (its own
// hand; on a sampled state an opponent's hand is a guess, which it plays
// as its own), with two changes that beat the heuristic in 55% of games
// (a fast test over thousands of games, seats alternating):
//
//   - a pile left one or two cards below the next player's top costs too,
//     not only one its top fits (plan.go);
//   - the helper move scores cards and piles a little differently
//     (helperScore: a card on one two higher is no longer a burial).
//
// Builds follow the best sequence found by plan, which is kept in the
// state so that the next moves of the sequence cost nothing: a turn
// searches again only after a card is turned up or drawn. When no
// sequence beats stopping, the turn ends: the helper move, or End with an
// empty hand that cannot be refilled.
func (st *State) RolloutMove(r *game.RNG, buf []game.Move) game.Move {
	s := st.turn
	if st.rnext < st.rlen && st.rat == st.moves && st.rprev == st.last && st.rturn == st.turns {
		m := game.Move(st.rplan[st.rnext])
		st.rnext++
		st.rat, st.rprev = st.moves+1, m
		return m
	}
	st.rlen = 0
	p := st.plan(s)
	var m game.Move
	switch {
	case p.bestLen > 0:
		m = p.bestSeq[0]
		n := min(p.bestLen, maxPlan+1)
		for i := 1; i < n; i++ {
			st.rplan[i-1] = uint32(p.bestSeq[i])
		}
		st.rnext, st.rlen, st.rturn = 0, int8(n-1), st.turns
		st.rat, st.rprev = st.moves+1, m
	case st.nHand[s] > 0:
		m = st.helperChoice(s)
	default:
		// An empty hand and nothing to draw, and no build worth more than
		// stopping: End (Legal has it whenever the hand is empty).
		m = endMove
	}
	planners.Put(p)
	if m != 0 {
		return m
	}
	buf = st.Legal(s, buf[:0])
	return buf[r.IntN(len(buf))]
}

// ModelsOpponents implements game.OpponentModel: the playout policy is
// the heuristic's, which is how the other seats are assumed to play, so a
// search's tree may keep only its own seat's moves.
func (st *State) ModelsOpponents() bool { return true }

// maxPlan bounds the planned moves a state keeps for its playout.
const maxPlan = 24

// The helper move's points, in hundredths of the heuristic bot's.
const (
	hNew     = 100 * newPileBonus  // a new pile
	hDescend = 100 * descendBonus  // c onto c+1
	hSame    = 100 * sameCardBonus // c onto c
	hSkip    = 0                   // c onto c+2
	hBury    = -100 * coverCard    // c onto any other card
	hUseful  = 100 * coverUseful   // that card lies below our own top
	hJoker   = 100 * coverJoker    // that card is a Joker
	hHigh    = 1                   // per value of c: put high cards away
)

// helperChoice is the rollout's helper move for seat s, whose hand must
// not be empty: the best card and pile by helperScore.
func (st *State) helperChoice(s game.Seat) game.Move {
	best, bestScore := game.Move(0), -1<<30
	for c := int8(1); c < Kinds; c++ {
		if st.hand[s][c] == 0 {
			continue
		}
		for i := 0; i < Helpers; i++ {
			if sc := st.helperScore(s, c, i); sc > bestScore {
				best, bestScore = mkHelp(c, i), sc
			}
		}
	}
	return best
}

// helperScore rates putting card c on seat s's helper pile i, like the
// heuristic bot's helper move: keep what is in reach in reach (a Joker, a
// card below our own top), make descending runs (c onto c+1 plays both in
// a row), start new piles, and prefer to put away high cards. It reads
// only what is face up, so it also rates a move already made (Value).
// Every helper move is rated as it is applied, so it looks helperPoints
// up in a table rather than branch on what random play cannot predict.
func (st *State) helperScore(s game.Seat, c int8, i int) int {
	t, top := st.htop[int(s)*Helpers+i], st.top[s]
	low := min(st.nPile[0], st.nPile[1], st.nPile[2])
	// Useful: low < t < top and top is no Joker (top <= Joker), without
	// a branch: each difference is >= 0 exactly when its test holds.
	x := (int(t) - int(low) - 1) | (int(top) - int(t) - 1) | (Joker - 1 - int(top))
	return int(helperTable[b2u(x >= 0)][t][c])
}

// helperPoints is helperScore's rule for card c onto a helper pile whose
// top is t (0: an empty pile), useful when t lies below our own top (and
// above the lowest building pile, which would take it first).
func helperPoints(c, t int8, useful bool) int {
	sc := hHigh * int(c)
	if t == 0 {
		return sc + hNew
	}
	switch {
	case t == Joker:
		sc -= hJoker
	case t == c+1:
		sc += hDescend
	case t == c:
		sc += hSame
	case t == c+2:
		sc += hSkip
		if useful {
			sc -= hUseful
		}
	default:
		sc += hBury
		if useful {
			sc -= hUseful
		}
	}
	return sc
}

// helperTable[u][t][c] is helperPoints(c, t, u == 1): immutable, computed
// once.
var helperTable [2][Kinds][Kinds]int32

func init() {
	for u := range helperTable {
		for t := range helperTable[u] {
			for c := range helperTable[u][t] {
				helperTable[u][t][c] = int32(helperPoints(int8(c), int8(t), u == 1))
			}
		}
	}
}
