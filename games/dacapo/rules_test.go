package dacapo

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"tapis/game"
)

// Cards: 165, 15 each of 1..10 and 15 Jokers. Setup: personal piles of
// pile_size face down with the top face up, hands of 4, the rest is the
// draw pile, seat 0 starts.
func TestSetup(t *testing.T) {
	for _, tc := range []struct {
		players int
		opts    string
		pile    int
	}{
		{2, ``, 20}, {4, ``, 20}, {6, ``, 20}, {3, `{"pile_size":5}`, 5}, {2, `{"pile_size":40}`, 40},
	} {
		tb := newTable(t, tc.players, tc.opts)
		st := tb.st
		d := st.Dump().(dump)
		var count [Kinds]int
		tally := func(cs []Card) {
			for _, c := range cs {
				count[c]++
			}
		}
		for s := 0; s < tc.players; s++ {
			if len(d.Stocks[s]) != tc.pile {
				t.Errorf("%dp %s: seat %d has %d personal cards, want %d", tc.players, tc.opts, s, len(d.Stocks[s]), tc.pile)
			}
			if len(d.Hands[s]) != HandSize {
				t.Errorf("seat %d holds %d cards", s, len(d.Hands[s]))
			}
			tally(d.Stocks[s])
			tally(d.Hands[s])
		}
		tally(d.Draw)
		if want := DeckSize - tc.players*(tc.pile+HandSize); len(d.Draw) != want {
			t.Errorf("%dp: draw pile of %d, want %d", tc.players, len(d.Draw), want)
		}
		for c := 1; c < Kinds; c++ {
			if count[c] != 15 {
				t.Errorf("%d cards %s in the deck, want 15", count[c], Card(c))
			}
		}
		v := st.view(1)
		for s := 0; s < tc.players; s++ {
			if v.Stocks[s].Count != tc.pile || v.Stocks[s].Top == nil || *v.Stocks[s].Top != d.Stocks[s][0] {
				t.Errorf("seat %d's personal pile seen as %+v, top %s", s, v.Stocks[s], d.Stocks[s][0])
			}
		}
		if st.ToMove() != game.Only(0) {
			t.Errorf("%v to move, want seat 0", st.ToMove().List())
		}
	}
}

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		players int
		opts    string
		ok      bool
	}{
		// RULES.md §4: refused when players × (pile_size + 4) > 165.
		{2, `{"pile_size":40}`, true},
		{3, `{"pile_size":40}`, true},
		{4, `{"pile_size":37}`, true},  // 4 × 41 = 164
		{4, `{"pile_size":38}`, false}, // 4 × 42 = 168
		{5, `{"pile_size":29}`, true},  // 5 × 33 = 165: the whole deck
		{5, `{"pile_size":30}`, false}, // 5 × 34 = 170
		{6, `{"pile_size":23}`, true},
		{6, `{"pile_size":24}`, false}, // 6 × 28 > 165
		{2, `{"pile_size":0}`, false},
		// Issue 24: an unwritten cap of 40 refused 41 to 78 at two players.
		{2, `{"pile_size":41}`, true},
		{2, `{"pile_size":55}`, true},
		{2, `{"pile_size":78}`, true},  // 2 × 82 = 164
		{2, `{"pile_size":79}`, false}, // 2 × 83 = 166
		{3, `{"pile_size":51}`, true},  // 3 × 55 = 165: the whole deck
		{3, `{"pile_size":52}`, false}, // 3 × 56 = 168
		{2, `{"match_target":-1}`, false},
		{2, `{"match_target":50}`, true},
		{2, `{"match_target":51}`, false}, // MaxMatchTarget
		{2, `{"match_target":10000}`, false},
		{2, `{"pile":3}`, false},
		{2, `{"pile_size":"3"}`, false},
		{2, `[]`, false},
		{1, ``, false},
		{7, ``, false},
	} {
		_, err := NewState(game.Config{Players: tc.players, Options: json.RawMessage(tc.opts)})
		if (err == nil) != tc.ok {
			t.Errorf("%d players, %s: error %v, want ok=%v", tc.players, tc.opts, err, tc.ok)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "dacapo: ") {
			t.Errorf("%d players, %s: error %q does not say it is Da Capo!'s", tc.players, tc.opts, err)
		}
	}
}

