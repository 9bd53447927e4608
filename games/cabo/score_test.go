package cabo

import (
	"encoding/json"
	"testing"

	"tapis/game"
)

// endBy plays draw-and-discard turns until caller's turn, has caller call
// Cabo, and gives every other seat its final turn.
func (tb *table) endBy(caller game.Seat) {
	tb.t.Helper()
	if tb.st.phase == phasePeek {
		tb.peekAll()
	}
	for tb.st.turn != caller {
		tb.do(tb.st.turn, `{"type":"draw"}`)
		tb.do(tb.st.turn, `{"type":"discard"}`)
	}
	tb.callAndEnd()
}

func TestRoundScores(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hands   [][]int
		caller  game.Seat
		scores  []int
		winners []game.Seat
	}{
		{"lowest wins, caller not lowest pays 5", [][]int{{5, 5, 5, 5}, {1, 1, 1, 1}, {2, 2, 2, 3}}, 0, []int{25, 0, 9}, []game.Seat{1}},
		{"caller lowest wins", [][]int{{1, 1, 1, 1}, {2, 2, 2, 2}, {9, 9, 9, 9}}, 0, []int{0, 8, 36}, []game.Seat{0}},
		{"tie with the caller: the caller alone wins", [][]int{{1, 1, 1, 1}, {2, 2, 0, 0}, {9, 9, 9, 9}}, 0, []int{0, 4, 36}, []game.Seat{0}},
		{"tie without the caller: every tied player scores 0", [][]int{{5, 5, 5, 5}, {1, 1, 1, 1}, {2, 2, 0, 0}}, 0, []int{25, 0, 0}, []game.Seat{1, 2}},
		{"kamikaze beats a lower caller, no penalty on top", [][]int{{0, 0, 1, 1}, {12, 13, 12, 13}, {3, 3, 3, 3}}, 0, []int{50, 0, 50}, []game.Seat{1}},
		{"kamikaze caller", [][]int{{2, 2, 2, 2}, {12, 13, 12, 13}, {3, 3, 3, 3}}, 1, []int{50, 0, 50}, []game.Seat{1}},
		{"nearly kamikaze is just 50 points", [][]int{{1, 1, 1, 1}, {12, 13, 11, 13}, {3, 3, 3, 3}}, 0, []int{0, 49, 12}, []game.Seat{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTable(t, 3, "", deal(tc.hands, 4))
			tb.endBy(tc.caller)
			res := tb.st.Result()
			tb.eq("round scores", res.RoundScores, tc.scores)
			tb.eq("cumulative", res.Scores, tc.scores)
			tb.eq("round winners", tb.st.last.winners.List(), tc.winners)
			ev := tb.lastEvent(game.Spectator, "round_end")
			tb.eq("all cards revealed", ev.End.Hands, tc.hands)
		})
	}
}

// Kamikaze needs exactly two 12s and two 13s and nothing else.
func TestKamikazeNeedsExactlyFourCards(t *testing.T) {
	tb := newTable(t, 2, `{"hand_size":6}`, deal([][]int{{1, 1, 1, 2, 2, 2}, {12, 13, 12, 13, 0, 1}}, 4))
	tb.do(0, `{"type":"peek_initial","slots":[0,1,2]}`)
	tb.do(1, `{"type":"peek_initial","slots":[0,1,2]}`)
	tb.endBy(0)
	tb.eq("six cards are no kamikaze", tb.st.Result().RoundScores, []int{0, 51})
	if tb.st.last.kamikaze != -1 {
		t.Fatal("kamikaze with six cards")
	}
}

