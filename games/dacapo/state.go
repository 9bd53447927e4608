package dacapo

import (
	"fmt"

	"tapis/game"
)

// State is a game (or match) of Da Capo! in progress.
type State struct {
	opt    Options
	n      int8
	rng    game.RNG
	stacks []stack // scripted deals of games 1, 2, ...; never changed

	games   int       // finished games of the match
	over    bool      // the match has ended
	turn    game.Seat // whose turn it is
	starter game.Seat // who started the current game

	// stock[s][:nStock[s]] is seat s's personal pile, bottom first: the
	// last card is the face-up top.
	stock  [MaxPlayers][MaxPileSize]int8
	nStock [MaxPlayers]int8
	// top[s] is seat s's face-up personal card (0 once the pile is
	// empty), and htop[k] the top of helper pile k (0: empty): copies of
	// the piles' tops, since Legal reads nothing more often.
	top  [MaxPlayers]int8
	htop [MaxPlayers * Helpers]int8
	// hand[s][c] counts seat s's cards of code c: a hand has no order, and
	// moves name hand cards by value.
	hand  [MaxPlayers][Kinds]int8
	nHand [MaxPlayers]int8
	// handMask[s] has bit c set when seat s holds a card of code c, so
	// that Legal visits only the values in hand.
	handMask [MaxPlayers]uint16
	// The helper piles are linked lists in one pool of slots, since a
	// single pile may grow to almost any size and fixed arrays per pile
	// would make the state large (slow to copy and compare). Pile
	// k = s*Helpers+i starts at slot hhead[k], its top card; hnext leads
	// down the pile; hlen[k] is its height. Free slots are chained from
	// hfree. Every change is O(1).
	hcard [DeckSize]int8
	hnext [DeckSize]uint8
	hhead [MaxPlayers * Helpers]uint8
	hlen  [MaxPlayers * Helpers]uint8
	hfree uint8
	// pile[p][:nPile[p]] is building pile p, bottom first; its value is
	// nPile[p] (0: no pile at this position).
	pile  [Piles][Top]int8
	nPile [Piles]int8
	// cards holds the draw pile at its start, cards[:nDraw] with the top
	// last, and the completed piles set aside at its end,
	// cards[DeckSize-nAside:], the latest first: together they never
	// exceed the deck.
	cards  [DeckSize]int8
	nDraw  uint8
	nAside uint8

	// played says a personal-pile card was played this turn; quiet counts
	// the turns in a row that ended with nothing to draw, nothing set aside
	// and no personal-pile card played (the stalemate rule).
	played bool
	quiet  int8
	// For search bots: turns counts the turns ended since the state was
	// made (Turns), moves the moves applied, last the latest of them;
	// helpScore[s] rates seat s's latest helper move (helperScore, for
	// Value).
	turns     int32
	moves     int32
	last      game.Move
	helpScore [MaxPlayers]int16
	// rplan[rnext:rlen] is the rest of the build sequence RolloutMove
	// planned for the turn seat; a playout follows it while the moves
	// applied are its own (rat: the move count at which rplan[rnext] is
	// due, after move rprev, in turn rturn).
	rplan [maxPlan]uint32
	rnext int8
	rlen  int8
	rat   int32
	rturn int32
	rprev game.Move

	scores      [MaxPlayers]int
	roundScores [MaxPlayers]int
	lastWinners game.Seats // winners of the last finished game
	stalemate   bool       // the last finished game ended by the stalemate rule
	winners     game.Seats // the match's winners, once over
}

// Players implements game.State.
func (st *State) Players() int { return int(st.n) }

// ToMove implements game.State.
func (st *State) ToMove() game.Seats {
	if st.over {
		return 0
	}
	return game.Only(st.turn)
}

// Over implements game.State.
func (st *State) Over() bool { return st.over }

// Result implements game.State.
func (st *State) Result() game.Result {
	var r game.Result
	st.ResultTo(&r)
	return r
}

// ResultTo implements game.ResultWriter.
func (st *State) ResultTo(r *game.Result) {
	r.Set(st.games, st.scores[:st.n], st.roundScores[:st.n], st.over, st.winners)
}

// Clone implements game.State.
func (st *State) Clone() game.State {
	c := *st
	return &c
}

// Options returns the options the game was created with.
func (st *State) Options() Options { return st.opt }

func (st *State) next(s game.Seat) game.Seat { return (s + 1) % game.Seat(st.n) }

// stockTop is seat s's face-up personal card, or 0 if the pile is empty.
func (st *State) stockTop(s game.Seat) int8 {
	return st.top[s]
}

