package cabo

import (
	"math/bits"

	"tapis/game"
)

// stallTurns is how many turns a seat plays in a round, at most, before a
// bot calls Cabo. The rules give no end to a round that nobody calls, and
// two search bots could pass for ever (each by a set claim its cards had
// already shown to fail, or, one card each, by taking the discard into its
// only slot: the same three cards going round). Between bots a round lasts
// 10 turns (2 players; median), 22 at the 99th percentile and 31 at most
// in 40 games each of heuristic, hard and normal bots, so 20 a seat (40 at
// 2 players) ends only a round that has stopped going anywhere.
const stallTurns = 20

// overdue reports whether this round has gone on so long (public: every
// seat saw every turn) that a bot whose turn begins calls Cabo.
func (st *State) overdue() bool { return st.turns >= stallTurns*int(st.n) }

// Prune implements game.Pruner: of seat s's moves, those worth a search's
// time, from what s knows. A round overdue leaves only the call, when
// nobody has called yet; otherwise every move stays but the set claims
// that s has seen to fail (two of the claimed slots hold cards it knows to
// differ): such a claim only passes the turn, and passing is how two
// search bots stalled a round.
func (st *State) Prune(s game.Seat, moves []game.Move) []game.Move {
	if st.phase == phaseTurn && st.turn == s && st.caller < 0 && st.overdue() {
		for _, m := range moves {
			if kindOf(m) == CallCabo {
				return append(moves[:0], m)
			}
		}
	}
	kept := moves[:0]
	for _, m := range moves {
		if k := kindOf(m); (k == TakeDiscard || k == Replace) && st.knownToFail(s, slotsOf(m)) {
			continue
		}
		kept = append(kept, m)
	}
	if len(kept) == 0 { // never: a single slot cannot fail; a guard
		return moves[:1]
	}
	return kept
}

// knownToFail reports whether seat s knows that a set claim on its slots
// mask fails: two of them hold cards it has seen, and they differ.
func (st *State) knownToFail(s game.Seat, mask uint8) bool {
	seen := mask & st.known[s][s]
	if bits.OnesCount8(seen) < 2 {
		return false
	}
	c := st.hands[s][bits.TrailingZeros8(seen)]
	for f := seen; f != 0; f &= f - 1 {
		if st.hands[s][bits.TrailingZeros8(f)] != c {
			return true
		}
	}
	return false
}
