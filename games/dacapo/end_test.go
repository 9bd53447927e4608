package dacapo

import (
	"reflect"
	"testing"

	"tapis/game"
)

// Any opponent's personal top may be built; the next card is turned up at
// once. Only opponents at the table, and only cards that fit.
func TestOpponentTop(t *testing.T) {
	tb := newTable(t, 3, `{"pile_size":5}`, `{"stocks":[[9],[1,4],[2,8]],"hands":[[5,5,5,5]]}`)
	tb.refuse(0, opponent(2, 0), "a 2 cannot start a pile")
	tb.play(0, opponent(1, 0))
	ev := tb.events()
	if ev[0].Owner == nil || *ev[0].Owner != 1 || ev[0].Top == nil || *ev[0].Top != 4 || *ev[0].Left != 4 {
		t.Fatalf("build event %+v", ev[0])
	}
	if v := tb.st.view(2); v.Stocks[1].Count != 4 || *v.Stocks[1].Top != 4 {
		t.Fatalf("seat 2 sees seat 1's pile as %+v", v.Stocks[1])
	}
	tb.play(0, opponent(2, 0))
	if tb.piles()[0] != 2 || tb.top(2) != "8" {
		t.Fatalf("piles %v, seat 2's top %s", tb.piles(), tb.top(2))
	}
	tb.refuse(0, opponent(0, 1), "not an opponent")
	tb.refuse(0, opponent(3, 1), "not an opponent")
	tb.refuse(1, opponent(0, 1), "seat 0's turn")
}

// Playing the last card of your personal pile wins at once, in the
// middle of a turn, with cards still in hand; the winner scores a point
// per card left in the opponents' personal piles.
func TestWinMidTurn(t *testing.T) {
	tb := newTable(t, 3, `{"pile_size":2}`, `{"stocks":[[1,2],[9],[9]],"hands":[[3,4,5,6]]}`)
	tb.play(0, stock(0))
	if tb.st.Over() {
		t.Fatal("over with a card left")
	}
	tb.play(0, stock(0))
	if !tb.st.Over() || tb.st.ToMove() != 0 {
		t.Fatal("emptying the personal pile did not end the game at once")
	}
	want := game.Result{Rounds: 1, Scores: []int{4, 0, 0}, RoundScores: []int{4, 0, 0}, Winners: []game.Seat{0}}
	if got := tb.st.Result(); !reflect.DeepEqual(got, want) {
		t.Fatalf("result %+v, want %+v", got, want)
	}
	tb.refuse(0, hand("3", 0), "game is over")
}

// [decision] A player whose pile an opponent empties wins at once.
func TestOpponentEmptiesYourPile(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":2}`, `{"stocks":[[9],[1,2]],"hands":[[5,5,5,5]]}`)
	tb.play(0, opponent(1, 0))
	tb.play(0, opponent(1, 0))
	want := game.Result{Rounds: 1, Scores: []int{0, 2}, RoundScores: []int{0, 2}, Winners: []game.Seat{1}}
	if got := tb.st.Result(); !tb.st.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("over %v, result %+v, want %+v", tb.st.Over(), got, want)
	}
}

