package limits

import (
	"fmt"

	"tapis/game"
)

type phase int8

const (
	phaseHide phase = iota // everyone hides their card(s) at once
	phaseTurn              // the turn seat places, exchanges or accuses
	phaseOver              // the last limit card has been taken
)

var phaseNames = [...]string{"hide", "turn", "over"}

func (p phase) String() string { return phaseNames[p] }

const none int8 = -1 // no card, no index

// State is a game of Limits in progress.
type State struct {
	n        int8
	handSize int8 // a full hand: 6 with 2 players, else 5
	hideN    int8 // cards hidden per player and round: 2 with 2 players, else 1
	rng      game.RNG

	phase  phase
	rounds int // resolved accusations
	leader game.Seat
	turn   game.Seat
	led    bool       // the leader has placed the round's first card
	hid    game.Seats // seats that have hidden this round

	hand   [MaxPlayers][Colours]int8 // cards in hand, per colour
	nHand  [MaxPlayers]int8
	hidden [MaxPlayers][Colours]int8 // face-down cards of this round
	// What everyone knows seat j holds, kept by Sample: knownHand[j] are
	// cards surely in j's hand (drawn from a publicly known part of the
	// draw pile, or revealed hidden cards taken back); knownHeld[j] cards
	// surely in j's hand or among its hidden cards, as the cards known to
	// be in hand become once j has hidden some unseen. Always
	// hand ⊇ knownHand and hand+hidden ⊇ knownHand+knownHeld.
	knownHand [MaxPlayers][Colours]int8
	knownHeld [MaxPlayers][Colours]int8

	// The draw pile, draw[nDraw-1] on top. From the top down it holds
	// `above` publicly known cards (an exchange's), then the `unk` cards
	// left of the shuffled deck, which nobody knows, then cards that were
	// active piles, known to all. Once unk is 0 every card in it is known.
	draw  [Cards]int8
	nDraw int8
	above int8
	unk   int8

	// The active pile, bottom first, with who placed each card, and each
	// seat's last placed card this round (an index into pile, or none).
	pile   [Cards]int8
	pileBy [Cards]int8
	nPile  int8
	last   [MaxPlayers]int8
	placed game.Seats // the seats with a last card: who may be accused
	// count is the active pile's cards per colour; upTo[i] the cards of
	// pile[i]'s colour from the bottom up to and including pile[i], which
	// is what an accusation of its placer counts.
	count [Colours]int8
	upTo  [Cards]int8

	// The limit deck, limits[nLimits-1] on top, as card numbers 1..24;
	// cur is the round's face-up card and seen the set of cards turned up
	// so far (bit i-1 for card i), so that Sample redraws only the others.
	limits  [LimitCards]int8
	nLimits int8
	cur     int8
	seen    uint32

	points      [MaxPlayers]int
	taken       [MaxPlayers]int // limit cards taken (-2 each)
	roundScores [MaxPlayers]int
	// gained is the exchange points each seat has earned in the round
	// under way: they count in the round's scores when it ends.
	gained  [MaxPlayers]int
	acc     accusation // the last resolution, shown to everyone
	winners game.Seats
}

// accusation is a resolved accusation, kept flat so that resolving one in
// a playout allocates nothing; Accusation is built from it for JSON.
type accusation struct {
	done             bool
	accuser, suspect game.Seat
	colour           int8
	count, limit     int8 // limit: X when unlimited
	over             bool // the suspect's colour was over its limit
	taker            game.Seat
	card             int8
	hidden           [MaxPlayers][Colours]int8
}

// Players implements game.State.
func (st *State) Players() int { return int(st.n) }

func (st *State) all() game.Seats { return game.Seats(1)<<uint(st.n) - 1 }

// ToMove implements game.State.
func (st *State) ToMove() game.Seats {
	switch st.phase {
	case phaseHide:
		return st.all() &^ st.hid
	case phaseOver:
		return 0
	}
	return game.Only(st.turn)
}

// Over implements game.State.
func (st *State) Over() bool { return st.phase == phaseOver }

// Score is a seat's score: points - 2 per limit card taken.
func (st *State) Score(s game.Seat) int { return st.points[s] - 2*st.taken[s] }

// Result implements game.State.
func (st *State) Result() game.Result {
	var r game.Result
	st.ResultTo(&r)
	return r
}

// ResultTo implements game.ResultWriter.
func (st *State) ResultTo(r *game.Result) {
	var scores [MaxPlayers]int
	for s := range scores[:st.n] {
		scores[s] = st.Score(game.Seat(s))
	}
	r.Set(st.rounds, scores[:st.n], st.roundScores[:st.n], st.Over(), st.winners)
}

// Clone implements game.State.
func (st *State) Clone() game.State {
	c := *st
	return &c
}

// Reseed replaces the state's own random generator. Limits draws all its
// randomness when it deals, so this changes nothing to come; it is there
// for the contract (a server may reseed every table).
func (st *State) Reseed(seed uint64) { st.rng = game.NewRNG(seed) }

