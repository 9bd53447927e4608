package papayoo

import (
	"fmt"
	"math/bits"

	"tapis/game"
)

type phase int8

const (
	phasePass phase = iota // everyone chooses their cards to pass, at once
	phasePlay              // tricks
	phaseOver              // the game has ended
)

var phaseNames = [...]string{"pass", "play", "over"}

func (p phase) String() string { return phaseNames[p] }

const none int8 = -1

// State is a game of Papayoo in progress.
type State struct {
	opt    Options
	n      int8
	phase  phase
	rng    game.RNG
	stacks []stack // scripted deals of rounds 1, 2, ...; never changed

	rounds int       // completed rounds
	dealer game.Seat // this round's dealer, who leads the first trick

	hands [MaxPlayers]uint64
	// pass[s] is seat s's pass: the cards chosen so far in phasePass (they
	// stay in the hand until every seat has committed), the cards it
	// passed left afterwards.
	pass   [MaxPlayers]uint64
	passed game.Seats // seats whose pass is committed

	die     int8 // the plain suit the die named; none during the pass
	papayoo int8 // the 7 of that suit; none during the pass

	// playedBy[s] is every card seat s played this round (public).
	playedBy [MaxPlayers]uint64
	// voids[s] bit k: seat s failed to follow suit k this round, so it
	// holds none of it (public).
	voids [MaxPlayers]uint8
	// seq[:nSeq] is every card played this round, in order (public):
	// what the plays suggest of each seat's hand is read from it (see
	// infer; Belief replays it).
	seq  [DeckSize]int8
	nSeq int8

	turn     game.Seat
	leader   game.Seat
	led      int8             // the led suit, none before the trick's first card
	trick    [MaxPlayers]int8 // cards in play order from the leader
	nTrick   int8
	best     int8      // the highest card of the led suit so far
	winner   game.Seat // who played it
	trickPts int
	last     lastTrick

	taken       [MaxPlayers]int // points taken this round
	scores      [MaxPlayers]int
	roundScores [MaxPlayers]int
	winners     game.Seats
}

// lastTrick is the previous complete trick of the round, kept for views.
type lastTrick struct {
	cards  [MaxPlayers]int8
	leader game.Seat
	winner game.Seat
	points int
	valid  bool
}

// Players implements game.State.
func (st *State) Players() int { return int(st.n) }

// ToMove implements game.State.
func (st *State) ToMove() game.Seats {
	switch st.phase {
	case phasePass:
		return st.all() &^ st.passed
	case phasePlay:
		return game.Only(st.turn)
	}
	return 0
}

func (st *State) all() game.Seats { return game.Seats(1)<<uint(st.n) - 1 }

func (st *State) next(s game.Seat) game.Seat {
	if s++; s == game.Seat(st.n) {
		return 0
	}
	return s
}

func (st *State) prev(s game.Seat) game.Seat {
	if s == 0 {
		return game.Seat(st.n - 1)
	}
	return s - 1
}

func (st *State) passSize() int { return int(passSize[st.n]) }

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

// Reseed replaces the state's future randomness (deals and die rolls to
// come). The conformance suite uses it to check Sample.
func (st *State) Reseed(seed uint64) { st.rng = game.NewRNG(seed) }