func TestStacks(t *testing.T) {
	for _, tc := range []struct {
		stack string
		ok    bool
	}{
		{`{"stocks":[[1,"J",3]],"hands":[[4,5,6,7]],"draw":[8,9]}`, true},
		{`{"stocks":[[],[1]],"hands":[[],["J"]]}`, true},
		{`{"stocks":[[1],[1],[1]]}`, false},                   // 3 piles for 2 players
		{`{"hands":[[1,2,3,4,5]]}`, false},                    // 5 cards in a hand
		{`{"stocks":[[0]]}`, false},                           // no card 0
		{`{"stocks":[[11]]}`, false},                          // no card 11
		{`{"stocks":[["K"]]}`, false},                         // no such card
		{`{"draw":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}`, false}, // a 16th 1
		{`{"piles":[]}`, false},
	} {
		_, err := NewState(game.Config{Players: 2, Options: json.RawMessage(`{"pile_size":5}`), Stacks: []json.RawMessage{json.RawMessage(tc.stack)}})
		if (err == nil) != tc.ok {
			t.Errorf("%s: error %v, want ok=%v", tc.stack, err, tc.ok)
		}
	}
	tb := newTable(t, 2, `{"pile_size":5}`, `{"stocks":[[1,"J",3]],"hands":[[4,5,6,7]],"draw":[8,9]}`)
	d := tb.st.Dump().(dump)
	if got, _ := json.Marshal(d.Stocks[0][:3]); string(got) != `[1,"J",3]` {
		t.Errorf("personal pile %s", got)
	}
	if tb.handOf(0) != `[4,5,6,7]` {
		t.Errorf("hand %s", tb.handOf(0))
	}
	if got, _ := json.Marshal(d.Draw[:2]); string(got) != `[8,9]` {
		t.Errorf("draw pile %s", got)
	}
}

// A turn: refill the hand to 4 at its start (nothing to do on the first
// turn), builds, then the helper move that ends it.
func TestRefillAtTurnStart(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":5}`, `{"stocks":[[9],[9]],"hands":[[1,2,3,4],[5,5,5,5]],"draw":["J",7,8,6]}`)
	tb.play(0, hand("1", 0))
	tb.play(0, hand("2", 0))
	tb.play(0, helper("3", 0))
	if tb.handOf(0) != `[4]` || tb.st.turn != 1 {
		t.Fatalf("after the helper move: hand %s, turn %d", tb.handOf(0), tb.st.turn)
	}
	if tb.handOf(1) != `[5,5,5,5]` || tb.st.nDraw != uint8(165-2*9-0) {
		t.Fatalf("seat 1 started its first turn with %s and a draw pile of %d", tb.handOf(1), tb.st.nDraw)
	}
	tb.play(1, helper("5", 0))
	if got := tb.handOf(0); got != `[4,7,8,"J"]` {
		t.Fatalf("seat 0 refilled to %s, want the 3 top cards J, 7, 8", got)
	}
	tb.play(0, helper("7", 1))
	if got := tb.handOf(1); got != `[5,5,5,6]` {
		t.Fatalf("seat 1 refilled to %s", got)
	}
}

// The helper move: any hand card onto one of up to 3 helper piles, in any
// order; it ends the turn, and only a pile's top can be built from.
func TestHelperPiles(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":5}`, `{"stocks":[[9],[9]],"hands":[[5,2,"J",8],[7,7,7,7]],"draw":[6,1,1,1,1,1,1,1]}`)
	tb.play(0, helper("5", 0))
	tb.play(1, helper("7", 2))
	tb.play(0, helper("2", 0)) // a 2 on a 5: no order needed
	tb.play(1, helper("7", 2))
	tb.play(0, helper("J", 2)) // skipping a position is allowed
	v := tb.st.view(1)
	if got, _ := json.Marshal(v.Helpers[0]); string(got) != `[[5,2],[],["J"]]` {
		t.Fatalf("seat 0's helper piles seen as %s", got)
	}
	tb.play(1, helper("7", 1))
	// Seat 0 holds 8, 6, 1, 1: the 2 on top of the 5 is playable, the 5
	// below it is not.
	tb.play(0, hand("1", 0))
	tb.refuse(0, helperBuild(1, 0), "helper pile 1 is empty")
	tb.play(0, helperBuild(0, 0))
	if tb.piles()[0] != 2 {
		t.Fatalf("pile 0 at %d", tb.piles()[0])
	}
	tb.play(0, helperBuild(2, 0)) // the Joker from a helper pile takes 3
	if tb.piles()[0] != 3 {
		t.Fatalf("a Joker from a helper pile made pile 0 %d, want 3", tb.piles()[0])
	}
	tb.refuse(0, helper("5", 0), "no 5 in hand")
	if _, err := (Game{}).UnmarshalMove([]byte(helper("6", 3))); err == nil {
		t.Fatal("a fourth helper pile was accepted")
	}
	tb.play(0, helper("8", 1))
	if tb.st.turn != 1 {
		t.Fatal("the helper move did not end the turn")
	}
}

