package papayoo

import (
	"math/bits"

	"tapis/game"
)

// Sample implements game.State. Seat s keeps what it knows: its hand (and
// the pass it is choosing), every played card and who played it, the
// voids everyone has shown, the cards it passed (still with its left
// neighbour unless played since) and the cards it received. The other
// cards are redrawn: gathered in index order, so that their true places
// cannot matter, shuffled with r and dealt back to the other seats in seat
// order, each seat taking only suits it has not shown void in. Other
// seats' passes are redrawn to match: during the pass a committed pass is
// the seat's most dangerous cards, as most players (and the heuristic
// bot) choose them, from its sampled hand, and a pass still being
// chosen starts again from nothing (the steps are private); after the
// transfer, a pass s did not give or receive is its receiver's most
// dangerous cards, and of a few deals the sample keeps the first where
// every other seat's pass is the one the heuristic would have chosen from
// the hand it held (passinfer.go).
func (st *State) Sample(s game.Seat, r *game.RNG) game.State {
	y := *st
	y.stacks = nil // later scripted deals are the future: nobody knows them
	y.rng = r.Child()
	n := game.Seat(st.n)
	if s < 0 || s >= n {
		s = game.Spectator
	}
	if st.phase == phaseOver {
		return &y
	}
	fixed, unknown, need, allowed := st.hidden(s)
	var deal [MaxPlayers]uint64
	shun := st.shuns()
	k := st.passSize()
	if s >= 0 && st.phase == phasePlay {
		// Deals whose passes fit the rule first (passinfer.go).
		var best State
		fewest := -1
		for try := 0; try < passTries; try++ {
			dealUnknown(&deal, unknown, need, allowed, &shun, int(n), r)
			for t := game.Seat(0); t < n; t++ {
				y.hands[t] = fixed[t] | deal[t]
			}
			y.guessPasses(s, k)
			bad := y.passMisfits(s, k)
			if bad == 0 {
				return &y
			}
			if fewest < 0 || bad < fewest {
				best, fewest = y, bad
			}
		}
		return &best
	}
	dealUnknown(&deal, unknown, need, allowed, &shun, int(n), r)
	for t := game.Seat(0); t < n; t++ {
		y.hands[t] = fixed[t] | deal[t]
	}
	for t := game.Seat(0); t < n; t++ {
		switch {
		case t == s:
		case st.phase == phasePass && st.passed.Has(t):
			y.pass[t] = dangerousPass(y.hands[t], k)
		case st.phase == phasePass:
			y.pass[t] = 0
		default:
			// A spectator's sample after the pass: nobody's is known.
			to := st.next(t)
			y.pass[t] = pick(y.hands[to]|st.playedBy[to], k, r)
		}
	}
	return &y
}

// hidden is what a sample for seat s (or a spectator) redraws: the cards
// fixed where s knows they are (its hand, and after the pass the cards
// it passed and its neighbour still holds), the unknown cards, how many of
// them each seat holds and the suits each may hold (its voids').
func (st *State) hidden(s game.Seat) (fixed [MaxPlayers]uint64, unknown uint64, need [MaxPlayers]int, allowed [MaxPlayers]uint8) {
	if s >= 0 {
		fixed[s] = st.hands[s]
		if st.phase == phasePlay {
			to := st.next(s)
			fixed[to] = st.pass[s] & st.hands[to]
		}
	}
	for t := 0; t < int(st.n); t++ {
		unknown |= st.hands[t] &^ fixed[t]
		need[t] = bits.OnesCount64(st.hands[t] &^ fixed[t])
		allowed[t] = (1<<Suits - 1) &^ st.voids[t]
	}
	return fixed, unknown, need, allowed
}

