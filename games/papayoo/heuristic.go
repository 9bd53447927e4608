package papayoo

import (
	"math/bits"

	"tapis/game"
)

// Heuristic is a Papayoo player that plays like a sensible person, from
// its seat's view and events only: it passes what is dangerous, counts the
// cards played, remembers where its pass went, notes who showed a void,
// ducks tricks that carry points and dumps the Papayoo and high Payoos on
// other players' tricks.
type Heuristic struct {
	seatInfo
	rng game.RNG
	buf []game.Move

	led     int8 // suit led in the current trick, none before its first card
	inTrick int  // cards played in the current trick
}

// seatInfo is what the heuristic's rules read besides the hand and the
// trick: what the seat has been told this round. The heuristic bot keeps
// it from its events; search playouts (RolloutMove) fill it from a state.
type seatInfo struct {
	seat   game.Seat
	n      int
	played uint64 // every card played this round
	voids  [MaxPlayers]uint8
}

// NewHeuristic returns the heuristic player of seat s. Its play is
// deterministic; the seed only serves a move when the view is not
// Papayoo's.
func NewHeuristic(s game.Seat, seed uint64) *Heuristic {
	return &Heuristic{seatInfo: seatInfo{seat: s}, rng: game.NewRNG(seed), led: none}
}

// Observe implements game.Player: it keeps the round's memory (cards
// played, voids shown).
func (h *Heuristic) Observe(e game.Event) {
	ev, ok := e.Data.(Event)
	if !ok {
		return
	}
	switch ev.Type {
	case "deal":
		h.played, h.voids, h.led, h.inTrick = 0, [MaxPlayers]uint8{}, none, 0
	case "play":
		c, err := ParseCard(ev.Card)
		if err != nil {
			return
		}
		h.played |= 1 << uint(c)
		k := suitOf[c]
		if h.inTrick == 0 {
			h.led = k
		} else if k != h.led && ev.Seat >= 0 && ev.Seat < MaxPlayers {
			h.voids[ev.Seat] |= 1 << uint(h.led)
		}
		h.inTrick++
	case "trick":
		h.led, h.inTrick = none, 0
	}
}

// Choose implements game.Player.
func (h *Heuristic) Choose(k game.Knowledge) game.Move {
	v, ok := k.View().(*View)
	h.buf = k.Legal(h.buf[:0])
	if !ok {
		// Not a Papayoo view: nothing to reason on.
		return h.buf[h.rng.IntN(len(h.buf))]
	}
	h.n = v.Players
	hand := parseSet(v.Hand)
	pap := none
	if v.Papayoo != "" {
		pap, _ = ParseCard(v.Papayoo)
	}
	if v.Phase == "pass" {
		return h.pass(hand, parseSet(v.MyPass))
	}
	var legal uint64
	for _, m := range h.buf {
		legal |= cardsOf(m)
	}
	trick := make([]int8, len(v.Trick))
	for i, p := range v.Trick {
		trick[i], _ = ParseCard(p.Card)
	}
	var c int8
	switch {
	case len(trick) == 0:
		c = h.lead(hand, pap, parseSet(v.MyPass))
	case legal&suitMask[suitOf[trick[0]]] != 0:
		c = h.follow(hand, legal, trick, pap)
	default:
		c = h.discard(hand, legal, pap)
	}
	return PlayMove(c)
}

func parseSet(cards []string) uint64 {
	var set uint64
	for _, name := range cards {
		if c, err := ParseCard(name); err == nil {
			set |= 1 << uint(c)
		}
	}
	return set
}

// passDanger rates how much a card is worth getting rid of before the
// die is rolled: high Payoos take their own points and win Payoo tricks;
// each 7 is the Papayoo one time in four; high plain cards win the tricks
// others dump points on. A card is less dangerous in a long suit, where
// low cards of the same suit give cover.
func passDanger(c int8, hand uint64) int {
	k := suitOf[c]
	long := bits.OnesCount64(hand & suitMask[k])
	below := bits.OnesCount64(hand & suitMask[k] & (1<<uint(c) - 1))
	return danger(k, rank(c), long, below)
}

// danger is passDanger of the card of rank r in suit k, in a hand with
// long cards of k, below of them lower than it.
func danger(k int8, r, long, below int) int {
	if k == Payoo {
		d := 3*r - 12 - 2*below
		if long <= 3 && r <= 10 {
			d -= 4
		}
		return d
	}
	d := 0
	switch {
	case r == 7:
		d = 30 - 3*below
	case r >= 8:
		d = 3*(r-5) - 2*below
	default:
		d = r - 6
	}
	// A short suit is worth emptying: a void lets the Papayoo and high
	// Payoos go onto other players' tricks.
	if long <= 2 {
		d += 6
	}
	return d
}

// pass chooses the next card of the pass, one step at a time (the steps
// Legal lists, so that a search using this bot as its prior finds its
// choice among its own moves): the most dangerous card left. Step by step
// it passes what choosing the whole pass greedily at once would.
func (h *Heuristic) pass(hand, chosen uint64) game.Move {
	return PassMove(1 << uint(passStep(hand, chosen)))
}

// passStep is the most dangerous card of hand not yet chosen (the first
// in card order among equals).
func passStep(hand, chosen uint64) int8 {
	left := hand &^ chosen
	best, bestD := none, -1<<30
	for k := int8(0); k < Suits; k++ {
		if c, d := suitDanger(left, k); d > bestD {
			best, bestD = c, d
		}
	}
	return best
}

