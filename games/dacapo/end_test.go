package dacapo

import (
	"reflect"
	"strings"
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

// endJSON is the move End as REPLAY.md writes it.
const endJSON = `{"type":"end"}`

// If the hand is empty and nothing is left to draw, the turn ends without
// the helper move: by itself only when no build at all is legal (RULES.md
// §4, decision of 2026-11-24).
func TestTurnEndsWithEmptyHand(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":5}`, `{"stocks":[[5,7],[5]],"hands":[[1,2,3,4]]}`)
	tb.exhaust(0, 1, 2)
	for _, c := range []string{"1", "2", "3", "4"} {
		tb.play(0, hand(c, 0))
	}
	// The 5 on top of the personal pile keeps the turn going: builds and
	// End, no helper move.
	for _, m := range tb.st.Legal(0, nil) {
		if kindOf(m) == Help {
			t.Fatalf("a helper move with an empty hand: %#x", uint64(m))
		}
	}
	tb.play(0, stock(0))
	// Now the 7 does not fit, nor seat 1's 5, and seat 0 has no helper
	// pile: the turn has ended by itself, without an End.
	if tb.st.turn != 1 || tb.st.Over() {
		t.Fatalf("turn %d", tb.st.turn)
	}
	var types []string
	for _, e := range tb.events() {
		types = append(types, e.Type)
	}
	if !reflect.DeepEqual(types[len(types)-2:], []string{"build", "turn"}) {
		t.Fatalf("events %v: want the turn to pass right after the build", types)
	}
}

// RULES.md §4, decision of 2026-11-24: an empty hand that cannot be
// refilled may take an opponent's top to uncover a build of its own, play
// it, and stop with End while builds are still legal; End is refused while
// the hand holds a card. End and a turn that ends by itself at its start
// count as quiet turns.
func TestEndMove(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":5}`,
		`{"stocks":[[6,9],[5,7,9]],"hands":[[1,2,3,4],[8,8,8,8]],"draw":[10]}`)
	tb.exhaust(0, 1, 2) // seat 1's helper pile 2 gets the draw pile, a 10 on top
	tb.refuse(0, endJSON, "dacapo: end: you still hold 4 cards")
	tb.play(0, hand("1", 0))
	tb.play(0, hand("2", 0))
	tb.play(0, hand("3", 0))
	tb.refuse(0, endJSON, "dacapo: end: you still hold a card")
	tb.play(0, hand("4", 0))
	// Pile 0 is at 4: seat 0's own 6 does not fit, seat 1's 5 does. The
	// turn goes on, and seat 0 chooses.
	want := []game.Move{move(t, opponent(1, 0)), endMove}
	if got := tb.st.Legal(0, nil); tb.st.turn != 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("turn %d, legal %#x: want seat 0 to choose between seat 1's 5 and End", tb.st.turn, got)
	}
	tb.play(0, opponent(1, 0))
	tb.play(0, stock(0))
	// Seat 1's 7 fits the pile at 6: seat 0 may stop anyway.
	if got := tb.st.Legal(0, nil); !reflect.DeepEqual(got, []game.Move{move(t, opponent(1, 0)), endMove}) {
		t.Fatalf("legal %#x", got)
	}
	tb.events()
	tb.play(0, endJSON)
	var types []string
	for _, e := range tb.events() {
		types = append(types, e.Type)
	}
	if !reflect.DeepEqual(types, []string{"end", "turn"}) || tb.st.turn != 1 || tb.handOf(1) != `[8,8,8,8]` {
		t.Fatalf("events %v, turn %d, seat 1's hand %s", types, tb.st.turn, tb.handOf(1))
	}
	if tb.st.quiet != 0 || tb.st.nStock != [MaxPlayers]int8{4, 4} {
		t.Fatalf("quiet %d, personal piles %v: personal cards were played", tb.st.quiet, tb.st.nStock)
	}
	tb.refuse(1, endJSON, "dacapo: end: you still hold 4 cards")
	tb.refuse(0, endJSON, "seat 1's turn")

	// Seat 1 passes: a quiet turn. Seat 0, with an empty hand, could take
	// seat 1's 7, so its turn does not end by itself; End is quiet too,
	// and two quiet turns end a 2-player game: a tie at 4 cards.
	quiet := &table{t: t, st: tb.st.Clone().(*State)}
	quiet.play(1, helper("8", 0))
	if quiet.st.quiet != 1 || quiet.st.turn != 0 {
		t.Fatalf("quiet %d, turn %d", quiet.st.quiet, quiet.st.turn)
	}
	quiet.play(0, endJSON)
	res := game.Result{Rounds: 1, Scores: []int{4, 4}, RoundScores: []int{4, 4}, Winners: []game.Seat{0, 1}}
	if got := quiet.st.Result(); !quiet.st.Over() || !reflect.DeepEqual(got, res) {
		t.Fatalf("after two quiet turns: over %v, result %+v, want %+v", quiet.st.Over(), got, res)
	}

	// Seat 1 plays its 7 instead: its next card, a 9, fits nothing, so
	// seat 0's next turn opens with nothing to play and ends at once, a
	// quiet turn; seat 1's helper move is the second.
	tb.play(1, stock(0))
	tb.play(1, helper("8", 0))
	if tb.st.turn != 1 || tb.st.quiet != 1 {
		t.Fatalf("turn %d, quiet %d: seat 0's empty turn should have ended by itself", tb.st.turn, tb.st.quiet)
	}
	tb.play(1, helper("8", 0))
	res = game.Result{Rounds: 1, Scores: []int{0, 4}, RoundScores: []int{0, 4}, Winners: []game.Seat{1}}
	if got := tb.st.Result(); !tb.st.Over() || !reflect.DeepEqual(got, res) {
		t.Fatalf("over %v, result %+v, want %+v", tb.st.Over(), got, res)
	}
}