// dealUnknown deals the cards of set to the seats, need[t] cards to seat
// t, only suits in allowed[t] and, when it can, no card of shun[t] (what
// the seat's plays suggest it lacks: see infer). A shuffle-and-deal is
// tried again and again until it respects the constraints, which makes
// it uniform; when they keep rejecting it, the cards are placed one at a
// time (dealSeq): always correct, close to uniform. The voids alone always
// allow a deal, the true one; the guesses in shun may not, and are then
// dropped.
func dealUnknown(deal *[MaxPlayers]uint64, set uint64, need [MaxPlayers]int, allowed [MaxPlayers]uint8, shun *[MaxPlayers]uint64, n int, r *game.RNG) {
	var cards [DeckSize]int8
	m := 0
	for f := set; f != 0; f &= f - 1 {
		cards[m] = int8(bits.TrailingZeros64(f))
		m++
	}
	// The seat each position of the shuffled cards goes to.
	var seatOf [DeckSize]int8
	i := 0
	for t := 0; t < n; t++ {
		for j := 0; j < need[t]; j++ {
			seatOf[i] = int8(t)
			i++
		}
	}
	var ok, likely [MaxPlayers]uint64
	shuns := false
	for t := 0; t < n; t++ {
		for k := 0; k < Suits; k++ {
			if allowed[t]&(1<<uint(k)) != 0 {
				ok[t] |= suitMask[k]
			}
		}
		likely[t] = ok[t] &^ shun[t]
		shuns = shuns || likely[t]&set != ok[t]&set
	}
	if shuns && (rejectDeal(deal, &cards, m, &seatOf, &likely, shunTries, r) ||
		dealSeq(deal, &cards, m, need, &likely, n, r)) {
		return
	}
	if rejectDeal(deal, &cards, m, &seatOf, &ok, voidTries, r) {
		return
	}
	if !dealSeq(deal, &cards, m, need, &ok, n, r) {
		panic("papayoo: sample: no deal respects the voids, not even the true one")
	}
}

// Shuffles tried before dealing one card at a time: the guesses of shun
// reject more deals than voids do.
const (
	shunTries = 5
	voidTries = 200
)

// dealSeq deals cards[:m] one at a time, in a random order, each to a
// seat whose ok set has it, drawn in proportion to the cards the seat
// still needs (as dealing from a shuffled deck would), among the seats
// that keep the rest of the deal possible: Hall's condition over every
// set of seats. Without constraints this is a uniform deal; with them it
// is close. It reports false, dealing nothing, if no deal is possible.
func dealSeq(deal *[MaxPlayers]uint64, cards *[DeckSize]int8, m int, need [MaxPlayers]int, ok *[MaxPlayers]uint64, n int, r *game.RNG) bool {
	// Seats that take cards, numbered 0..k-1 in seat order.
	var seat [MaxPlayers]int
	var want [MaxPlayers]int
	k := 0
	for t := 0; t < n; t++ {
		if need[t] > 0 {
			seat[k], want[k] = t, need[t]
			k++
		}
	}
	sets := 1 << uint(k)
	shuffle(cards[:m], r)
	// The class of a card is the set of seats that may take it. room[T]
	// is what the seats of T want, less the cards only T may take:
	// Hall's condition is room[T] >= 0 for every T.
	var cls [DeckSize]uint8
	var room [1 << MaxPlayers]int16
	for i, c := range cards[:m] {
		for u := 0; u < k; u++ {
			if ok[seat[u]]&(1<<uint(c)) != 0 {
				cls[i] |= 1 << uint(u)
			}
		}
		if cls[i] == 0 {
			return false
		}
		room[cls[i]]--
	}
	// Sum the counts over the subsets of each T, one seat at a time.
	for u := 0; u < k; u++ {
		for T := 0; T < sets; T++ {
			if T&(1<<uint(u)) != 0 {
				room[T] += room[T&^(1<<uint(u))]
			}
		}
	}
	for T := 1; T < sets; T++ {
		for f := T; f != 0; f &= f - 1 {
			room[T] += int16(want[bits.TrailingZeros(uint(f))])
		}
		if room[T] < 0 {
			return false
		}
	}
	var out [MaxPlayers]uint64
	for i, c := range cards[:m] {
		M := int(cls[i])
		cand := M
		for {
			total := 0
			for f := cand; f != 0; f &= f - 1 {
				total += want[bits.TrailingZeros(uint(f))]
			}
			if total == 0 {
				return false // cannot happen: Hall's condition held
			}
			x := r.IntN(total)
			u := 0
			for f := cand; f != 0; f &= f - 1 {
				u = bits.TrailingZeros(uint(f))
				if x -= want[u]; x < 0 {
					break
				}
			}
			// Placing c on u takes one from room[T] for every T that
			// holds u but not all of M; the others are unchanged.
			bit := 1 << uint(u)
			fits := true
			for T := 1; T < sets; T++ {
				if T&bit != 0 && M&^T != 0 && room[T] < 1 {
					fits = false
					break
				}
			}
			if fits {
				for T := 1; T < sets; T++ {
					if T&bit != 0 && M&^T != 0 {
						room[T]--
					}
				}
				want[u]--
				out[seat[u]] |= 1 << uint(c)
				break
			}
			cand &^= bit
		}
	}
	*deal = out
	return true
}