// If the draw pile is empty when the turn's refill needs it, the
// set-aside completed piles are shuffled into a new draw pile.
func TestReshuffleAtRefill(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":10}`,
		`{"stocks":[[3,4,5,6,7,8,10,9,9,9],[9]],"hands":[[1,2,9,7],[5,5,5,5]]}`)
	tb.exhaust(0, 1, 2)
	tb.play(0, hand("1", 0))
	tb.play(0, hand("2", 0))
	for i := 0; i < 6; i++ {
		tb.play(0, stock(0))
	}
	tb.play(0, hand("9", 0))
	tb.play(0, stock(0))
	if tb.st.nAside != 10 || tb.handOf(0) != `[7]` {
		t.Fatalf("%d set aside, hand %s", tb.st.nAside, tb.handOf(0))
	}
	tb.play(0, helper("7", 0))
	tb.play(1, helper("5", 0))
	if tb.st.nAside != 0 || tb.st.nDraw != 6 || tb.st.nHand[0] != 4 {
		t.Fatalf("after the refill: %d set aside, draw pile %d, hand %s", tb.st.nAside, tb.st.nDraw, tb.handOf(0))
	}
	var types []string
	for _, e := range tb.events() {
		types = append(types, e.Type)
		if e.Type == "reshuffle" && e.Count != 10 {
			t.Fatalf("reshuffle of %d cards", e.Count)
		}
	}
	if !reflect.DeepEqual(types[len(types)-4:], []string{"turn", "reshuffle", "draw", "draw"}) {
		t.Fatalf("events %v", types)
	}
	// The new draw pile is the completed pile 1..10: four different values.
	for c := int8(1); c < Kinds; c++ {
		if tb.st.hand[0][c] > 1 || tb.st.hand[0][c] == 1 && c > 10 {
			t.Fatalf("seat 0 drew %s, which was not in the completed pile 1..10", tb.handOf(0))
		}
	}
}

// An empty hand during building draws 4 at once, from the set-aside
// piles if the draw pile is out, and the turn goes on.
func TestReshuffleMidTurn(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":10}`, `{"stocks":[[5,6,7,8,9,10]],"hands":[[1,2,3,4]]}`)
	tb.exhaust(0, 1, 2)
	for _, c := range []string{"1", "2", "3", "4"} {
		tb.play(0, hand(c, 0))
	}
	if tb.st.nHand[0] != 0 || tb.st.turn != 0 {
		t.Fatalf("hand %s, turn %d: nothing could be drawn, and the turn goes on", tb.handOf(0), tb.st.turn)
	}
	for i := 0; i < 6; i++ {
		tb.play(0, stock(0))
	}
	if tb.st.nHand[0] != 4 || tb.st.nDraw != 6 || tb.st.nAside != 0 || tb.st.turn != 0 {
		t.Fatalf("after the pile completed: hand %s, draw %d, aside %d, turn %d", tb.handOf(0), tb.st.nDraw, tb.st.nAside, tb.st.turn)
	}
}

// If the hand is empty and nothing is left to draw, the turn ends without
// the helper move: [decision] as soon as the player can no longer build
// from their own personal or helper piles.
func TestTurnEndsWithEmptyHand(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":5}`, `{"stocks":[[5,7],[5]],"hands":[[1,2,3,4]]}`)
	tb.exhaust(0, 1, 2)
	for _, c := range []string{"1", "2", "3", "4"} {
		tb.play(0, hand(c, 0))
	}
	// The 5 on top of the personal pile keeps the turn going: builds only.
	for _, m := range tb.st.Legal(0, nil) {
		if kindOf(m) != Build {
			t.Fatalf("a helper move with an empty hand: %#x", uint64(m))
		}
	}
	tb.play(0, stock(0))
	// Now the 7 does not fit; seat 1's 5 would not either way: the turn
	// has ended by itself.
	if tb.st.turn != 1 || tb.st.Over() {
		t.Fatalf("turn %d", tb.st.turn)
	}
	var types []string
	for _, e := range tb.events() {
		types = append(types, e.Type)
	}
	if types[len(types)-1] != "turn" {
		t.Fatalf("events %v", types)
	}

	// An opponent's top alone does not keep the turn going.
	tb = newTable(t, 2, `{"pile_size":5}`, `{"stocks":[[9],[5]],"hands":[[1,2,3,4]]}`)
	tb.exhaust(0, 1, 2)
	for _, c := range []string{"1", "2", "3", "4"} {
		tb.play(0, hand(c, 0))
	}
	if tb.st.turn != 1 {
		t.Fatalf("turn %d: only seat 1's 5 fitted", tb.st.turn)
	}
}

