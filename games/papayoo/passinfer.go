package papayoo

import "tapis/game"

// What the pass says of the hands: most players (and the heuristic bot)
// pass their most dangerous cards (dangerousPass), so a seat kept none
// more dangerous than those it passed, save the cards it received in
// turn. After the pass a seat knows two passes: its own, which its left
// neighbour received, and its right neighbour's, which it received. A
// sample (Sample) guesses the others (each the receiver's most dangerous
// cards, since what a seat received was its giver's most dangerous), and
// prefers a deal where every other seat's pass is the one the rule would
// choose from the hand it held before the pass: of passTries deals, the
// first where every seat's pass fits, else the one where fewest do not.
// A guess about how people pass, never a fact about cards: a deal where
// nobody's pass fits is still drawn when no better one turns up, so
// players who pass otherwise keep the worlds that explain them.

// passTries is how many deals a sample tries for one whose passes fit.
// Each try costs a deal and two passes a seat worked out (a few µs at 4
// players); the iteration the sample serves costs some 10.
const passTries = 4

// guessPasses sets y.pass for the seats whose pass s does not know, after
// the transfer: each is its receiver's most dangerous cards (all of it
// held or played since).
func (y *State) guessPasses(s game.Seat, k int) {
	for t := game.Seat(0); t < game.Seat(y.n); t++ {
		if t == s || t == y.prev(s) {
			continue
		}
		to := y.next(t)
		y.pass[t] = dangerousPass(y.hands[to]|y.playedBy[to], k)
	}
}

// passMisfits counts the seats other than s whose pass y says is not
// the one the heuristic's rule would have chosen from the hand they held
// before it: what they hold or played, less what they received, plus what
// they passed.
func (y *State) passMisfits(s game.Seat, k int) int {
	bad := 0
	for t := game.Seat(0); t < game.Seat(y.n); t++ {
		if t == s {
			continue
		}
		had := (y.hands[t] | y.playedBy[t]) &^ y.pass[y.prev(t)]
		if _, ok := greedyPass(had|y.pass[t], k, y.pass[t]); !ok {
			bad++
		}
	}
	return bad
}
