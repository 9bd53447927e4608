package cabo

import (
	"testing"

	"tapis/game"
)

// Sets: a card may replace 2, 3 or 4 slots holding equal values; it goes
// into the lowest of them and the others stay empty, keeping their index.
func TestSetSucceeds(t *testing.T) {
	tb := newTable(t, 2, "", deal([][]int{{3, 5, 9, 5}, {6, 6, 6, 6}}, 1, 2))
	tb.peekAll()
	tb.do(0, `{"type":"draw"}`)
	tb.do(0, `{"type":"replace","slots":[1,3]}`)
	tb.eq("hand", tb.hand(0), []int{3, 2, 9, -1})
	tb.eq("both 5s discarded", tb.st.discard[1:3], []int8{5, 5})
	ev := tb.lastEvent(1, "replace")
	tb.eq("event", ev.Discarded, []int{5, 5})
	// The emptied slot stays empty and cannot be used.
	tb.refuse(1, `{"type":"take_discard","slots":[4]}`, "slot 4 is empty")
	tb.do(1, `{"type":"take_discard","slots":[0,1,2,3]}`) // four 6s for a 5
	tb.eq("four-card set", tb.hand(1), []int{5, -1, -1, -1})
	tb.do(0, `{"type":"draw"}`)
	tb.refuse(0, `{"type":"replace","slots":[3]}`, "slot 3 is empty")
	tb.do(0, `{"type":"replace","slots":[0]}`)
	tb.eq("slots keep their index", tb.hand(0)[2], 9)
}

func TestThreeCardSetFromDiscard(t *testing.T) {
	tb := newTable(t, 2, "", deal([][]int{{7, 7, 1, 7}, h2[1]}, 0))
	tb.peekAll()
	tb.do(0, `{"type":"take_discard","slots":[0,1,3]}`)
	tb.eq("hand", tb.hand(0), []int{0, -1, 1, -1})
	if tb.st.known[1][0]&1 == 0 {
		t.Fatal("a card taken from the discard must be known to all in its new slot")
	}
}

// A failed claim: the cards are shown to every player and stay, the
// incoming card goes to the discard pile, and the turn ends. Specials match
// on value, not power: an 11 and a 12 are no set.
func TestSetFails(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hand  []int
		slots string
		seen  []int
	}{
		{"different values", []int{4, 5, 1, 2}, "[0,1]", []int{4, 5}},
		{"same power, not value", []int{11, 12, 1, 2}, "[0,1]", []int{11, 12}},
		{"one odd card of three", []int{6, 6, 1, 7}, "[0,1,3]", []int{6, 6, 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTable(t, 2, "", deal([][]int{tc.hand, {0, 0, 1, 1}}, 13, 3))
			tb.peekAll()
			tb.do(0, `{"type":"draw"}`)
			tb.do(0, `{"type":"replace","slots":`+tc.slots+`}`)
			tb.eq("hand unchanged", tb.hand(0), tc.hand)
			tb.eq("drawn card discarded", int(tb.st.topDiscard()), 3)
			tb.eq("turn lost", tb.st.ToMove().List()[0], game.Seat(1))
			for _, s := range []game.Seat{0, 1} {
				ev := tb.lastEvent(s, "replace")
				if !ev.Failed {
					t.Fatal("the event does not say the set failed")
				}
				tb.eq("cards shown to all", ev.Seen, tc.seen)
			}
			if tb.lastEvent(-1, "replace").Seen == nil {
				t.Fatal("a failed set is not shown to spectators")
			}
		})
	}
}

func TestFailedSetFromDiscard(t *testing.T) {
	tb := newTable(t, 2, "", deal([][]int{{4, 5, 1, 2}, {0, 0, 1, 1}}, 9))
	tb.peekAll()
	tb.do(0, `{"type":"take_discard","slots":[0,1]}`)
	tb.eq("hand unchanged", tb.hand(0), []int{4, 5, 1, 2})
	tb.eq("the taken card is back on the discard", int(tb.st.topDiscard()), 9)
	tb.eq("discard pile size", int(tb.st.nDisc), 1)
}

func TestSetOfFiveRefused(t *testing.T) {
	tb := newTable(t, 2, `{"hand_size":6}`)
	tb.do(0, `{"type":"peek_initial","slots":[0,1,2]}`)
	tb.do(1, `{"type":"peek_initial","slots":[0,1,2]}`)
	tb.refuse(0, `{"type":"take_discard","slots":[0,1,2,3,4]}`, "2 to 4 slots")
}