// popStock takes seat s's personal top and turns up the next card.
func (st *State) popStock(s game.Seat) int8 {
	st.nStock[s]--
	c := st.stock[s][st.nStock[s]]
	st.top[s] = 0
	if st.nStock[s] > 0 {
		st.top[s] = st.stock[s][st.nStock[s]-1]
	}
	return c
}

// noSlot ends a chain of helper slots.
const noSlot = 0xff

// helperTop is the top of seat s's helper pile i, or 0 if it is empty.
func (st *State) helperTop(s game.Seat, i int) int8 {
	return st.htop[int(s)*Helpers+i]
}

// helperPile is seat s's helper pile i, bottom first.
func (st *State) helperPile(s game.Seat, i int) []int8 {
	k := int(s)*Helpers + i
	out := make([]int8, st.hlen[k])
	j := len(out)
	for h := st.hhead[k]; h != noSlot && j > 0; h = st.hnext[h] {
		j--
		out[j] = st.hcard[h]
	}
	return out
}

// pushHelper puts card c on top of seat s's helper pile i.
func (st *State) pushHelper(s game.Seat, i int, c int8) {
	k := int(s)*Helpers + i
	h := st.hfree
	st.hfree = st.hnext[h]
	st.hcard[h] = c
	st.hnext[h] = st.hhead[k]
	st.hhead[k] = h
	st.hlen[k]++
	st.htop[k] = c
}

// popHelper takes the top card of seat s's helper pile i, which must
// not be empty.
func (st *State) popHelper(s game.Seat, i int) int8 {
	k := int(s)*Helpers + i
	h := st.hhead[k]
	st.hhead[k] = st.hnext[h]
	st.hlen[k]--
	st.htop[k] = 0
	if st.hhead[k] != noSlot {
		st.htop[k] = st.hcard[st.hhead[k]]
	}
	st.hnext[h] = st.hfree
	st.hfree = h
	return st.hcard[h]
}

// clearHelpers empties every helper pile.
func (st *State) clearHelpers() {
	for k := range st.hhead {
		st.hhead[k] = noSlot
		st.hlen[k] = 0
		st.htop[k] = 0
	}
	for h := range st.hnext {
		st.hnext[h] = uint8(h + 1)
		st.hcard[h] = 0
	}
	st.hnext[DeckSize-1] = noSlot
	st.hfree = 0
}

// drawPile is the draw pile, top last; aside the set-aside piles.
func (st *State) drawPile() []int8 { return st.cards[:st.nDraw] }
func (st *State) aside() []int8    { return st.cards[DeckSize-int(st.nAside):] }

func (st *State) addHand(s game.Seat, c int8) {
	st.hand[s][c]++
	st.nHand[s]++
	st.handMask[s] |= 1 << uint(c)
}

func (st *State) takeHand(s game.Seat, c int8) {
	st.hand[s][c]--
	st.nHand[s]--
	if st.hand[s][c] == 0 {
		st.handMask[s] &^= 1 << uint(c)
	}
}

func (st *State) clearHand(s game.Seat) {
	st.hand[s] = [Kinds]int8{}
	st.nHand[s] = 0
	st.handMask[s] = 0
}

// fits reports whether card c may go onto building pile p: a 1 or a
// Joker starts a pile, then each card is one higher or a Joker.
func (st *State) fits(c int8, p int) bool {
	return c == Joker || c == st.nPile[p]+1
}

// fitsAny reports whether card c fits some building pile.
func (st *State) fitsAny(c int8) bool {
	if c == Joker {
		return true
	}
	return c == st.nPile[0]+1 || c == st.nPile[1]+1 || c == st.nPile[2]+1
}

