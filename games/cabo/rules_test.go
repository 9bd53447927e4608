package cabo

import (
	"encoding/json"
	"strings"
	"testing"

	"tapis/game"
)

var h2 = [][]int{{1, 2, 3, 4}, {5, 6, 7, 8}}

// Deck: two 0s, four each of 1..12, two 13s; the deal: hand_size cards in
// fixed slots, the rest a draw pile whose top card starts the discard.
func TestDeckAndDeal(t *testing.T) {
	for _, tc := range []struct {
		players int
		opts    string
		hand    int
	}{{2, "", 4}, {5, "", 4}, {3, `{"hand_size":6}`, 6}} {
		tb := newTable(t, tc.players, tc.opts)
		st := tb.st
		var n [Values]int8
		for s := 0; s < tc.players; s++ {
			if got := len(tb.hand(game.Seat(s))); got != tc.hand {
				t.Fatalf("%d cards dealt, want %d", got, tc.hand)
			}
			for _, c := range tb.hand(game.Seat(s)) {
				n[c]++
			}
		}
		for _, c := range st.draw[:st.nDraw] {
			n[c]++
		}
		n[st.topDiscard()]++
		tb.eq("deck", n, [Values]int8{2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2})
		tb.eq("discard pile", int(st.nDisc), 1)
		tb.eq("draw pile", int(st.nDraw), DeckSize-tc.players*tc.hand-1)
	}
}

func TestStackFixesTheDeal(t *testing.T) {
	tb := newTable(t, 2, "", deal(h2, 9, 13, 0))
	tb.eq("seat 0", tb.hand(0), []int{1, 2, 3, 4})
	tb.eq("seat 1", tb.hand(1), []int{5, 6, 7, 8})
	tb.eq("discard", int(tb.st.topDiscard()), 9)
	tb.eq("draw top", int(tb.st.draw[tb.st.nDraw-1]), 13)
	tb.eq("next", int(tb.st.draw[tb.st.nDraw-2]), 0)
}

func TestImpossibleStacksAreRefused(t *testing.T) {
	for _, s := range []string{
		`{"hands":[[13,13,13,1],[1,2,3,4]]}`, // a third 13
		`{"hands":[[0,0,0,1],[1,2,3,4]]}`,    // a third 0
		`{"hands":[[1,2,3],[1,2,3,4]]}`,      // short hand
		`{"hands":[[1,2,3,14],[1,2,3,4]]}`,   // no such card
		`{"hands":[[1,2,3,4]],"shoe":[]}`,    // unknown field
		`{"discard":-1}`,
	} {
		if _, err := NewState(game.Config{Players: 2, Stacks: []json.RawMessage{json.RawMessage(s)}}); err == nil {
			t.Errorf("stack %s accepted", s)
		}
	}
}

// Initial peek: every player looks at initial_peek of their own slots,
// once, all at the same time; play starts when everyone has chosen.
func TestInitialPeek(t *testing.T) {
	tb := newTable(t, 3, "", deal([][]int{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}, 0))
	tb.eq("to move", tb.st.ToMove().List(), []game.Seat{0, 1, 2})
	tb.refuse(0, `{"type":"draw"}`, "initial peek")
	tb.refuse(0, `{"type":"peek_initial","slots":[0]}`, "exactly 2")
	tb.refuse(0, `{"type":"peek_initial","slots":[0,1,2]}`, "exactly 2")
	tb.do(2, `{"type":"peek_initial","slots":[1,3]}`)
	tb.eq("seat 2 sees", tb.lastEvent(2, "peek_initial").Seen, []int{10, 12})
	if tb.lastEvent(0, "peek_initial").Seen != nil {
		t.Fatal("seat 0 saw seat 2's initial peek")
	}
	tb.refuse(2, `{"type":"peek_initial","slots":[0,2]}`, "already peeked")
	tb.do(0, `{"type":"peek_initial","slots":[0,1]}`)
	tb.eq("still peeking", tb.st.ToMove().List(), []game.Seat{1})
	tb.do(1, `{"type":"peek_initial","slots":[2,3]}`)
	tb.eq("play starts with seat 0", tb.st.ToMove().List(), []game.Seat{0})

	six := newTable(t, 2, `{"hand_size":6}`)
	six.refuse(0, `{"type":"peek_initial","slots":[0,1]}`, "exactly 3")
	six.do(0, `{"type":"peek_initial","slots":[0,1,5]}`)
	none := newTable(t, 2, `{"initial_peek":0}`)
	none.eq("no peek phase", none.st.ToMove().List(), []game.Seat{0})
}