// The winner of a round starts the next; several winners: the lowest
// cumulative score; still tied: one of them at random.
func TestNextStarter(t *testing.T) {
	tb := newTable(t, 3, "", deal([][]int{{5, 5, 5, 5}, {1, 1, 1, 1}, {2, 2, 2, 3}}, 4))
	tb.endBy(0)
	tb.eq("round 2 starts with the winner", tb.st.turn, game.Seat(1))

	// Round 1: seat 2 scores 9; round 2: seats 1 and 2 tie without the
	// caller; seat 1 has the lower cumulative score and starts.
	tb = newTable(t, 3, "", deal([][]int{{5, 5, 5, 5}, {1, 1, 1, 1}, {2, 2, 2, 3}}, 4),
		deal([][]int{{5, 5, 5, 5}, {1, 1, 1, 1}, {2, 2, 0, 0}}, 4))
	tb.endBy(0)
	tb.endBy(0)
	tb.eq("scores", tb.st.Result().Scores, []int{50, 0, 9})
	tb.eq("lowest cumulative among the winners starts", tb.st.turn, game.Seat(1))

	starters := map[game.Seat]int{}
	for seed := uint64(0); seed < 40; seed++ {
		st, err := NewState(game.Config{Players: 3, Seed: seed, Stacks: []json.RawMessage{json.RawMessage(deal([][]int{{5, 5, 5, 5}, {1, 1, 1, 1}, {2, 2, 0, 0}}, 4))}})
		if err != nil {
			t.Fatal(err)
		}
		tb := &table{t: t, st: st}
		tb.endBy(0)
		starters[st.turn]++
	}
	if len(starters) != 2 || starters[1] == 0 || starters[2] == 0 {
		t.Fatalf("tied winners with equal scores: starters %v, want both 1 and 2", starters)
	}
}

// Exactly 100 drops to reset_at_100_to (max_resets times per player); above
// 100 ends the game; the lowest cumulative score wins, ties share.
func TestHundred(t *testing.T) {
	high := [][]int{{0, 1, 1, 3}, {12, 12, 11, 11}} // seat 1 scores 46
	eight := [][]int{{0, 1, 1, 3}, {2, 2, 2, 2}}    // seat 1 scores 8
	one := [][]int{{0, 1, 1, 3}, {12, 12, 1, 1}}    // seat 1 scores 26
	rounds := []string{deal(high, 4), deal(high, 4), deal(eight, 4), deal(one, 4)}
	for _, tc := range []struct {
		opts   string
		after3 int
		over   bool
	}{
		{"", 50, false},
		{`{"reset_at_100_to":70}`, 70, false},
		{`{"max_resets":0}`, 100, false},
	} {
		tb := newTable(t, 2, tc.opts, rounds...)
		for r := 0; r < 3; r++ {
			tb.endBy(0)
		}
		tb.eq(tc.opts+": after exactly 100", tb.st.Result().Scores, []int{0, tc.after3})
		if tb.st.Over() {
			t.Fatalf("%s: exactly 100 ended the game", tc.opts)
		}
		tb.endBy(0)
		want := tc.after3 + 26
		tb.eq(tc.opts+": round 4", tb.st.Result().Scores, []int{0, want})
		if tb.st.Over() != (want > 100) {
			t.Fatalf("%s: over = %v at %d", tc.opts, tb.st.Over(), want)
		}
	}

	// max_resets is per player and counts: the second 100 stays.
	tb := newTable(t, 2, `{"max_resets":1,"reset_at_100_to":54}`,
		deal(high, 4), deal(high, 4), deal(eight, 4), deal(high, 4))
	for r := 0; r < 4; r++ {
		tb.endBy(0)
	}
	tb.eq("second 100 is not reset", tb.st.Result().Scores, []int{0, 100})
}

func TestGameEndAndSharedWin(t *testing.T) {
	hands := [][]int{{1, 1, 2, 2}, {1, 1, 2, 2}, {12, 12, 11, 11}}
	tb := newTable(t, 3, "", deal(hands, 4), deal(hands, 4))
	tb.endBy(2) // seat 2 calls with 46: 51; seats 0 and 1 tie at 6 and score 0
	tb.eq("round 1", tb.st.Result().Scores, []int{0, 0, 51})
	tb.endBy(2)
	if !tb.st.Over() {
		t.Fatal("a score above 100 did not end the game")
	}
	res := tb.st.Result()
	tb.eq("final", res.Scores, []int{0, 0, 102})
	tb.eq("shared win", res.Winners, []game.Seat{0, 1})
	tb.eq("nobody to move", tb.st.ToMove().Len(), 0)
	tb.refuse(0, `{"type":"draw"}`, "game is over")
}
