package dacapo

import (
	"testing"

	"tapis/game"
)

// Sample keeps what the seat knows (its hand, every face-up card, every
// count) and redraws the rest (other hands, personal piles below their
// tops, the draw pile).
func TestSampleKeepsWhatTheSeatKnows(t *testing.T) {
	tb := newTable(t, 3, `{"pile_size":6}`, `{"stocks":[[1,4],[2,8],[9,9]],"hands":[[2,3,"J",7],[5,5,5,5],[6,6,6,6]]}`)
	tb.play(0, stock(0))
	tb.play(0, opponent(1, 0))
	tb.play(0, helper("7", 1))
	tb.play(1, helper("5", 2))
	st := tb.st
	redrawn := map[game.Seat]bool{}
	for i := uint64(0); i < 30; i++ {
		for s := game.Spectator; s < 3; s++ {
			r := game.NewRNG(i)
			y := st.Sample(s, &r).(*State)
			if err := y.Check(); err != nil {
				t.Fatal(err)
			}
			if s >= 0 && y.hand[s] != st.hand[s] {
				t.Fatalf("seat %d: its own hand changed", s)
			}
			if y.top != st.top || y.nStock != st.nStock || y.nHand != st.nHand || y.nDraw != st.nDraw {
				t.Fatalf("seat %d: a top or a count changed", s)
			}
			if y.htop != st.htop || y.hlen != st.hlen || y.pile != st.pile || y.nPile != st.nPile || y.nAside != st.nAside {
				t.Fatalf("seat %d: a helper or building pile changed", s)
			}
			if y.rng == st.rng || y.stacks != nil {
				t.Fatalf("seat %d: the sample keeps the true future", s)
			}
			o := (s + 1 + 3) % 3
			if y.hand[o] != st.hand[o] || y.stock != st.stock || y.cards != st.cards {
				redrawn[s] = true
			}
		}
	}
	for s := game.Spectator; s < 3; s++ {
		if !redrawn[s] {
			t.Errorf("seat %d: 30 samples never redrew what it cannot see", s)
		}
	}
}