// End never skips a refill: an empty hand with cards left to draw (a
// state play never reaches, since an emptied hand draws at once) may not
// end the turn.
func TestEndNeedsNothingToDraw(t *testing.T) {
	tb := newTable(t, 2, `{"pile_size":5}`, `{"hands":[[5,6,7,8]]}`)
	for c := int8(5); c <= 8; c++ {
		tb.st.takeHand(0, c)
		tb.st.pushHelper(0, 0, c)
	}
	tb.refuse(0, endJSON, "dacapo: end: your hand can still be refilled")
}

// End is the move REPLAY.md writes {"type":"end"}, with no other field.
func TestEndJSON(t *testing.T) {
	m := move(t, endJSON)
	if mv, ok := Unpack(m); !ok || mv.Kind != End || mv.Pack() != m {
		t.Fatalf("%s decoded to %#x (%+v)", endJSON, uint64(m), mv)
	}
	if out, err := (Game{}).MarshalMove(m); err != nil || string(out) != endJSON {
		t.Fatalf("End encodes as %s, %v", out, err)
	}
	for _, bad := range []string{`{"type":"end","pile":0}`, `{"type":"end","card":5}`, `{"type":"end","from":"hand"}`, `{"type":"end","seat":1}`, `{"type":"end","index":0}`} {
		if _, err := (Game{}).UnmarshalMove([]byte(bad)); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
	for _, gm := range []game.Move{endMove | 1<<4, endMove | 1<<8, endMove | 1<<16} {
		if wellFormed(gm) {
			t.Errorf("%#x is well formed", uint64(gm))
		}
		tb := newTable(t, 2, ``)
		if err := tb.st.Apply(0, gm, nil); err == nil || !strings.Contains(err.Error(), "not a Da Capo! move") {
			t.Errorf("%#x: %v", uint64(gm), err)
		}
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

// RULES.md §4, decision of 2026-11-24: a turn is quiet when it ends with
// the draw pile and the set-aside piles empty and no personal card, own
// or an opponent's, played in it; N quiet turns in a row end the game,
// N the number of players.
func TestQuietTurns(t *testing.T) {
	tb := newTable(t, 3, `{"pile_size":5}`,
		`{"stocks":[[1,9],[9],[9]],"hands":[[5,5,5,5],[6,6,6,6],[7,7,7,7]]}`)
	tb.exhaust(0, 2, 2)
	tb.play(0, helper("5", 0)) // quiet 1
	if tb.st.view(1).QuietTurns != 1 {
		t.Fatalf("quiet %d after a quiet turn", tb.st.view(1).QuietTurns)
	}
	tb.play(1, opponent(0, 0)) // an opponent's personal card: not quiet
	tb.play(1, helper("6", 0))
	if tb.st.quiet != 0 {
		t.Fatalf("quiet %d after a turn that played seat 0's personal card", tb.st.quiet)
	}
	tb.play(2, helper("7", 0)) // quiet 1
	tb.play(0, helper("5", 0)) // quiet 2: 2 players' worth, not 3
	if tb.st.Over() || tb.st.quiet != 2 {
		t.Fatalf("over %v, quiet %d after two quiet turns in a row at a 3-player table", tb.st.Over(), tb.st.quiet)
	}
	tb.play(1, helper("6", 0)) // quiet 3: the game ends
	// Seat 0 has 4 personal cards, the others 5: seat 0 wins 5 + 5.
	want := game.Result{Rounds: 1, Scores: []int{10, 0, 0}, RoundScores: []int{10, 0, 0}, Winners: []game.Seat{0}}
	if got := tb.st.Result(); !tb.st.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("over %v, result %+v, want %+v", tb.st.Over(), got, want)
	}

	// A turn that ends with an empty draw pile but a completed pile set
	// aside is not quiet, even with no personal card played.
	tb = newTable(t, 2, `{"pile_size":5}`,
		`{"stocks":[[9],[9]],"hands":[[1,2,3,4],[6,6,6,6]],"draw":[5,6,7,8, 9,10,5,5]}`)
	tb.exhaust(8, 1, 2)
	for _, c := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"} {
		tb.play(0, hand(c, 0))
	}
	if tb.st.nDraw != 0 || tb.st.nAside != Top || tb.handOf(0) != `[5,5]` {
		t.Fatalf("draw %d, set aside %d, hand %s", tb.st.nDraw, tb.st.nAside, tb.handOf(0))
	}
	tb.play(0, helper("5", 0))
	if tb.st.quiet != 0 {
		t.Fatalf("quiet %d after a turn that ended with %d cards set aside", tb.st.quiet, Top)
	}
}

// RULES.md §4, decision of 2026-11-24: each winner, co-winners too, scores
// 1 point per card left in every other seat's personal pile, co-winners'
// piles included.
func TestCoWinnersScore(t *testing.T) {
	tb := newTable(t, 3, `{"pile_size":5}`,
		`{"stocks":[[1,9],[2,9],[9]],"hands":[[5,5,5,5],[6,6,6,6],[7,7,7,7]]}`)
	tb.exhaust(0, 2, 2)
	tb.play(0, stock(0))
	tb.play(0, helper("5", 0))
	tb.play(1, stock(0))
	tb.play(1, helper("6", 0))
	tb.play(2, helper("7", 0))
	tb.play(0, helper("5", 0))
	tb.play(1, helper("6", 0))
	// Seats 0 and 1 tie with 4 cards; seat 2 keeps 5.
	want := game.Result{Rounds: 1, Scores: []int{9, 9, 0}, RoundScores: []int{9, 9, 0}, Winners: []game.Seat{0, 1}}
	if got := tb.st.Result(); !tb.st.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("over %v, result %+v, want %+v", tb.st.Over(), got, want)
	}
}

