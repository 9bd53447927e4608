package dacapo

import (
	"encoding/json"
	"reflect"
	"testing"

	"tapis/game"
)

// Every event a seat or a spectator receives holds only cards it may
// know: cards drawn or dealt into a hand go to that hand's seat alone;
// what everyone is told is what everyone can see on the table.
func TestEventsLeakNothing(t *testing.T) {
	for _, cfg := range configs() {
		for g := uint64(0); g < 20; g++ {
			cfg.Seed = g + 1
			st, err := NewState(cfg)
			if err != nil {
				t.Fatal(err)
			}
			rng := game.NewRNG(g)
			var log game.Log
			var buf []game.Move
			for moves := 0; !st.Over(); moves++ {
				s := st.turn
				buf = st.Legal(s, buf[:0])
				m := buf[rng.IntN(len(buf))]
				log.Reset()
				before := *st
				if err := st.Apply(s, m, &log); err != nil {
					t.Fatal(err)
				}
				for _, e := range log.Events {
					checkEvent(t, &before, st, s, m, e)
				}
			}
		}
	}
}

func checkEvent(t *testing.T, before, st *State, actor game.Seat, m game.Move, e game.Event) {
	t.Helper()
	ev := e.Data.(Event)
	if len(ev.Cards) > 0 && e.To != game.Only(ev.Seat) {
		t.Fatalf("%s event with cards %v goes to %v, not seat %d alone", ev.Type, ev.Cards, e.To.List(), ev.Seat)
	}
	switch ev.Type {
	case "hand":
		if e.To != game.Only(ev.Seat) || len(ev.Cards) != HandSize {
			t.Fatalf("hand event %+v to %v", ev, e.To.List())
		}
	case "draw":
		if e.To == game.Only(ev.Seat) && len(ev.Cards) != ev.Count {
			t.Fatalf("seat %d drew %d cards but was told %v", ev.Seat, ev.Count, ev.Cards)
		}
	case "build":
		// The card played was face up or in the actor's hand; the card
		// turned up is the owner's top now for all to see.
		f := fromOf(m)
		var want int8
		switch f {
		case FromHand:
			want = argOf(m)
		case FromStock:
			want = before.stockTop(actor)
		case FromHelper:
			want = before.helperTop(actor, int(argOf(m)))
		case FromOpponent:
			want = before.stockTop(game.Seat(argOf(m)))
		}
		if ev.Card == nil || int8(*ev.Card) != want || e.To != game.Public {
			t.Fatalf("build event %+v for a played %s", ev, Card(want))
		}
		if ev.Top != nil && st.games == before.games {
			owner := actor
			if f == FromOpponent {
				owner = game.Seat(argOf(m))
			}
			if int8(*ev.Top) != st.stockTop(owner) {
				t.Fatalf("build event tells %s, the top is %s", ev.Top, Card(st.stockTop(owner)))
			}
		}
	case "helper":
		if ev.Card == nil || int8(*ev.Card) != argOf(m) {
			t.Fatalf("helper event %+v", ev)
		}
	default:
		if ev.Card != nil || ev.Top != nil {
			t.Fatalf("%s event shows a card: %+v", ev.Type, ev)
		}
	}
}

// A seat's view and legal moves do not change when cards it cannot see
// change places: another hand, the personal piles below their tops, the
// draw pile. Its own hand does show.
func TestViewLeaksNothing(t *testing.T) {
	for _, cfg := range configs() {
		for g := uint64(0); g < 10; g++ {
			cfg.Seed = g + 1
			st, err := NewState(cfg)
			if err != nil {
				t.Fatal(err)
			}
			rng := game.NewRNG(g)
			var buf []game.Move
			for moves := 0; !st.Over(); moves++ {
				if moves%5 == 0 {
					for s := game.Spectator; s < game.Seat(st.n); s++ {
						checkBlind(t, st, s, &rng)
					}
				}
				buf = st.Legal(st.turn, buf[:0])
				if err := st.Apply(st.turn, buf[rng.IntN(len(buf))], nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// checkBlind swaps two cards of different values among those seat s
// cannot see and requires s's view and moves to stay the same.
func checkBlind(t *testing.T, st *State, s game.Seat, rng *game.RNG) {
	t.Helper()
	type place struct {
		seat  game.Seat
		where int // 0: personal pile, 1: hand, 2: draw pile
		i     int
	}
	var hidden []place
	for u := game.Seat(0); u < game.Seat(st.n); u++ {
		for i := 0; i < int(st.nStock[u])-1; i++ {
			hidden = append(hidden, place{u, 0, i})
		}
		if u != s {
			for c := 1; c < Kinds; c++ {
				if st.hand[u][c] > 0 {
					hidden = append(hidden, place{u, 1, c})
				}
			}
		}
	}
	for i := 0; i < int(st.nDraw); i++ {
		hidden = append(hidden, place{0, 2, i})
	}
	if len(hidden) < 2 {
		return
	}
	y := *st
	get := func(p place) int8 {
		switch p.where {
		case 0:
			return y.stock[p.seat][p.i]
		case 1:
			return int8(p.i)
		}
		return y.cards[p.i]
	}
	set := func(p place, c int8) {
		switch p.where {
		case 0:
			y.stock[p.seat][p.i] = c
		case 1:
			y.takeHand(p.seat, int8(p.i))
			y.addHand(p.seat, c)
		default:
			y.cards[p.i] = c
		}
	}
	a, b := hidden[rng.IntN(len(hidden))], hidden[rng.IntN(len(hidden))]
	ca, cb := get(a), get(b)
	if ca == cb || a.where == 1 && b.where == 1 && a.seat == b.seat {
		return
	}
	set(a, cb)
	set(b, ca)
	if err := y.Check(); err != nil {
		t.Fatal(err)
	}
	va, _ := json.Marshal(st.View(s))
	vb, _ := json.Marshal(y.View(s))
	if string(va) != string(vb) {
		t.Fatalf("seat %d sees a hidden swap of %s and %s:\n%s\n%s", s, Card(ca), Card(cb), va, vb)
	}
	if s >= 0 && !reflect.DeepEqual(st.Legal(s, nil), y.Legal(s, nil)) {
		t.Fatalf("seat %d's moves depend on hidden cards", s)
	}
	// The test can see a change where there is one: the seat's own hand.
	if s >= 0 && st.nHand[s] > 0 {
		z := *st
		for c := int8(1); c < Kinds; c++ {
			if z.hand[s][c] > 0 {
				z.takeHand(s, c)
				z.addHand(s, c%Joker+1)
				break
			}
		}
		vz, _ := json.Marshal(z.View(s))
		if string(va) == string(vz) {
			t.Fatalf("seat %d's view does not show its hand", s)
		}
	}
}
