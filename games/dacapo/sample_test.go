package dacapo

import (
	"encoding/json"
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

// Reseed redraws the future and only it: the order of the cards face
// down (personal piles below their tops, the draw pile), which nobody has
// seen, and the shuffles to come. Every hand, every face-up card and every
// count stays, so that no seat's view changes; the cards face down are
// the same cards, and some seed puts them in another order.
func TestReseedRedrawsOnlyTheFuture(t *testing.T) {
	tb := newTable(t, 3, `{"pile_size":6}`, `{"stocks":[[1,4,7,2],[2,8,3,3],[9,9,5,1]],"hands":[[2,3,"J",7],[5,5,5,5],[6,6,6,6]]}`)
	tb.play(0, stock(0))
	tb.play(0, opponent(1, 0))
	tb.play(0, helper("7", 1))
	st := tb.st
	down := func(y *State) (n [Kinds]int) {
		for s := 0; s < int(y.n); s++ {
			for _, c := range y.stock[s][:max(y.nStock[s]-1, 0)] {
				n[c]++
			}
		}
		for _, c := range y.drawPile() {
			n[c]++
		}
		return n
	}
	moved := false
	for seed := uint64(0); seed < 20; seed++ {
		y := st.Clone().(*State)
		y.Reseed(seed)
		if err := y.Check(); err != nil {
			t.Fatal(err)
		}
		if y.hand != st.hand || y.top != st.top || y.nStock != st.nStock || y.nHand != st.nHand || y.nDraw != st.nDraw ||
			y.htop != st.htop || y.hlen != st.hlen || y.pile != st.pile || y.nPile != st.nPile || y.nAside != st.nAside {
			t.Fatalf("seed %d: a hand, a face-up card or a count changed", seed)
		}
		for s := game.Spectator; s < 3; s++ {
			if a, b := viewJSON(t, st, s), viewJSON(t, y, s); a != b {
				t.Fatalf("seed %d: seat %d's view changed:\n%s\n%s", seed, s, a, b)
			}
		}
		if down(y) != down(st) {
			t.Fatalf("seed %d: the cards face down are not the same cards", seed)
		}
		if y.rng == st.rng || y.stacks != nil {
			t.Fatalf("seed %d: the shuffles to come are the same", seed)
		}
		moved = moved || y.stock != st.stock || y.cards != st.cards
		// The new order owes nothing to the old: y, already in another
		// order, is reseeded as st is.
		again, first := y.Clone().(*State), st.Clone().(*State)
		again.Reseed(seed + 1)
		first.Reseed(seed + 1)
		if again.stock != first.stock || again.cards != first.cards {
			t.Fatalf("seed %d: the order drawn depends on the order before", seed)
		}
	}
	if !moved {
		t.Fatal("20 seeds never reordered the cards face down")
	}
}

// viewJSON is seat s's view of st as the server would send it.
func viewJSON(t *testing.T, st game.State, s game.Seat) string {
	t.Helper()
	b, err := json.Marshal(st.View(s))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