// RULES.md §4, decision of 2026-11-24: in a match, game g+1 (g counting
// the games played before it, from 0) is started by seat g mod N, whoever
// won; the match ends after the game in which someone reaches
// match_target, exactly or beyond.
func TestMatchStarter(t *testing.T) {
	tb := newTable(t, 3, `{"pile_size":2,"match_target":8}`,
		`{"stocks":[[1,2],[9,9],[9,9]]}`,
		`{"stocks":[[9,9],[9,9],[1,2]],"hands":[[],[5,5,5,5]]}`,
		`{"stocks":[[9,9],[1,2],[9,9]],"hands":[[5,5,5,5],[],[5,5,5,5]]}`,
		`{"stocks":[[1,2],[9,9],[9,9]]}`)
	starts := func(g int, s game.Seat) {
		t.Helper()
		if tb.st.Over() || tb.st.ToMove() != game.Only(s) || tb.st.Dump().(dump).Starter != s || tb.st.view(0).Game != g {
			t.Fatalf("game %d: over %v, to move %v, want seat %d to start", g, tb.st.Over(), tb.st.ToMove().List(), s)
		}
	}
	starts(1, 0)
	tb.play(0, stock(0))
	tb.play(0, stock(0)) // seat 0 wins game 1: 4 points
	starts(2, 1)         // not the winner, who would start again
	tb.play(1, helper("5", 0))
	tb.play(2, stock(0))
	tb.play(2, stock(0)) // seat 2 wins game 2
	starts(3, 2)         // not the left of the winner (seat 0)
	tb.play(2, helper("5", 0))
	tb.play(0, helper("5", 0))
	tb.play(1, stock(0))
	tb.play(1, stock(0)) // seat 1 wins game 3: 4 points each, short of 8
	starts(4, 0)
	tb.play(0, stock(0))
	tb.play(0, stock(0)) // seat 0 reaches 8, the target exactly
	want := game.Result{Rounds: 4, Scores: []int{8, 4, 4}, RoundScores: []int{4, 0, 0}, Winners: []game.Seat{0}}
	if got := tb.st.Result(); !tb.st.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("over %v, result %+v, want %+v", tb.st.Over(), got, want)
	}
}