// hideCountOf is how many cards seat s has hidden this round.
func (st *State) hideCountOf(s game.Seat) int8 {
	if st.hid.Has(s) {
		return st.hideN
	}
	return 0
}

func (st *State) next(s game.Seat) game.Seat { return (s + 1) % game.Seat(st.n) }

// Check verifies the invariants the conformance suite relies on: the 60
// colour cards are all somewhere, once; hands, hidden cards and public
// knowledge agree; the limit cards add up.
func (st *State) Check() error {
	var seen [Colours]int
	n := int(st.n)
	for s := 0; s < MaxPlayers; s++ {
		var h, hid int8
		for c := 0; c < Colours; c++ {
			kh, kd := st.knownHand[s][c], st.knownHeld[s][c]
			if st.hand[s][c] < 0 || st.hidden[s][c] < 0 || kh < 0 || kd < 0 {
				return fmt.Errorf("seat %d: a negative count of %s", s, ColourName(int8(c)))
			}
			if kh > st.hand[s][c] || kh+kd > st.hand[s][c]+st.hidden[s][c] {
				return fmt.Errorf("seat %d: known to hold %d+%d %s, holds %d+%d", s, kh, kd, ColourName(int8(c)), st.hand[s][c], st.hidden[s][c])
			}
			if !st.hid.Has(game.Seat(s)) && kd != 0 {
				return fmt.Errorf("seat %d has hidden nothing but %d %s are known held", s, kd, ColourName(int8(c)))
			}
			h += st.hand[s][c]
			hid += st.hidden[s][c]
			seen[c] += int(st.hand[s][c] + st.hidden[s][c])
		}
		if s >= n && h+hid > 0 {
			return fmt.Errorf("seat %d is not at the table but holds cards", s)
		}
		if h != st.nHand[s] {
			return fmt.Errorf("seat %d: hand size %d, cards say %d", s, st.nHand[s], h)
		}
		want := int8(0)
		if st.hid.Has(game.Seat(s)) {
			want = st.hideN
		}
		if hid != want {
			return fmt.Errorf("seat %d: %d hidden cards, want %d", s, hid, want)
		}
		if h+hid > st.handSize {
			return fmt.Errorf("seat %d holds %d cards, more than %d", s, h+hid, st.handSize)
		}
	}
	for _, c := range st.draw[:st.nDraw] {
		seen[c]++
	}
	var up [Colours]int8
	for i, c := range st.pile[:st.nPile] {
		seen[c]++
		up[c]++
		if st.upTo[i] != up[c] {
			return fmt.Errorf("pile card %d: %d %s up to it, counted %d", i, up[c], ColourName(c), st.upTo[i])
		}
		if by := st.pileBy[i]; by < 0 || by >= st.n {
			return fmt.Errorf("pile card %d placed by seat %d", i, by)
		}
	}
	if up != st.count {
		return fmt.Errorf("pile counts %v, cards say %v", st.count, up)
	}
	for c := range seen {
		if seen[c] != PerColour {
			return fmt.Errorf("cards not conserved: %d %s, want %d", seen[c], ColourName(int8(c)), PerColour)
		}
	}
	if st.above < 0 || st.unk < 0 || st.above+st.unk > st.nDraw || st.unk == 0 && st.above != 0 {
		return fmt.Errorf("draw pile of %d: %d known above %d unknown", st.nDraw, st.above, st.unk)
	}
	for s := 0; s < MaxPlayers; s++ {
		i := st.last[s]
		if (i != none) != st.placed.Has(game.Seat(s)) {
			return fmt.Errorf("seat %d: last card %d but placed set %v", s, i, st.placed.List())
		}
		if i == none {
			continue
		}
		if i < 0 || i >= st.nPile || st.pileBy[i] != int8(s) {
			return fmt.Errorf("seat %d's last card is at %d, not one of its cards", s, i)
		}
		for j := i + 1; j < st.nPile; j++ {
			if st.pileBy[j] == int8(s) {
				return fmt.Errorf("seat %d placed card %d after its last card %d", s, j, i)
			}
		}
	}
	if st.phase == phaseHide && st.nPile != 0 {
		return fmt.Errorf("the active pile holds %d cards while hiding", st.nPile)
	}
	takenAll := 0
	for s := 0; s < n; s++ {
		takenAll += st.taken[s]
	}
	cur := 1
	if st.phase == phaseOver {
		cur = 0
	}
	if takenAll+cur+int(st.nLimits) != DeckSize(n) || takenAll != st.rounds {
		return fmt.Errorf("limit cards: %d taken, %d in the deck, %d resolved, for %d players", takenAll, st.nLimits, st.rounds, n)
	}
	deck := uint32(0)
	for _, l := range st.limits[:st.nLimits] {
		if l < 1 || l > LimitCards || (st.seen|deck)&(1<<uint(l-1)) != 0 {
			return fmt.Errorf("limit card %d in the deck is bad, twice or already seen", l)
		}
		deck |= 1 << uint(l-1)
	}
	return nil
}
