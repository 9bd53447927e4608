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
// a random choice from the seat's sampled hand and a pass still being
// chosen starts again from nothing (the steps are private); after the
// transfer, a pass s did not give or receive is a random choice among the
// cards its receiver holds or has played.
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
	var fixed [MaxPlayers]uint64
	if s >= 0 {
		fixed[s] = st.hands[s]
		if st.phase == phasePlay {
			to := st.next(s)
			fixed[to] = st.pass[s] & st.hands[to]
		}
	}
	var unknown uint64
	var need [MaxPlayers]int
	var allowed [MaxPlayers]uint8
	for t := game.Seat(0); t < n; t++ {
		unknown |= st.hands[t] &^ fixed[t]
		need[t] = bits.OnesCount64(st.hands[t] &^ fixed[t])
		allowed[t] = (1<<Suits - 1) &^ st.voids[t]
	}
	var deal [MaxPlayers]uint64
	dealUnknown(&deal, unknown, need, allowed, int(n), r)
	for t := game.Seat(0); t < n; t++ {
		y.hands[t] = fixed[t] | deal[t]
	}
	k := st.passSize()
	for t := game.Seat(0); t < n; t++ {
		switch {
		case t == s:
		case st.phase == phasePass && st.passed.Has(t):
			y.pass[t] = pick(y.hands[t], k, r)
		case st.phase == phasePass:
			y.pass[t] = 0
		case s >= 0 && t == st.prev(s):
			// the cards s received: known
		default:
			to := st.next(t)
			y.pass[t] = pick(y.hands[to]|st.playedBy[to], k, r)
		}
	}
	return &y
}

// dealUnknown deals the cards of set to the seats, need[t] cards to seat
// t, only suits in allowed[t]. A shuffle-and-deal is tried again and
// again until it respects the voids, which makes it uniform; in the rare
// case where voids keep rejecting it (a few samples in a thousand in
// random games), the cards are placed one at a time, each on a random
// seat that keeps the rest of the deal possible: always correct, not
// exactly uniform. The true state is one solution, so a deal exists.
func dealUnknown(deal *[MaxPlayers]uint64, set uint64, need [MaxPlayers]int, allowed [MaxPlayers]uint8, n int, r *game.RNG) {
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
	// Rejection: a Fisher-Yates shuffle drawn position by position, given
	// up at the first card a void forbids. Every full permutation is as
	// likely on each try, so the accepted deal is uniform among those
	// the voids allow; giving up early only makes failed tries cheap.
	for try := 0; try < 2000; try++ {
		ok := true
		for i := 0; i < m; i++ {
			j := i + r.IntN(m-i)
			cards[i], cards[j] = cards[j], cards[i]
			if allowed[seatOf[i]]&(1<<uint(suitOf[cards[i]])) == 0 {
				ok = false
				break
			}
		}
		if ok {
			*deal = [MaxPlayers]uint64{}
			for i, c := range cards[:m] {
				deal[seatOf[i]] |= 1 << uint(c)
			}
			return
		}
	}
	// One card at a time, keeping Hall's condition: for every set of
	// suits, the cards of those suits still to place fit in the seats
	// that may take them.
	*deal = [MaxPlayers]uint64{}
	var count [Suits]int
	for _, c := range cards[:m] {
		count[suitOf[c]]++
	}
	shuffle(cards[:m], r)
	for _, c := range cards[:m] {
		k := suitOf[c]
		var cand [MaxPlayers]int
		nc := 0
		for t := 0; t < n; t++ {
			if need[t] > 0 && allowed[t]&(1<<uint(k)) != 0 {
				cand[nc] = t
				nc++
			}
		}
		for nc > 0 {
			i := r.IntN(nc)
			t := cand[i]
			need[t]--
			count[k]--
			if feasible(&count, &need, &allowed, n) {
				deal[t] |= 1 << uint(c)
				break
			}
			need[t]++
			count[k]++
			cand[i] = cand[nc-1]
			nc--
		}
	}
}

// feasible reports whether count cards of each suit can go to seats that
// want need[t] cards of the suits allowed[t]: Hall's condition over the
// 31 non-empty sets of suits.
func feasible(count *[Suits]int, need *[MaxPlayers]int, allowed *[MaxPlayers]uint8, n int) bool {
	for S := uint8(1); S < 1<<Suits; S++ {
		supply, demand := 0, 0
		for k := 0; k < Suits; k++ {
			if S&(1<<uint(k)) != 0 {
				supply += count[k]
			}
		}
		for t := 0; t < n; t++ {
			if allowed[t]&S != 0 {
				demand += need[t]
			}
		}
		if supply > demand {
			return false
		}
	}
	return true
}

func shuffle(cards []int8, r *game.RNG) {
	for i := len(cards) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		cards[i], cards[j] = cards[j], cards[i]
	}
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