// A turn: take the discard's top card into a slot; the replaced card goes
// face up on the discard; its power is never used; the turn ends.
func TestTakeDiscard(t *testing.T) {
	tb := newTable(t, 2, "", deal(h2, 7, 0))
	tb.peekAll()
	tb.do(0, `{"type":"take_discard","slots":[3]}`)
	tb.eq("hand", tb.hand(0), []int{1, 2, 3, 7})
	tb.eq("discard top", int(tb.st.topDiscard()), 4)
	tb.eq("turn passes: the 7's peek is not used", tb.st.ToMove().List(), []game.Seat{1})
	ev := tb.lastEvent(1, "take_discard")
	tb.eq("the taken card is public", *ev.Card, 7)
	tb.eq("the replaced card is public", ev.Discarded, []int{4})
	if tb.st.known[1][0]&(1<<3) == 0 {
		t.Fatal("the taken card's new place is not known to everyone")
	}
	tb.refuse(1, `{"type":"peek","slot":0}`, "draw a card first")
	// The whole discard pile is public, in order, and so is which slots
	// hold a card; no face-down card is in a view.
	v := tb.st.view(1)
	tb.eq("discard pile in the view", v.Discard, []int{4})
	tb.eq("slot layout", v.Slots, [][]bool{{true, true, true, true}, {true, true, true, true}})
}

// Draw: look privately; keep it in a slot, or discard it with no effect.
func TestDrawReplaceAndDiscard(t *testing.T) {
	tb := newTable(t, 2, "", deal(h2, 0, 3, 9))
	tb.peekAll()
	tb.do(0, `{"type":"draw"}`)
	tb.eq("drawer sees", tb.lastEvent(0, "draw").Seen, []int{3})
	if tb.lastEvent(1, "draw").Seen != nil {
		t.Fatal("the other seat saw the drawn card")
	}
	tb.refuse(0, `{"type":"draw"}`, "you have drawn")
	tb.refuse(0, `{"type":"cabo"}`, "you have drawn")
	tb.refuse(0, `{"type":"take_discard","slots":[0]}`, "you have drawn")
	tb.refuse(0, `{"type":"peek","slot":0}`, "does not have this power")
	tb.refuse(1, `{"type":"discard"}`, "seat 0's turn")
	tb.do(0, `{"type":"replace","slots":[3]}`)
	tb.eq("hand", tb.hand(0), []int{1, 2, 3, 3})
	tb.eq("replaced card discarded", int(tb.st.topDiscard()), 4)
	if ev := tb.lastEvent(1, "replace"); ev.Card != nil || ev.Seen != nil {
		t.Fatalf("the placed drawn card was shown to the other seat: %+v", ev)
	}
	tb.do(1, `{"type":"draw"}`)
	tb.do(1, `{"type":"discard"}`)
	tb.eq("discarded with no effect", tb.hand(1), []int{5, 6, 7, 8})
	tb.eq("discard top", int(tb.st.topDiscard()), 9)
	tb.eq("turn passes", tb.st.ToMove().List(), []game.Seat{0})
}

// Powers, only for a card drawn and then discarded: 7-8 peek at an own
// slot, 9-10 spy on another's slot, 11-12 a blind swap.
func TestPowers(t *testing.T) {
	tb := newTable(t, 3, "", deal([][]int{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}, 0, 8, 10, 12, 7))
	for s := 0; s < 3; s++ {
		tb.do(game.Seat(s), `{"type":"peek_initial","slots":[0,1]}`)
	}
	tb.do(0, `{"type":"draw"}`) // an 8
	tb.refuse(0, `{"type":"spy","seat":1,"slot":0}`, "does not have this power")
	tb.refuse(0, `{"type":"peek","slot":5}`, "slot 5 is empty")
	tb.do(0, `{"type":"peek","slot":3}`)
	tb.eq("peek result", tb.lastEvent(0, "peek").Seen, []int{4})
	tb.eq("power card discarded", int(tb.st.topDiscard()), 8)

	tb.do(1, `{"type":"draw"}`) // a 10
	tb.refuse(1, `{"type":"spy","seat":1,"slot":0}`, "another player")
	tb.refuse(1, `{"type":"peek","slot":0}`, "does not have this power")
	tb.do(1, `{"type":"spy","seat":2,"slot":3}`)
	tb.eq("spy result", tb.lastEvent(1, "spy").Seen, []int{12})
	if tb.lastEvent(2, "spy").Seen != nil || tb.lastEvent(0, "spy").Seen != nil {
		t.Fatal("a spied card reached another seat")
	}

	tb.do(2, `{"type":"draw"}`) // a 12
	tb.refuse(2, `{"type":"swap","a":{"seat":0,"slot":0},"b":{"seat":1,"slot":0}}`, "swap_opponents is off")
	if _, err := (Game{}).UnmarshalMove([]byte(`{"type":"swap","a":{"seat":2,"slot":0},"b":{"seat":2,"slot":1}}`)); err == nil || !strings.Contains(err.Error(), "two different players") {
		t.Fatalf("a swap within one hand: %v", err)
	}
	tb.do(2, `{"type":"swap","a":{"seat":2,"slot":0},"b":{"seat":0,"slot":3}}`)
	tb.eq("seat 2 after swap", tb.hand(2), []int{4, 10, 11, 12})
	tb.eq("seat 0 after swap", tb.hand(0), []int{1, 2, 3, 9})
	ev := tb.lastEvent(0, "swap")
	if ev.A == nil || *ev.A != (Slot{0, 3}) || *ev.B != (Slot{2, 0}) || ev.Seat != 2 {
		t.Fatalf("who swapped which slots is public: %+v", ev)
	}
	if ev.Seen != nil || tb.lastEvent(2, "swap").Seen != nil {
		t.Fatal("a blind swap showed a card")
	}
	// Seat 0 had peeked its slot 3 (a 4): it now knows that card is in
	// seat 2's slot 0, and no longer knows its own slot 3.
	if tb.st.known[0][2]&1 == 0 || tb.st.known[0][0]&(1<<3) != 0 {
		t.Fatal("knowledge did not follow the swapped cards")
	}
}

