package tutorial

import (
	"encoding/json"
	"flag"
	"fmt"
	"testing"

	"tapis/game"
	"tapis/games"
)

// The seeds of the scripts were found by these searches, run by hand:
//
//	go test ./tutorial -run TestSearchCabo -search
//
// Each prints a seed whose deal lets a short script show every rule, and
// the moves of that script; the step texts are then written for it.
// Papayoo's, Limits' and Da Capo!'s searches write a script with words of
// their own only with -write: the scripts' words have since been edited
// by hand (shorter routine steps, the screen's button names), and -write
// would overwrite them, so a new search's script is to be merged by hand.
var search = flag.Bool("search", false, "search the tutorials' seeds")

// caboDeal is what the Cabo search reads of a deal (cabo's Dump).
type caboDeal struct {
	Hands   [][]int `json:"hands"`
	Draw    []int   `json:"draw"`
	Discard []int   `json:"discard"`
}

// TestSearchCabo looks for a two-player Cabo deal where the player
// (seat 0) peeks at a pair in slots 0 and 1, then draws, in order (the
// bot's turns taking the discard, or drawing and discarding to skip a
// card): a low card to keep, a card with no power to discard, a 7 or 8
// (peek at slot 3, which is high), a 9 or 10 (spy the bot's slot 0, which
// is low), an 11 or 12 (swap slot 3 with it), a low card for the set, and
// then calls Cabo and wins the round.
func TestSearchCabo(t *testing.T) {
	if !*search {
		t.Skip("run with -search")
	}
	g := games.Named("cabo")
	for seed := uint64(1); seed < 2000000; seed++ {
		st, err := g.New(game.Config{Players: 2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var d caboDeal
		js, _ := json.Marshal(st.Dump())
		json.Unmarshal(js, &d)
		p, b := d.Hands[0], d.Hands[1]
		if p[0] != p[1] || p[0] < 3 || p[0] > 6 || p[3] < 9 || b[0] > 3 {
			continue
		}
		fits := []func(int) bool{
			func(c int) bool { return c <= 2 },                                    // keep
			func(c int) bool { return c == 13 || (c == 6 || c == 5) && c > p[0] }, // discard
			func(c int) bool { return c == 7 || c == 8 },                          // peek
			func(c int) bool { return c == 9 || c == 10 },                         // spy
			func(c int) bool { return c == 11 || c == 12 },                        // swap
			func(c int) bool { return c <= 3 && c < p[0] },                        // set
		}
		var moves []Move
		ok := false
		for _, order := range [][]int{{0, 1, 2, 3}, {1, 0, 2, 3}, {0, 2, 1, 3}, {2, 0, 1, 3}, {0, 1, 3, 2}, {1, 0, 3, 2}, {2, 1, 0, 3}, {0, 2, 3, 1}} {
			if moves, ok = caboScript(d, fits, append(order, 4, 5)); ok {
				break
			}
		}
		if !ok {
			continue
		}
		// The player must win the round: replay it.
		st, _ = g.New(game.Config{Players: 2, Seed: seed})
		for i, m := range moves {
			gm, err := g.UnmarshalMove(m.Move)
			if err == nil {
				err = st.Apply(game.Seat(m.Seat), gm, nil)
			}
			if err != nil {
				t.Fatalf("seed %d move %d: %v", seed, i, err)
			}
		}
		res := st.Result()
		if res.Rounds != 1 || res.RoundScores[0] != 0 {
			continue
		}
		out, _ := json.Marshal(moves)
		fmt.Printf("seed %d hands %v draw %v discard %v scores %v\n%s\n", seed, d.Hands, d.Draw[:14], d.Discard, res.RoundScores, out)
		return
	}
	t.Fatal("no seed")
}

// caboScript builds the moves of a deal, or false when its draw pile does
// not give the player the cards fits ask for in time.
func caboScript(d caboDeal, fits []func(int) bool, order []int) ([]Move, bool) {
	mv := func(seat int, js string) Move { return Move{Seat: seat, Move: json.RawMessage(js)} }
	moves := []Move{mv(0, `{"type":"peek_initial","slots":[0,1]}`), mv(1, `{"type":"peek_initial","slots":[0,1]}`)}
	top := 0
	botSlot := 1
	bot := func() {
		// The bot skips the next card when it does not fit the player's
		// next step; else it takes the discard.
		moves = append(moves, mv(1, fmt.Sprintf(`{"type":"take_discard","slots":[%d]}`, botSlot)))
		botSlot = botSlot%3 + 1
	}
	plays := []string{
		`{"type":"replace","slots":[2]}`,
		`{"type":"discard"}`,
		`{"type":"peek","slot":3}`,
		`{"type":"spy","seat":1,"slot":0}`,
		`{"type":"swap","a":{"seat":0,"slot":3},"b":{"seat":1,"slot":0}}`,
		`{"type":"replace","slots":[0,1]}`,
	}
	for k, i := range order {
		fit := fits[i]
		if k > 0 {
			if !fit(d.Draw[top]) {
				moves = append(moves, mv(1, `{"type":"draw"}`), mv(1, `{"type":"discard"}`))
				top++
			} else {
				bot()
			}
		}
		if !fit(d.Draw[top]) {
			return nil, false
		}
		top++
		moves = append(moves, mv(0, `{"type":"draw"}`), mv(0, plays[i]))
	}
	moves = append(moves, mv(1, `{"type":"draw"}`), mv(1, `{"type":"discard"}`))
	top++
	moves = append(moves, mv(0, `{"type":"cabo"}`))
	bot()
	return moves, true
}