// Check verifies the invariants the conformance suite relies on: the 165
// cards are all somewhere, once; building piles hold runs; hands hold at
// most 4.
func (st *State) Check() error {
	var seen [Kinds]int
	add := func(c int8) error {
		if c < 1 || c > Joker {
			return fmt.Errorf("a card with code %d", c)
		}
		seen[c]++
		return nil
	}
	for s := 0; s < int(st.n); s++ {
		var want int8
		if st.nStock[s] > 0 {
			want = st.stock[s][st.nStock[s]-1]
		}
		if st.top[s] != want {
			return fmt.Errorf("seat %d: personal top %d cached as %d", s, want, st.top[s])
		}
		for _, c := range st.stock[s][:st.nStock[s]] {
			if err := add(c); err != nil {
				return err
			}
		}
		total := 0
		for c, k := range st.hand[s] {
			if k < 0 || (c == 0 && k != 0) {
				return fmt.Errorf("seat %d: hand count %d of code %d", s, k, c)
			}
			if (k > 0) != (st.handMask[s]&(1<<uint(c)) != 0) {
				return fmt.Errorf("seat %d: hand mask %b disagrees with %d of code %d", s, st.handMask[s], k, c)
			}
			seen[c] += int(k)
			total += int(k)
		}
		if total != int(st.nHand[s]) || total > HandSize {
			return fmt.Errorf("seat %d: hand of %d cards, counted %d", s, st.nHand[s], total)
		}
		for i := 0; i < Helpers; i++ {
			for _, c := range st.helperPile(game.Seat(s), i) {
				if err := add(c); err != nil {
					return err
				}
			}
		}
	}
	for p := 0; p < Piles; p++ {
		if st.nPile[p] < 0 || st.nPile[p] >= Top {
			return fmt.Errorf("building pile %d has value %d", p, st.nPile[p])
		}
		for i, c := range st.pile[p][:st.nPile[p]] {
			if c != Joker && c != int8(i+1) {
				return fmt.Errorf("building pile %d: card %d at height %d", p, c, i+1)
			}
			seen[c]++
		}
	}
	if int(st.nDraw)+int(st.nAside) > DeckSize {
		return fmt.Errorf("a draw pile of %d and %d cards set aside", st.nDraw, st.nAside)
	}
	slots := 0
	for h := st.hfree; h != noSlot && slots <= DeckSize; h = st.hnext[h] {
		slots++
	}
	for k := range st.hhead {
		n := 0
		for h := st.hhead[k]; h != noSlot && n <= DeckSize; h = st.hnext[h] {
			n++
		}
		if n != int(st.hlen[k]) || k >= int(st.n)*Helpers && n != 0 {
			return fmt.Errorf("helper pile %d: %d cards linked, height %d", k, n, st.hlen[k])
		}
		var want int8
		if n > 0 {
			want = st.hcard[st.hhead[k]]
		}
		if st.htop[k] != want {
			return fmt.Errorf("helper pile %d: top %d cached as %d", k, want, st.htop[k])
		}
		slots += n
	}
	if slots != DeckSize {
		return fmt.Errorf("helper slots: %d free or used, want %d", slots, DeckSize)
	}
	for _, c := range st.drawPile() {
		if err := add(c); err != nil {
			return err
		}
	}
	for _, c := range st.aside() {
		if err := add(c); err != nil {
			return err
		}
	}
	for c := 1; c < Kinds; c++ {
		if seen[c] != perKind {
			return fmt.Errorf("cards not conserved: %d of code %d, want %d", seen[c], c, perKind)
		}
	}
	if !st.over {
		for s := 0; s < int(st.n); s++ {
			if st.nStock[s] == 0 {
				return fmt.Errorf("seat %d has an empty personal pile but the game goes on", s)
			}
		}
		// An empty hand draws as soon as cards exist, and a turn with an
		// empty hand and no build left ends by itself: Legal's End relies
		// on the first, the seat to move having a move on the second.
		if t := st.turn; st.nHand[t] == 0 {
			if st.nDraw > 0 || st.nAside > 0 {
				return fmt.Errorf("seat %d to move with an empty hand and %d cards to draw, %d set aside", t, st.nDraw, st.nAside)
			}
			if !st.canBuild(t) {
				return fmt.Errorf("seat %d to move with an empty hand and no build: the turn should have ended", t)
			}
		}
	}
	return nil
}

// Reseed replaces the state's future randomness with seed's: the
// reshuffles and deals to come, and the order of the cards face down (the
// personal piles below their tops and the draw pile). Nobody has seen
// those: each comes to light only as the card above it is played or
// drawn, so their order is the future as much as a shuffle to come. They
// are gathered and dealt back to the same places in an order drawn from
// seed alone (two states that differ only there are reseeded alike); every
// card someone has seen (the hands, everything face up) stays. Like
// Sample, it does not track that a draw pile made anew from the set-aside
// piles holds known values: its cards are pooled with the personal
// piles'. The conformance suite uses Reseed to check Sample; the cheating bot that
// does not see the future (cheat-future) redraws it in each world, and so
// sees every hand but not what the piles will turn up.
func (st *State) Reseed(seed uint64) {
	r := game.NewRNG(seed)
	st.stacks = nil // the deals of the match's later games: the future too
	var left [Kinds]int8
	for t := 0; t < int(st.n); t++ {
		if st.nStock[t] > 1 {
			for _, c := range st.stock[t][:st.nStock[t]-1] {
				left[c]++
			}
		}
	}
	for _, c := range st.drawPile() {
		left[c]++
	}
	var down [DeckSize]int8
	shuffled(&down, &left, &r)
	k := 0
	for t := 0; t < int(st.n); t++ {
		if st.nStock[t] > 1 {
			k += copy(st.stock[t][:st.nStock[t]-1], down[k:])
		}
	}
	copy(st.drawPile(), down[k:])
	st.rlen = 0 // a playout's plan may have counted on the draw to come
	st.rng = r.Child()
}
