package cabo

import (
	"testing"

	"tapis/game"
)

// The kept bits follow a drawn card its owner put in a slot: set by a
// replace, moved by a swap, cleared by a take from the discard (public)
// and by a set.
func TestKeptBits(t *testing.T) {
	tb := newTable(t, 2, "", deal([][]int{{9, 9, 5, 6}, {1, 2, 3, 4}}, 13, 3, 11, 0, 2))
	tb.peekAll()
	tb.do(0, `{"type":"draw"}`) // 3
	tb.do(0, `{"type":"replace","slots":[2]}`)
	tb.eq("kept after a replace", tb.st.kept, [MaxPlayers]uint8{1 << 2})
	tb.do(1, `{"type":"draw"}`) // 11
	tb.do(1, `{"type":"swap","a":{"seat":0,"slot":2},"b":{"seat":1,"slot":3}}`)
	tb.eq("kept after a swap", tb.st.kept, [MaxPlayers]uint8{0, 1 << 3})
	tb.do(0, `{"type":"draw"}`) // 0
	tb.do(0, `{"type":"replace","slots":[0,1]}`)
	tb.eq("kept after a set", tb.st.kept, [MaxPlayers]uint8{1 << 0, 1 << 3})
	tb.do(1, `{"type":"take_discard","slots":[3]}`)
	tb.eq("kept after a take", tb.st.kept, [MaxPlayers]uint8{1 << 0, 0})
}

// The win table is a chance: even at equal scores, better for the lower
// score, and 0 or 1 once the game is decided.
func TestWinTable(t *testing.T) {
	st, _ := NewState(game.Config{Players: 2})
	at := func(a, b int) float64 {
		x := [MaxPlayers]int{a, b}
		return st.chance(0, &x)
	}
	for _, eq := range []int{0, 40, 80, 95} {
		if v := at(eq, eq); v < 0.499 || v > 0.501 {
			t.Errorf("chance at %d-%d is %v, want 0.5", eq, eq, v)
		}
	}
	if !(at(20, 40) > at(30, 30) && at(80, 60) < at(70, 70)) {
		t.Errorf("a lower score is not worth more: %v %v %v %v", at(20, 40), at(30, 30), at(80, 60), at(70, 70))
	}
	if at(90, 70) >= at(50, 30) {
		t.Errorf("the same lead near the end (%v) should be worth less than early (%v)", at(90, 70), at(50, 30))
	}
	if at(101, 60) != 0 || at(60, 101) != 1 || at(101, 101) != 0.5 {
		t.Errorf("a decided game: %v %v %v", at(101, 60), at(60, 101), at(101, 101))
	}
}

// A round won is worth more than a round lost, and the values of the two
// seats add up to 1.
func TestValueOfARound(t *testing.T) {
	value := func(hands [][]int) (float64, float64) {
		tb := newTable(t, 2, "", deal(hands, 10))
		tb.peekAll()
		tb.callAndEnd()
		return tb.st.Value(0), tb.st.Value(1)
	}
	won, lost := value([][]int{{0, 1, 2, 3}, {9, 9, 9, 9}})
	if won <= 0.5 || lost >= 0.5 || won+lost < 0.999 || won+lost > 1.001 {
		t.Errorf("won round: %v and %v", won, lost)
	}
	bad, _ := value([][]int{{5, 5, 5, 5}, {0, 1, 1, 2}})
	worse, _ := value([][]int{{13, 13, 11, 12}, {0, 1, 1, 2}})
	if !(worse < bad && bad < 0.5) {
		t.Errorf("a lost round costs more the more it scores: %v, %v", bad, worse)
	}
}

// Sample deals an opponent's kept drawn card low: over many samples, its
// mean is far below the deck's 6.5, while a slot nobody has seen stays
// near the mean of the unseen cards.
func TestSampleKeptIsLow(t *testing.T) {
	tb := newTable(t, 2, "", deal([][]int{{9, 9, 5, 6}, {7, 7, 8, 8}}, 13, 12, 3))
	tb.peekAll()
	tb.do(0, `{"type":"draw"}`) // 3
	tb.do(0, `{"type":"replace","slots":[2]}`)
	r := game.NewRNG(1)
	kept, unseen := 0, 0
	const n = 2000
	for i := 0; i < n; i++ {
		y := tb.st.Sample(1, &r).(*State)
		kept += int(y.hands[0][2])
		unseen += int(y.hands[0][3])
	}
	if m := float64(kept) / n; m > 4.5 {
		t.Errorf("a kept card samples at %.2f on average, want a low card", m)
	}
	if m := float64(unseen) / n; m < 5.5 || m > 7.5 {
		t.Errorf("an unseen card samples at %.2f on average, want near 6.5", m)
	}
}

// InfoKey tells apart what the seat would see differently (the card it
// drew) and not what it cannot see (the opponent's).
func TestInfoKey(t *testing.T) {
	key := func(draw int) (mine, theirs uint64) {
		tb := newTable(t, 2, "", deal([][]int{{9, 9, 5, 6}, {1, 2, 3, 4}}, 13, draw))
		tb.peekAll()
		tb.do(0, `{"type":"draw"}`)
		return tb.st.InfoKey(0), tb.st.InfoKey(1)
	}
	m3, t3 := key(3)
	m4, t4 := key(4)
	if m3 == m4 {
		t.Error("the drawer's key does not depend on the card it drew")
	}
	if t3 != t4 {
		t.Error("the other seat's key depends on a card it has not seen")
	}
}
