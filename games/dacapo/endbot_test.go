package dacapo

import (
	"testing"

	"tapis/game"
)

// chooser is a bot's choice for the seat to move: the heuristic bot, or
// the search's playout policy (RolloutMove).
type chooser func(st *State) game.Move

func choosers() map[string]chooser {
	return map[string]chooser{
		"heuristic": func(st *State) game.Move {
			return Game{}.Heuristic(st.turn, 0).Choose(game.KnowledgeOf(st, st.turn))
		},
		"rollout": func(st *State) game.Move {
			r := game.NewRNG(1)
			return st.RolloutMove(&r, nil)
		},
	}
}

// expect has the bot choose for the seat to move, requires want, and
// plays it.
func (tb *table) expect(name string, bot chooser, want string) {
	tb.t.Helper()
	s := tb.st.turn
	if got, w := bot(tb.st), move(tb.t, want); got != w {
		js, _ := Game{}.MarshalMove(got)
		tb.t.Fatalf("%s bot, seat %d: chose %s, want %s", name, s, js, want)
	}
	tb.play(s, want)
}

// With an empty hand that cannot be refilled, the bots stop (End) rather
// than play a helper card that lets the next player reach its own top.
func TestBotsEndRatherThanFeed(t *testing.T) {
	for name, bot := range choosers() {
		// Seat 0's helper pile 0 gets the draw pile: a 5 on top, a 9
		// below. Seat 1's top is a 6, which a 5 on pile 0 would let in.
		tb := newTable(t, 2, `{"pile_size":5}`, `{"stocks":[[9],[6]],"hands":[[1,2,3,4]],"draw":[5,9]}`)
		tb.exhaust(0, 0, 0)
		for _, c := range []string{"1", "2", "3", "4"} {
			tb.play(0, hand(c, 0))
		}
		if !game.Contains(tb.st.Legal(0, nil), move(t, helperBuild(0, 0))) {
			t.Fatal("the helper 5 should fit pile 0")
		}
		tb.expect(name, bot, endJSON)
		if tb.st.turn != 1 || tb.st.nPile[0] != 4 {
			t.Fatalf("%s bot: turn %d, pile 0 at %d", name, tb.st.turn, tb.st.nPile[0])
		}
	}
}

// With an empty hand that cannot be refilled, the bots take an opponent's
// top when it uncovers a build from their own pile, play their own card,
// then stop rather than give the opponent's next card a place.
func TestBotsTakeTopToUnlockOwnPile(t *testing.T) {
	for name, bot := range choosers() {
		tb := newTable(t, 2, `{"pile_size":5}`,
			`{"stocks":[[6,9],[5,7,9]],"hands":[[1,2,3,4],[8,8,8,8]],"draw":[10]}`)
		tb.exhaust(0, 1, 2)
		for _, c := range []string{"1", "2", "3", "4"} {
			tb.play(0, hand(c, 0))
		}
		tb.expect(name, bot, opponent(1, 0)) // seat 1's 5 uncovers seat 0's 6
		tb.expect(name, bot, stock(0))
		tb.expect(name, bot, endJSON) // seat 1's 7 would fit: leave it
	}
}

// With an empty hand and nothing to draw, completing a pile refills the
// hand from the set-aside cards: the bots build their helper 9 and 10 for
// it, though each helper card costs a little.
func TestBotsCompletePileToRefill(t *testing.T) {
	for name, bot := range choosers() {
		tb := newTable(t, 2, `{"pile_size":5}`,
			`{"stocks":[[2],[3]],"hands":[[1,2,3,4]],"draw":[5,6,7,8,9,10]}`)
		tb.exhaust(4, 0, 0) // seat 0's helper pile 0: a 9 on top, a 10 below
		for _, c := range []string{"1", "2", "3", "4", "5", "6", "7", "8"} {
			tb.play(0, hand(c, 0))
		}
		if tb.st.nHand[0] != 0 || tb.st.nDraw != 0 {
			t.Fatalf("hand %s, draw pile %d", tb.handOf(0), tb.st.nDraw)
		}
		tb.expect(name, bot, helperBuild(0, 0))
		tb.expect(name, bot, helperBuild(0, 0))
		if tb.st.turn != 0 || tb.st.nHand[0] != HandSize {
			t.Fatalf("%s bot: turn %d, hand %s: the completed pile should have refilled it", name, tb.st.turn, tb.handOf(0))
		}
	}
}