// Check verifies the invariants: every card of the deck is in exactly one
// hand or has been played by exactly one seat; hands hold what the round
// says; passes are where they must be; the points still in play and those
// taken total 250, and every finished round scored 250.
func (st *State) Check() error {
	n := int(st.n)
	deck := deckFor(n)
	var seen, union uint64
	for s := 0; s < n; s++ {
		for _, set := range [2]uint64{st.hands[s], st.playedBy[s]} {
			if set&seen != 0 {
				return fmt.Errorf("card %s is in two places", CardName(int8(bits.TrailingZeros64(set&seen))))
			}
			seen |= set
		}
		union |= st.playedBy[s]
	}
	if err := st.checkSeq(union); err != nil {
		return err
	}
	if st.phase != phaseOver && seen != deck {
		return fmt.Errorf("cards not conserved: %d of %d, extra %v, missing %v",
			bits.OnesCount64(seen), bits.OnesCount64(deck), names(seen&^deck), names(deck&^seen))
	}
	if st.rounds > 0 {
		total := 0
		for s := 0; s < n; s++ {
			total += st.roundScores[s]
		}
		if total != RoundPoints {
			return fmt.Errorf("round %d scored %d points, not %d", st.rounds, total, RoundPoints)
		}
	}
	if st.phase == phaseOver {
		return nil
	}
	hs := int(handSize[n])
	played := 0
	for s := 0; s < n; s++ {
		played += bits.OnesCount64(st.playedBy[s])
	}
	tricks := played / n
	for s := 0; s < n; s++ {
		want := hs - tricks
		if st.phase == phasePlay && st.nTrick > 0 && st.hasPlayedInTrick(game.Seat(s)) {
			want--
		}
		if got := bits.OnesCount64(st.hands[s]); got != want {
			return fmt.Errorf("seat %d holds %d cards, want %d", s, got, want)
		}
	}
	pass := st.passSize()
	for s := 0; s < n; s++ {
		p := st.pass[s]
		k := bits.OnesCount64(p)
		switch {
		case st.phase == phasePass:
			if p&^st.hands[s] != 0 {
				return fmt.Errorf("seat %d passes a card it does not hold", s)
			}
			if k > pass || st.passed.Has(game.Seat(s)) != (k == pass) {
				return fmt.Errorf("seat %d: %d cards chosen, committed %v", s, k, st.passed.Has(game.Seat(s)))
			}
		default:
			to := st.next(game.Seat(s))
			if k != pass || p&^(st.hands[to]|st.playedBy[to]) != 0 {
				return fmt.Errorf("seat %d's pass is not with seat %d", s, to)
			}
		}
	}
	if st.phase == phasePass {
		if st.die != none || played != 0 {
			return fmt.Errorf("the die is rolled or cards are played during the pass")
		}
		return nil
	}
	if st.die < 0 || st.die >= Payoo || st.papayoo != seven(st.die) {
		return fmt.Errorf("die %d, papayoo %d", st.die, st.papayoo)
	}
	for s := 0; s < n; s++ {
		for k := int8(0); k < Suits; k++ {
			if st.voids[s]&(1<<uint(k)) != 0 && st.hands[s]&suitMask[k] != 0 {
				return fmt.Errorf("seat %d is void in %s but holds one", s, suitNames[k])
			}
		}
	}
	inPlay, taken := 0, st.trickPts
	for s := 0; s < n; s++ {
		for h := st.hands[s]; h != 0; h &= h - 1 {
			inPlay += CardPoints(int8(bits.TrailingZeros64(h)), st.papayoo)
		}
		taken += st.taken[s]
	}
	if inPlay+taken != RoundPoints {
		return fmt.Errorf("points in hands %d + taken %d != %d", inPlay, taken, RoundPoints)
	}
	return nil
}

// checkSeq verifies the round's plays in order against union, the cards
// the seats played: each once, none else, and the trick on the table last.
func (st *State) checkSeq(union uint64) error {
	var in uint64
	for _, c := range st.seq[:st.nSeq] {
		bit := uint64(1) << uint(c)
		if in&bit != 0 || union&bit == 0 {
			return fmt.Errorf("the plays in order %v are not the cards played %v", st.seq[:st.nSeq], names(union))
		}
		in |= bit
	}
	if in != union {
		return fmt.Errorf("the plays in order miss %v", names(union&^in))
	}
	if st.phase == phasePlay && st.nSeq%st.n != st.nTrick {
		return fmt.Errorf("%d cards played, %d on the trick", st.nSeq, st.nTrick)
	}
	for i, c := range st.trick[:st.nTrick] {
		if st.seq[int(st.nSeq-st.nTrick)+i] != c {
			return fmt.Errorf("the trick %v is not the last plays %v", st.trick[:st.nTrick], st.seq[st.nSeq-st.nTrick:st.nSeq])
		}
	}
	return nil
}

// hasPlayedInTrick reports whether seat s has a card in the current trick.
func (st *State) hasPlayedInTrick(s game.Seat) bool {
	d := int(s) - int(st.leader)
	if d < 0 {
		d += int(st.n)
	}
	return d < int(st.nTrick)
}