// rejectDeal tries up to tries shuffles of cards[:m], position i going to
// seat seatOf[i], until every card goes to a seat whose ok set has it.
// Each try is a Fisher-Yates shuffle drawn position by position, given
// up at the first card its seat may not take: every permutation is as
// likely on each try, so the deal accepted is uniform among those
// allowed, and failed tries are cheap.
func rejectDeal(deal *[MaxPlayers]uint64, cards *[DeckSize]int8, m int, seatOf *[DeckSize]int8, ok *[MaxPlayers]uint64, tries int, r *game.RNG) bool {
	for try := 0; try < tries; try++ {
		good := true
		for i := 0; i < m; i++ {
			j := i + r.IntN(m-i)
			cards[i], cards[j] = cards[j], cards[i]
			if ok[seatOf[i]]&(1<<uint(cards[i])) == 0 {
				good = false
				break
			}
		}
		if good {
			*deal = [MaxPlayers]uint64{}
			for i, c := range cards[:m] {
				deal[seatOf[i]] |= 1 << uint(c)
			}
			return true
		}
	}
	return false
}

func shuffle(cards []int8, r *game.RNG) {
	for i := len(cards) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		cards[i], cards[j] = cards[j], cards[i]
	}
}

// dangerousPass is the pass of k cards of hand that the heuristic bot
// would choose.
func dangerousPass(hand uint64, k int) uint64 {
	pass, _ := greedyPass(hand, k, ^uint64(0))
	return pass
}

// greedyPass chooses k cards of hand as passStep would, one at a time,
// and reports whether every card chosen is in within, stopping at the
// first that is not. A suit's most dangerous card changes only when a
// card of that suit is chosen, so each suit's is kept and only the
// chosen card's suit is rated again: the same choices as passStep's, the
// first in card order among equals, at a fraction of the ratings.
func greedyPass(hand uint64, k int, within uint64) (uint64, bool) {
	var best [Suits]int8
	var bestD [Suits]int
	for s := int8(0); s < Suits; s++ {
		best[s], bestD[s] = suitDanger(hand, s)
	}
	var pass uint64
	for i := 0; i < k; i++ {
		s := int8(0)
		for t := int8(1); t < Suits; t++ {
			if bestD[t] > bestD[s] {
				s = t
			}
		}
		if best[s] == none {
			break
		}
		bit := uint64(1) << uint(best[s])
		if bit&within == 0 {
			return pass, false
		}
		pass |= bit
		hand &^= bit
		best[s], bestD[s] = suitDanger(hand, s)
	}
	return pass, true
}

// suitDanger is the most dangerous card of suit k in hand (the lowest
// among equals) and its danger, or none.
func suitDanger(hand uint64, k int8) (int8, int) {
	cards := hand & suitMask[k]
	best, bestD := none, -1<<30
	long := bits.OnesCount64(cards)
	base := int8(k * plainSize)
	for below := 0; cards != 0; below++ {
		c := int8(bits.TrailingZeros64(cards))
		cards &= cards - 1
		if d := danger(k, int(c-base)+1, long, below); d > bestD {
			best, bestD = c, d
		}
	}
	return best, bestD
}

// pick returns k cards of set drawn with r (all of them if it has fewer).
func pick(set uint64, k int, r *game.RNG) uint64 {
	var cards [DeckSize]int8
	m := 0
	for f := set; f != 0; f &= f - 1 {
		cards[m] = int8(bits.TrailingZeros64(f))
		m++
	}
	var out uint64
	for i := 0; i < k && i < m; i++ {
		j := i + r.IntN(m-i)
		cards[i], cards[j] = cards[j], cards[i]
		out |= 1 << uint(cards[i])
	}
	return out
}