// A 7 taken from the discard is worth its points only: no peek.
func TestPowerNotFromDiscard(t *testing.T) {
	tb := newTable(t, 2, "", deal(h2, 11, 0))
	tb.peekAll()
	tb.do(0, `{"type":"take_discard","slots":[0]}`)
	tb.refuse(0, `{"type":"swap","a":{"seat":0,"slot":1},"b":{"seat":1,"slot":0}}`, "seat 1's turn")
	tb.eq("the 11 is just a card in slot 0", tb.hand(0), []int{11, 2, 3, 4})
}

func TestSwapOpponents(t *testing.T) {
	tb := newTable(t, 3, `{"swap_opponents":true}`, deal([][]int{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}, 0, 11))
	for s := 0; s < 3; s++ {
		tb.do(game.Seat(s), `{"type":"peek_initial","slots":[0,1]}`)
	}
	tb.do(0, `{"type":"draw"}`)
	tb.do(0, `{"type":"swap","a":{"seat":1,"slot":0},"b":{"seat":2,"slot":3}}`)
	tb.eq("seat 1", tb.hand(1), []int{12, 6, 7, 8})
	tb.eq("seat 2", tb.hand(2), []int{9, 10, 11, 5})
	tb.eq("seat 0 untouched", tb.hand(0), []int{1, 2, 3, 4})
}

// Cabo: only at the start of a turn and once a round; every other player
// then has exactly one more ordinary turn; the caller's cards may still be
// swapped; then the round ends.
func TestCallCabo(t *testing.T) {
	hands := [][]int{{0, 0, 1, 1}, {5, 6, 7, 8}, {9, 10, 2, 3}}
	tb := newTable(t, 3, "", deal(hands, 4, 11, 6), deal(hands, 4))
	for s := 0; s < 3; s++ {
		tb.do(game.Seat(s), `{"type":"peek_initial","slots":[0,1]}`)
	}
	tb.do(0, `{"type":"cabo"}`)
	tb.refuse(1, `{"type":"cabo"}`, "already called")
	tb.do(1, `{"type":"draw"}`) // an 11: swap with the caller
	tb.do(1, `{"type":"swap","a":{"seat":0,"slot":0},"b":{"seat":1,"slot":3}}`)
	tb.eq("caller swapped", tb.hand(0), []int{8, 0, 1, 1})
	tb.eq("round not over", tb.st.rounds, 0)
	tb.do(2, `{"type":"take_discard","slots":[0]}`) // an ordinary final turn
	tb.eq("round over after each other player's one turn", tb.st.rounds, 1)
	// Totals: caller 10, seat 1 5+6+7+0=18, seat 2 11+10+2+3=26 (took the 11).
	tb.eq("round end totals", tb.st.last.totals[:3], []int{10, 18, 26})
}

func TestCaboOnlyAtTurnStart(t *testing.T) {
	tb := newTable(t, 2, "", deal(h2, 0, 5))
	tb.peekAll()
	tb.refuse(1, `{"type":"cabo"}`, "seat 0's turn")
	tb.do(0, `{"type":"draw"}`)
	tb.refuse(0, `{"type":"cabo"}`, "you have drawn")
}

// An empty draw pile: all discards but the top are shuffled into a new one.
func TestReshuffle(t *testing.T) {
	tb := newTable(t, 2, "")
	tb.peekAll()
	st := tb.st
	for st.nDraw > 0 {
		tb.do(st.turn, `{"type":"draw"}`)
		tb.do(st.turn, `{"type":"discard"}`)
	}
	top, n := st.topDiscard(), st.nDisc
	tb.do(st.turn, `{"type":"draw"}`)
	tb.eq("the top discard stays", st.topDiscard(), top)
	tb.eq("discard pile", int(st.nDisc), 1)
	tb.eq("new draw pile (one card already drawn)", int(st.nDraw), int(n)-2)
	tb.eq("reshuffle event", tb.lastEvent(1, "reshuffle").Count, int(n)-1)
}

// Any slot may be replaced or swapped whether or not its owner knows it.
func TestUnknownSlotsPlayable(t *testing.T) {
	tb := newTable(t, 2, "", deal(h2, 0, 2, 12))
	tb.peekAll()
	tb.do(0, `{"type":"draw"}`)
	tb.do(0, `{"type":"replace","slots":[3]}`) // slot 3 was never seen
	tb.do(1, `{"type":"draw"}`)
	tb.do(1, `{"type":"swap","a":{"seat":0,"slot":2},"b":{"seat":1,"slot":3}}`) // nobody knows either
}