// outstanding is the set of cards the other seats still hold.
func (h *seatInfo) outstanding(hand uint64) uint64 {
	return deckFor(h.n) &^ hand &^ h.played
}

// opponentsIn counts the other seats that may still hold suit k.
func (h *seatInfo) opponentsIn(k int8) int {
	c := 0
	for t := 0; t < h.n; t++ {
		if game.Seat(t) != h.seat && h.voids[t]&(1<<uint(k)) == 0 {
			c++
		}
	}
	return c
}

// lead picks the card whose trick costs least: the chance of winning it
// (few higher cards out, or only void seats left) times what the winner
// would take (its own points, what void seats may dump).
func (h *seatInfo) lead(hand uint64, pap int8, myPass uint64) int8 {
	out := h.outstanding(hand)
	next := (h.seat + 1) % game.Seat(h.n)
	best, bestCost := none, 1e18
	for k := int8(0); k < Suits; k++ {
		cards := hand & suitMask[k]
		if cards == 0 {
			continue
		}
		// What depends on the suit only.
		followers := h.opponentsIn(k)
		voidOpp := h.n - 1 - followers
		suitExp := 2 + 8*float64(voidOpp)
		if k == Payoo {
			suitExp += 6 * float64(min(followers, bits.OnesCount64(out&suitMask[Payoo])))
		}
		if pap >= 0 && k == suitOf[pap] && out&(1<<uint(pap)) != 0 {
			suitExp += 15
		}
		outK := out & suitMask[k]
		passK := uint64(0)
		if h.voids[next]&(1<<uint(k)) == 0 {
			passK = myPass & outK
		}
		for f := cards; f != 0; f &= f - 1 {
			c := int8(bits.TrailingZeros64(f))
			above := ^(uint64(1)<<uint(c+1) - 1)
			higher := bits.OnesCount64(outK & above)
			pw := 1.0
			if higher > 0 && followers > 0 {
				pw = 1 / float64(1+2*higher)
				// A card we passed left, higher than c and not played, is
				// still with that seat: one sure candidate to beat c.
				if passK&above != 0 {
					pw /= 2
				}
			}
			// Small integers: the sums are exact in any order.
			cost := pw * (float64(CardPoints(c, pap)) + suitExp)
			if c == pap {
				cost += 30
			}
			// Among equals, shed the higher card.
			cost -= float64(rank(c)) * 1e-3
			if cost < bestCost {
				best, bestCost = c, cost
			}
		}
	}
	return best
}

// follow plays in the led suit: under the trick's best card when it can
// (the most dangerous such card: the Papayoo, a high Payoo), else the
// lowest card unless the trick is surely ours.
func (h *seatInfo) follow(hand, legal uint64, trick []int8, pap int8) int8 {
	k := suitOf[trick[0]]
	top := trick[0]
	for _, c := range trick {
		if suitOf[c] == k && c > top {
			top = c
		}
	}
	under := legal & (1<<uint(top) - 1)
	if under != 0 {
		if pap >= 0 && under&(1<<uint(pap)) != 0 {
			return pap
		}
		return int8(63 - bits.LeadingZeros64(under))
	}
	// Every card we may play beats the trick so far. If nobody after us
	// can beat it, it is ours: shed the highest card that is not the
	// Papayoo.
	lowest := int8(bits.TrailingZeros64(legal))
	safe := legal &^ h.papBit(pap)
	if safe != 0 && h.sureWin(hand, trick, lowest) {
		return int8(63 - bits.LeadingZeros64(safe))
	}
	return lowest
}

func (h *seatInfo) papBit(pap int8) uint64 {
	if pap < 0 {
		return 0
	}
	return 1 << uint(pap)
}

// sureWin reports whether card c, played now on trick, cannot be beaten by
// the seats still to play: none of them may hold a higher card of the led
// suit (none is out, or they all showed a void).
func (h *seatInfo) sureWin(hand uint64, trick []int8, c int8) bool {
	k := suitOf[trick[0]]
	later := h.n - 1 - len(trick)
	if later == 0 {
		return true
	}
	higher := h.outstanding(hand) &^ (1<<uint(c+1) - 1) & suitMask[k]
	for i := 1; i <= later; i++ {
		t := (int(h.seat) + i) % h.n
		if h.voids[t]&(1<<uint(k)) == 0 && higher != 0 {
			return false
		}
	}
	return true
}

// discard, when void in the led suit, dumps the worst card: the Papayoo,
// then the highest Payoo or the highest plain card, whichever is worse.
func (h *seatInfo) discard(hand, legal uint64, pap int8) int8 {
	if pap >= 0 && legal&(1<<uint(pap)) != 0 {
		return pap
	}
	best, bestD := none, -1<<30
	for f := legal; f != 0; f &= f - 1 {
		c := int8(bits.TrailingZeros64(f))
		d := rank(c)
		if suitOf[c] == Payoo {
			d = 2*rank(c) + 2
		} else {
			// A high card is dangerous while lower ones are out to lose
			// to it.
			low := bits.OnesCount64(h.outstanding(hand) & suitMask[suitOf[c]] & (1<<uint(c) - 1))
			d += low
		}
		if d > bestD {
			best, bestD = c, d
		}
	}
	return best
}
