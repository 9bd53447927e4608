package limits

import (
	"testing"

	"tapis/game"
)

// Sample keeps what the seat knows (its own cards, the pile in order, the
// exchanged cards on the draw pile, cards known to be in a hand) and
// redraws the rest (others' unknown cards and hidden cards, the unknown
// part of the draw pile, the limit deck).
func TestSampleKeepsWhatTheSeatKnows(t *testing.T) {
	st := stacked(t, 3, `{"hands":[["red","red","red","red","red"],["green","green","green","green","purple"],["blue","blue","blue","purple","purple"]],"draw":["yellow","yellow","yellow","yellow","purple","red"],"limits":[6,7]}`)
	hideAll(t, st, `["red"]`, `["purple"]`, `["purple"]`)
	do(t, st, 0, `{"type":"place","card":"red"}`)
	do(t, st, 1, `{"type":"exchange","color":"green"}`)
	do(t, st, 2, `{"type":"place","card":"blue"}`) // draws a green everyone knows
	redrawn := map[game.Seat]bool{}
	for i := uint64(0); i < 30; i++ {
		for s := game.Seat(0); s < 3; s++ {
			r := game.NewRNG(i)
			y := st.Sample(s, &r).(*State)
			if err := y.Check(); err != nil {
				t.Fatal(err)
			}
			if y.hand[s] != st.hand[s] || y.hidden[s] != st.hidden[s] {
				t.Fatalf("seat %d: its own cards changed", s)
			}
			if y.pile != st.pile || y.pileBy != st.pileBy || y.nPile != st.nPile {
				t.Fatalf("seat %d: the active pile changed", s)
			}
			if drawTop(y, 1) != "green" || y.knownHand != st.knownHand || y.knownHeld != st.knownHeld {
				t.Fatalf("seat %d: the exchanged green on the draw pile or the known cards moved", s)
			}
			if y.hand[2][Green] < 1 {
				t.Fatalf("seat %d: seat 2's known green was redrawn", s)
			}
			if y.cur != st.cur || y.nLimits != st.nLimits {
				t.Fatalf("seat %d: the limit card changed", s)
			}
			o := (s + 1) % 3
			if y.hand[o] != st.hand[o] || y.hidden[o] != st.hidden[o] || y.draw != st.draw {
				redrawn[s] = true
			}
		}
	}
	for s := game.Seat(0); s < 3; s++ {
		if !redrawn[s] {
			t.Errorf("seat %d: 30 samples never redrew what it cannot see", s)
		}
	}
}
