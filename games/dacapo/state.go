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
	// hand[s][c] counts seat s's cards of code c: a hand has no order, and
	// moves name hand cards by value.
	hand  [MaxPlayers][Kinds]int8
	nHand [MaxPlayers]int8
	// handMask[s] has bit c set when seat s holds a card of code c, so
	// that Legal visits only the values in hand.
	handMask [MaxPlayers]uint16
	// helper[s][i][:nHelper[s][i]] is seat s's helper pile i, bottom first.
	helper  [MaxPlayers][Helpers][DeckSize]int8
	nHelper [MaxPlayers][Helpers]uint8
	// pile[p][:nPile[p]] is building pile p, bottom first; its value is
	// nPile[p] (0: no pile at this position).
	pile   [Piles][Top]int8
	nPile  [Piles]int8
	draw   [DeckSize]int8 // draw[nDraw-1] is the top
	nDraw  uint8
	aside  [DeckSize]int8 // completed piles, in the order they were set aside
	nAside uint8

	// played says a personal-pile card was played this turn; quiet counts
	// the turns in a row that ended with nothing to draw, nothing set aside
	// and no personal-pile card played (the stalemate rule).
	played bool
	quiet  int8

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
	res := game.Result{
		Rounds:      st.games,
		Scores:      append([]int(nil), st.scores[:st.n]...),
		RoundScores: []int{},
		Winners:     []game.Seat{},
	}
	if st.games > 0 {
		res.RoundScores = append(res.RoundScores, st.roundScores[:st.n]...)
	}
	if st.over {
		res.Winners = st.winners.List()
	}
	return res
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
	if st.nStock[s] == 0 {
		return 0
	}
	return st.stock[s][st.nStock[s]-1]
}

// helperTop is the top of seat s's helper pile i, or 0 if it is empty.
func (st *State) helperTop(s game.Seat, i int) int8 {
	if st.nHelper[s][i] == 0 {
		return 0
	}
	return st.helper[s][i][st.nHelper[s][i]-1]
}

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
			for _, c := range st.helper[s][i][:st.nHelper[s][i]] {
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
	for _, c := range st.draw[:st.nDraw] {
		if err := add(c); err != nil {
			return err
		}
	}
	for _, c := range st.aside[:st.nAside] {
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
	}
	return nil
}

// Reseed replaces the state's future randomness (reshuffles and deals to
// come). The conformance suite uses it to check Sample.
func (st *State) Reseed(seed uint64) { st.rng = game.NewRNG(seed) }