// [decision] With the draw pile and the set-aside piles empty, a whole
// round of turns with no personal card played ends the game; the fewest
// personal cards win, ties share.
func TestStalemate(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":5}`, `{"stocks":[[1],[9]],"hands":[[5,5,5,5],[6,6,6,6]]}`)
	tb.exhaust(0, 1, 2)
	tb.play(0, stock(0))
	tb.play(0, helper("5", 0))
	tb.play(1, helper("6", 0))
	if tb.st.Over() || tb.st.quiet != 1 {
		t.Fatalf("over %v after one quiet turn (quiet %d)", tb.st.Over(), tb.st.quiet)
	}
	tb.play(0, helper("5", 0))
	want := game.Result{Rounds: 1, Scores: []int{5, 0}, RoundScores: []int{5, 0}, Winners: []game.Seat{0}}
	if got := tb.st.Result(); !tb.st.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("over %v, result %+v, want %+v", tb.st.Over(), got, want)
	}
	ev := tb.events()
	if end := ev[len(ev)-2]; end.Type != "game_end" || !end.Stalemate {
		t.Fatalf("end event %+v", end)
	}

	tb = newTable(t, 2, `{"pile_size":5}`, `{"hands":[[5,5,5,5],[6,6,6,6]]}`)
	tb.exhaust(0, 1, 2)
	tb.play(0, helper("5", 0))
	tb.play(1, helper("6", 0))
	want = game.Result{Rounds: 1, Scores: []int{5, 5}, RoundScores: []int{5, 5}, Winners: []game.Seat{0, 1}}
	if got := tb.st.Result(); !tb.st.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("a tie: over %v, result %+v, want %+v", tb.st.Over(), got, want)
	}

	// With cards left to draw, quiet turns never end the game.
	tb = newTable(t, 2, `{"pile_size":5}`, `{"hands":[[5,5,5,5],[6,6,6,6]],"draw":[5,6,5,6]}`)
	for i := 0; i < 3; i++ {
		tb.play(0, helper("5", 0))
		tb.play(1, helper("6", 0))
	}
	if tb.st.Over() {
		t.Fatal("a stalemate with a draw pile")
	}
}

// A match: each game's winner scores the cards left in the opponents'
// personal piles; games go on until someone reaches match_target.
// [decision] The first player moves left with each game.
func TestMatch(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":2,"match_target":3}`,
		`{"stocks":[[1,2],[9,9]]}`, `{"stocks":[[9,9],[1,2]]}`, `{"stocks":[[1,2],[9,9]]}`)
	tb.play(0, stock(0))
	tb.play(0, stock(0))
	want := game.Result{Rounds: 1, Scores: []int{2, 0}, RoundScores: []int{2, 0}, Winners: []game.Seat{}}
	if got := tb.st.Result(); tb.st.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("after game 1: over %v, result %+v", tb.st.Over(), got)
	}
	if tb.st.ToMove() != game.Only(1) || tb.st.nStock[0] != 2 || tb.st.nPile != [Piles]int8{} || tb.st.nHand[0] != 4 {
		t.Fatalf("game 2 was not dealt with seat 1 to start: %+v", tb.st.Dump())
	}
	tb.play(1, stock(0))
	tb.play(1, stock(0))
	want = game.Result{Rounds: 2, Scores: []int{2, 2}, RoundScores: []int{0, 2}, Winners: []game.Seat{}}
	if got := tb.st.Result(); tb.st.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("after game 2: result %+v", got)
	}
	tb.play(0, stock(0))
	tb.play(0, stock(0))
	want = game.Result{Rounds: 3, Scores: []int{4, 2}, RoundScores: []int{2, 0}, Winners: []game.Seat{0}}
	if got := tb.st.Result(); !tb.st.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("after game 3: over %v, result %+v, want %+v", tb.st.Over(), got, want)
	}
}
