package cabo

import (
	"fmt"

	"tapis/game"
)

type phase int8

const (
	phasePeek  phase = iota // everyone chooses their initial peek at once
	phaseTurn               // the turn seat draws, takes the discard or calls
	phaseDrawn              // the turn seat holds a drawn card
	phaseOver               // the game has ended
)

var phaseNames = [...]string{"peek", "turn", "drawn", "over"}

func (p phase) String() string { return phaseNames[p] }

const none int8 = -1 // an empty slot, or no card held

// State is a game of Cabo in progress.
type State struct {
	opt    Options
	n      int8
	rng    game.RNG
	stacks []stack // scripted deals of rounds 1, 2, ...; never changed

	rounds int // completed rounds
	phase  phase
	turn   game.Seat
	peeked game.Seats // seats done with the initial peek

	hands   [MaxPlayers][MaxSlots]int8
	fill    [MaxPlayers]uint8 // fill[s] bit i: seat s's slot i holds a card
	draw    [DeckSize]int8    // draw[nDraw-1] is the top
	nDraw   int8
	discard [DeckSize]int8 // discard[nDiscard-1] is the top
	nDisc   int8
	// discSum is the sum of discard[:nDisc], kept as the pile changes:
	// the playout policy reads it at every turn (mindOf).
	discSum int16
	drawn   int8 // the card the turn seat holds in phaseDrawn

	caller    game.Seat // who called Cabo this round, or -1
	finalLeft int8      // final turns still to play after the call
	// turns counts the turns ended this round (public: everyone saw
	// them), for the bots' bound on a round that nobody calls (overdue).
	turns int

	// known[k][j] has bit i set when seat k knows the card in seat j's slot
	// i. Every action is public, so these bits are public too; the cards
	// behind them are not. Sample keeps exactly what the seat knows.
	known [MaxPlayers][MaxPlayers]uint8
	// kept[j] has bit i set when seat j put a card it drew (not the public
	// discard) into its slot i, and the card has not moved since: public,
	// and a hint that the card is low, which Sample and the rollout use.
	kept [MaxPlayers]uint8

	scores      [MaxPlayers]int
	roundScores [MaxPlayers]int
	resets      [MaxPlayers]int
	last        lastRound // the previous round, revealed to everyone
	winners     game.Seats
}

// Players implements game.State.
func (st *State) Players() int { return int(st.n) }

// ToMove implements game.State.
func (st *State) ToMove() game.Seats {
	switch st.phase {
	case phasePeek:
		return st.all() &^ st.peeked
	case phaseOver:
		return 0
	}
	return game.Only(st.turn)
}

func (st *State) all() game.Seats { return game.Seats(1)<<uint(st.n) - 1 }

// Over implements game.State.
func (st *State) Over() bool { return st.phase == phaseOver }

// Result implements game.State.
func (st *State) Result() game.Result {
	var r game.Result
	st.ResultTo(&r)
	return r
}

// ResultTo implements game.ResultWriter.
func (st *State) ResultTo(r *game.Result) {
	r.Set(st.rounds, st.scores[:st.n], st.roundScores[:st.n], st.Over(), st.winners)
}

// Clone implements game.State.
func (st *State) Clone() game.State {
	c := *st
	return &c
}

// Options returns the options the game was created with.
func (st *State) Options() Options { return st.opt }

func (st *State) topDiscard() int8 { return st.discard[st.nDisc-1] }

func (st *State) pushDiscard(c int8) {
	st.discard[st.nDisc] = c
	st.nDisc++
	st.discSum += int16(c)
}

func (st *State) filled(s game.Seat) uint8 { return st.fill[s] }

func (st *State) next(s game.Seat) game.Seat { return (s + 1) % game.Seat(st.n) }

// Check verifies the invariants the conformance suite relies on: the 52
// cards are all somewhere, once, and nobody knows an empty slot.
func (st *State) Check() error {
	var seen [Values]int8
	add := func(c int8) { seen[c]++ }
	for s := 0; s < int(st.n); s++ {
		for i := 0; i < MaxSlots; i++ {
			c := st.hands[s][i]
			if c == none {
				continue
			}
			if i >= st.opt.HandSize {
				return fmt.Errorf("seat %d has a card in slot %d beyond hand_size", s, i)
			}
			add(c)
		}
	}
	for _, c := range st.draw[:st.nDraw] {
		add(c)
	}
	for _, c := range st.discard[:st.nDisc] {
		add(c)
	}
	if st.drawn != none {
		if st.phase != phaseDrawn {
			return fmt.Errorf("a drawn card is held in phase %s", st.phase)
		}
		add(st.drawn)
	}
	sum := 0
	for _, c := range st.discard[:st.nDisc] {
		sum += int(c)
	}
	if sum != int(st.discSum) {
		return fmt.Errorf("discard pile sums to %d, recorded %d", sum, st.discSum)
	}
	if seen != count {
		return fmt.Errorf("cards not conserved: have %v, want %v", seen, count)
	}
	if st.phase != phaseOver && st.nDisc == 0 {
		return fmt.Errorf("the discard pile is empty")
	}
	for j := 0; j < int(st.n); j++ {
		var m uint8
		for i, c := range st.hands[j][:st.opt.HandSize] {
			if c != none {
				m |= 1 << uint(i)
			}
		}
		if m != st.fill[j] {
			return fmt.Errorf("seat %d: filled-slot mask %b, cards say %b", j, st.fill[j], m)
		}
	}
	for k := 0; k < int(st.n); k++ {
		for j := 0; j < int(st.n); j++ {
			if st.known[k][j]&^st.filled(game.Seat(j)) != 0 {
				return fmt.Errorf("seat %d knows an empty slot of seat %d", k, j)
			}
		}
		if st.kept[k]&^st.filled(game.Seat(k)) != 0 {
			return fmt.Errorf("seat %d kept a drawn card in an empty slot", k)
		}
	}
	return nil
}

// Reseed replaces the state's future randomness (shuffles to come). A
// server may reseed a table so that nobody can derive the future from a
// known seed; the conformance suite uses it to check Sample.
func (st *State) Reseed(seed uint64) { st.rng = game.NewRNG(seed) }