// RULES.md §4, decision of 2026-11-24: when the match ends, the highest
// total wins, not everyone who reached the target; equal totals share.
func TestMatchWinners(t *testing.T) {
	// Game 1: seat 0 empties its pile, having played one of seat 1's
	// cards: 2 points, short of 3. Game 2: a stalemate at 3 cards each
	// gives both 3: both reach the target, seat 0 with more.
	tb := newTable(t, 2, `{"pile_size":3,"match_target":3}`,
		`{"stocks":[[1,3,4],[2,9,9]]}`,
		`{"stocks":[[9],[9]],"hands":[[5,5,5,5],[6,6,6,6]],"draw":[10]}`)
	tb.play(0, stock(0))
	tb.play(0, opponent(1, 0))
	tb.play(0, stock(0))
	tb.play(0, stock(0))
	if tb.st.Over() || tb.st.scores != [MaxPlayers]int{2, 0} {
		t.Fatalf("after game 1: over %v, scores %v", tb.st.Over(), tb.st.scores)
	}
	tb.exhaust(0, 0, 0)
	tb.play(1, helper("6", 0))
	tb.play(0, helper("5", 1))
	want := game.Result{Rounds: 2, Scores: []int{5, 3}, RoundScores: []int{3, 3}, Winners: []game.Seat{0}}
	if got := tb.st.Result(); !tb.st.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("over %v, result %+v, want %+v", tb.st.Over(), got, want)
	}

	// A first game that ends in a stalemate tie reaching the target ends a
	// match that both players win.
	tb = newTable(t, 2, `{"pile_size":3,"match_target":3}`, `{"stocks":[[9],[9]],"hands":[[5,5,5,5],[6,6,6,6]]}`)
	tb.exhaust(0, 0, 0)
	tb.play(0, helper("5", 1))
	tb.play(1, helper("6", 0))
	want = game.Result{Rounds: 1, Scores: []int{3, 3}, RoundScores: []int{3, 3}, Winners: []game.Seat{0, 1}}
	if got := tb.st.Result(); !tb.st.Over() || !reflect.DeepEqual(got, want) {
		t.Fatalf("over %v, result %+v, want %+v", tb.st.Over(), got, want)
	}
}
