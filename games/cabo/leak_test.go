package cabo

import (
	"bytes"
	"encoding/json"
	"math/bits"
	"testing"

	"tapis/game"
)

// seenBy is what seat s is sent after a move: its events and its view.
func seenBy(st *State, log *game.Log, s game.Seat) []byte {
	var b bytes.Buffer
	for _, e := range log.For(s) {
		data, _ := json.Marshal(e.Data)
		b.Write(data)
	}
	data, _ := json.Marshal(st.View(s))
	b.Write(data)
	return b.Bytes()
}

// secret returns the place whose card a private move shows to its actor
// (a peeked, spied or drawn card), or nil if the move shows nothing.
func secret(st *State, s game.Seat, gm game.Move) *int8 {
	switch kindOf(gm) {
	case Draw:
		if st.nDraw == 0 {
			return nil
		}
		return &st.draw[st.nDraw-1]
	case Peek:
		return &st.hands[s][slotA(gm).Slot]
	case Spy:
		a := slotA(gm)
		return &st.hands[a.Seat][a.Slot]
	case PeekInitial:
		return &st.hands[s][bits.TrailingZeros8(slotsOf(gm))]
	}
	return nil
}

// TestNoLeak: a peek, a spy, an initial peek and a drawn card reach only
// the seat allowed to see them. For each such move of many random games,
// a twin state gets a different card in the secret place (swapped with a
// card deep in the draw pile, which nobody knows); every other seat and a
// spectator must be sent exactly the same events and view in both.
func TestNoLeak(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 40
	}
	checked := 0
	var buf []game.Move
	for g := 0; g < games; g++ {
		st, _ := NewState(game.Config{Players: 2 + g%4, Seed: uint64(g)})
		rng := game.NewRNG(uint64(g))
		for !st.Over() {
			to := st.ToMove()
			s := to.Nth(rng.IntN(to.Len()))
			buf = st.Legal(s, buf[:0])
			m := buf[rng.IntN(len(buf))]
			twin := *st
			if p := secret(&twin, s, m); p != nil && twin.nDraw > 1 {
				for i := 0; i < int(twin.nDraw)-1; i++ {
					if twin.draw[i] != *p {
						twin.draw[i], *p = *p, twin.draw[i]
						break
					}
				}
				var la, lb game.Log
				a, b := *st, twin
				if err := a.Apply(s, m, &la); err != nil {
					t.Fatal(err)
				}
				if err := b.Apply(s, m, &lb); err != nil {
					t.Fatal(err)
				}
				// A move that ends the round reveals every card, rightly.
				ended := a.rounds != st.rounds
				for o := game.Spectator; o < game.Seat(st.n) && !ended; o++ {
					if o == s {
						continue
					}
					if !bytes.Equal(seenBy(&a, &la, o), seenBy(&b, &lb, o)) {
						t.Fatalf("game %d: seat %d's %s leaks to seat %d:\n%s\n%s", g, s, kindOf(m), o, seenBy(&a, &la, o), seenBy(&b, &lb, o))
					}
				}
				if bytes.Equal(seenBy(&a, &la, s), seenBy(&b, &lb, s)) {
					t.Fatalf("game %d: seat %d's %s did not show it the card", g, s, kindOf(m))
				}
				checked++
			}
			if err := st.Apply(s, m, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < games {
		t.Fatalf("only %d secret moves checked", checked)
	}
}

// TestViewsShowNoFaceDownCard: a view carries card values only in the
// discard pile, the seat's own drawn card, and the last round's reveal.
func TestViewsShowNoFaceDownCard(t *testing.T) {
	st, _ := NewState(game.Config{Players: 3, Seed: 5})
	var buf []game.Move
	rng := game.NewRNG(5)
	for i := 0; i < 400 && !st.Over(); i++ {
		for s := game.Spectator; s < 3; s++ {
			v := st.view(s)
			holds := st.phase == phaseDrawn && s == st.turn
			if (v.Drawn != nil) != holds {
				t.Fatalf("seat %d: drawn card shown = %v, holds it = %v", s, v.Drawn != nil, holds)
			}
		}
		to := st.ToMove()
		s := to.Nth(rng.IntN(to.Len()))
		buf = st.Legal(s, buf[:0])
		if err := st.Apply(s, buf[rng.IntN(len(buf))], nil); err != nil {
			t.Fatal(err)
		}
	}
}

// Refusals must not reveal cards: a seat out of turn is told whose turn it
// is before anything about the move.
func TestErrorsRevealNothing(t *testing.T) {
	tb := newTable(t, 2, "", deal(h2, 0, 9))
	tb.peekAll()
	tb.do(0, `{"type":"draw"}`)
	tb.refuse(1, `{"type":"peek","slot":0}`, "seat 0's turn")
	tb.refuse(1, `{"type":"spy","seat":0,"slot":0}`, "seat 0's turn")
}