// A new pile starts with a 1 or a Joker; each next card is exactly one
// higher or a Joker; at most 3 piles exist at once.
func TestBuildingRules(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":5}`, `{"stocks":[[9],[9]],"hands":[[2,1,3,1],[1,"J",5,5]],"draw":[1,4,6,6, 6,6,6,6]}`)
	tb.refuse(0, hand("2", 0), "cannot start a pile")
	tb.play(0, hand("1", 0))
	tb.refuse(0, hand("3", 0), "does not go on building pile 0 at 1")
	tb.refuse(0, hand("1", 0), "does not go on building pile 0 at 1")
	tb.play(0, hand("2", 0))
	tb.play(0, hand("3", 0))
	tb.play(0, hand("1", 1))
	if tb.piles() != [Piles]int8{3, 1, 0} {
		t.Fatalf("piles %v", tb.piles())
	}
	// The hand emptied and drew 1, 4, 6, 6.
	tb.play(0, hand("1", 2))
	tb.play(0, helper("6", 0))
	// Seat 1 holds 1, J, 5, 5: every position holds a pile, so the 1
	// cannot start a fourth.
	for _, m := range tb.st.Legal(1, nil) {
		if mv, _ := Unpack(m); mv.Kind == Build && mv.From == FromHand && mv.Card == 1 {
			t.Fatalf("a 1 may start a fourth pile: %#x", uint64(m))
		}
	}
	tb.refuse(1, hand("1", 2), "does not go on building pile 2 at 1")
	tb.play(1, hand("J", 1)) // a Joker on a 1 is a 2
	if tb.piles() != [Piles]int8{3, 2, 1} {
		t.Fatalf("piles %v", tb.piles())
	}
}

// Jokers in every position and from every source take the needed value:
// the rulebook's example pile J(1), 2, J(3), 4, 5, 6, J(7), J(8), 9, J(10).
func TestJokersEverywhere(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":6}`,
		`{"stocks":[["J",4,5,"J",10],["J",8]],"hands":[["J",2,9,"J"],[1,1,1,1]],"draw":[6,9,3]}`)
	tb.play(0, stock(0)) // first position, from the personal pile
	if tb.top(0) != "4" || tb.st.view(1).Stocks[0].Count != 5 {
		t.Fatalf("the next personal card was not turned up at once: top %s", tb.top(0))
	}
	tb.play(0, hand("2", 0))
	tb.play(0, hand("J", 0)) // from the hand
	tb.play(0, stock(0))
	tb.play(0, stock(0))
	tb.play(0, helper("J", 0))
	tb.play(1, helper("1", 0))
	if tb.handOf(0) != `[3,6,9,9]` {
		t.Fatalf("seat 0 refilled to %s", tb.handOf(0))
	}
	tb.events()
	tb.play(0, hand("6", 0))
	tb.play(0, helperBuild(0, 0)) // from a helper pile
	tb.play(0, opponent(1, 0))    // from an opponent's personal pile
	if tb.top(1) != "8" {
		t.Fatalf("seat 1's next card was not turned up: top %s", tb.top(1))
	}
	tb.play(0, hand("9", 0))
	tb.play(0, stock(0)) // the tenth card
	var values []int
	var cards []string
	for _, e := range tb.events() {
		if e.Type == "build" {
			values = append(values, e.Value)
			cards = append(cards, e.Card.String())
		}
	}
	if !reflect.DeepEqual(values, []int{6, 7, 8, 9, 10}) || !reflect.DeepEqual(cards, []string{"6", "J", "J", "9", "J"}) {
		t.Fatalf("the last builds took values %v with cards %v", values, cards)
	}
	if tb.piles()[0] != 0 || tb.st.nAside != 10 {
		t.Fatalf("a pile at 10 was not set aside: piles %v, %d set aside", tb.piles(), tb.st.nAside)
	}
	if got, _ := json.Marshal(tb.st.view(1).SetAside); string(got) != `["J",2,"J",4,5,6,"J","J",9,"J"]` {
		t.Fatalf("set aside %s", got)
	}
}

// A pile that reaches 10 is set aside at once, freeing its place; an
// empty hand draws 4 at once and the turn goes on.
func TestCompletedPileFreesItsPlace(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":5}`,
		`{"stocks":[[9],[9]],"hands":[[1,2,3,4],[1,1,1,1]],"draw":[5,6,7,8, 9,10,1,"J", 2,1,3,3]}`)
	for _, c := range []string{"1", "2", "3", "4"} {
		tb.play(0, hand(c, 0))
	}
	if tb.st.turn != 0 || tb.handOf(0) != `[5,6,7,8]` {
		t.Fatalf("an emptied hand drew %s (turn %d), want 5 6 7 8 at once", tb.handOf(0), tb.st.turn)
	}
	for _, c := range []string{"5", "6", "7", "8"} {
		tb.play(0, hand(c, 0))
	}
	tb.play(0, hand("1", 1))
	tb.play(0, hand("J", 2))
	tb.play(0, hand("9", 0))
	tb.events()
	tb.play(0, hand("10", 0))
	ev := tb.events()
	if !ev[0].Completed || ev[0].Value != 10 || tb.piles() != [Piles]int8{0, 1, 1} || tb.st.nAside != 10 {
		t.Fatalf("after the 10: piles %v, %d set aside, event %+v", tb.piles(), tb.st.nAside, ev[0])
	}
	if tb.handOf(0) != `[1,2,3,3]` {
		t.Fatalf("hand %s", tb.handOf(0))
	}
	tb.play(0, hand("2", 1))
	tb.play(0, hand("1", 0)) // the freed place takes a new pile
	if tb.piles() != [Piles]int8{1, 2, 1} {
		t.Fatalf("piles %v", tb.piles())
	}
}
