package papayoo

import (
	"math/bits"
	"testing"

	"tapis/game"
)

// At the pass, a seat's plans are whole passes of legal cards, the
// playout policy's first, each other choice among its most dangerous
// cards once; at the play there are none.
func TestPassPlans(t *testing.T) {
	st, err := NewState(game.Config{Players: 4, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for s := game.Seat(0); s < 4; s++ {
		buf, ends := st.Plans(s, nil, nil)
		if want := 21; len(ends) != want { // 5 of the 7 most dangerous
			t.Fatalf("seat %d: %d plans, want %d", s, len(ends), want)
		}
		seen := map[uint64]bool{}
		start := 0
		for i, end := range ends {
			c := st.Clone().(*State)
			var set uint64
			for _, m := range buf[start:end] {
				if i == 0 {
					r := game.NewRNG(1)
					if want := c.RolloutMove(&r, nil); m != want {
						t.Fatalf("seat %d: the first plan goes %v, the policy %v", s, m, want)
					}
				}
				if err := c.Apply(s, m, nil); err != nil {
					t.Fatalf("seat %d, plan %d: %v", s, i, err)
				}
				set |= cardsOf(m)
			}
			if bits.OnesCount64(set) != 5 || seen[set] || !c.passed.Has(s) {
				t.Fatalf("seat %d, plan %d: passes %b (seen %v)", s, i, set, seen[set])
			}
			seen[set] = true
			start = end
		}
		// Seat s passes: the others' plans are theirs, s has none.
		for _, m := range buf[:ends[0]] {
			if err := st.Apply(s, m, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, ends := st.Plans(s, nil, nil); len(ends) != 0 {
			t.Fatalf("seat %d has passed and still has %d plans", s, len(ends))
		}
	}
	if _, ends := st.Plans(st.turn, nil, nil); st.phase != phasePlay || len(ends) != 0 {
		t.Fatalf("at the play (%v): %d plans", st.phase, len(ends))
	}
}
