package cabo

import (
	"testing"

	"tapis/game"
)

// watch feeds a heuristic bot every event its seat may see so far.
func (tb *table) watch(h *Heuristic, from int) int {
	for _, e := range tb.log.Events[from:] {
		if e.To.Has(h.seat) {
			h.Observe(e)
		}
	}
	return len(tb.log.Events)
}

// play lets the heuristic choose for its seat and applies the choice.
func (tb *table) play(h *Heuristic, seen int) (game.Move, int) {
	tb.t.Helper()
	m := h.Choose(game.KnowledgeOf(tb.st, h.seat))
	if err := tb.st.Apply(h.seat, m, &tb.log); err != nil {
		tb.t.Fatalf("heuristic chose a refused move: %v", err)
	}
	return m, tb.watch(h, seen)
}

func TestHeuristicRemembersAndReplacesHighCards(t *testing.T) {
	tb := newTable(t, 2, "", deal([][]int{{13, 2, 9, 9}, {5, 5, 5, 5}}, 11, 1))
	h := NewHeuristic(0, 1)
	seen := 0
	_, seen = tb.play(h, seen) // initial peek: slots 0 and 1 (13 and 2)
	tb.do(1, `{"type":"peek_initial","slots":[0,1]}`)
	seen = tb.watch(h, seen)
	m, seen := tb.play(h, seen)
	tb.eq("draws rather than take an 11 for the 13", m, mk(Draw))
	m, _ = tb.play(h, seen) // holds a 1
	tb.eq("puts the 1 in place of the known 13", m, mkSlots(Replace, 1))
}

func TestHeuristicPlaysKnownSets(t *testing.T) {
	tb := newTable(t, 2, `{"initial_peek":4}`, deal([][]int{{6, 1, 6, 2}, {5, 5, 5, 5}}, 13, 3))
	h := NewHeuristic(0, 1)
	seen := 0
	_, seen = tb.play(h, seen)
	tb.do(1, `{"type":"peek_initial","slots":[0,1,2,3]}`)
	seen = tb.watch(h, seen)
	_, seen = tb.play(h, seen) // draw
	m, _ := tb.play(h, seen)
	tb.eq("two 6s for a 3", m, mkSlots(Replace, 0b0101))
}

func TestHeuristicCallsWithALowHand(t *testing.T) {
	tb := newTable(t, 2, `{"initial_peek":4}`, deal([][]int{{0, 1, 1, 2}, {9, 9, 9, 9}}, 6))
	h := NewHeuristic(0, 1)
	_, seen := tb.play(h, 0)
	tb.do(1, `{"type":"peek_initial","slots":[0,1,2,3]}`)
	seen = tb.watch(h, seen)
	m, _ := tb.play(h, seen)
	tb.eq("calls Cabo holding 4", m, mk(CallCabo))
}

func TestHeuristicPeeksAtUnknownSlots(t *testing.T) {
	tb := newTable(t, 2, "", deal([][]int{{1, 2, 9, 9}, {5, 5, 5, 5}}, 6, 7))
	h := NewHeuristic(0, 1)
	_, seen := tb.play(h, 0)
	tb.do(1, `{"type":"peek_initial","slots":[0,1]}`)
	seen = tb.watch(h, seen)
	_, seen = tb.play(h, seen) // draws the 7
	m, _ := tb.play(h, seen)
	if kindOf(m) != Peek || slotA(m).Slot < 2 {
		t.Fatalf("with a 7 and two unknown slots, chose %#x", uint64(m))
	}
	if h.mem[0][slotA(m).Slot] != 9 {
		t.Fatal("the bot did not remember the peeked card")
	}
}
