package gametest

import (
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"tapis/game"
)

// Property checks, with rapid, that along any sequence of moves every legal
// move applies, the state's invariants hold, and a move that is not legal is
// refused and changes nothing. rapid shrinks a failure to a short sequence.
func Property(t *testing.T, g game.Game, cfgs []game.Config) {
	t.Helper()
	rapid.Check(t, func(rt *rapid.T) {
		cfg := rapid.SampledFrom(cfgs).Draw(rt, "config")
		cfg.Seed = rapid.Uint64().Draw(rt, "seed")
		st, err := g.New(cfg)
		if err != nil {
			rt.Fatalf("New: %v", err)
		}
		var legal []game.Move
		steps := rapid.IntRange(1, 400).Draw(rt, "steps")
		for i := 0; i < steps && !st.Over(); i++ {
			to := st.ToMove()
			seat := to.Nth(rapid.IntRange(0, to.Len()-1).Draw(rt, "seat"))
			legal = st.Legal(seat, legal[:0])
			if rapid.IntRange(0, 9).Draw(rt, "try illegal") == 0 {
				// A legal move of another seat, or a perturbed one.
				other := game.Seat(rapid.IntRange(0, st.Players()-1).Draw(rt, "other"))
				cand := st.Legal(other, nil)
				if len(cand) > 0 {
					m := cand[rapid.IntRange(0, len(cand)-1).Draw(rt, "move")]
					m ^= game.Move(rapid.Uint64Range(0, 255).Draw(rt, "flip")) << uint(rapid.IntRange(0, 56).Draw(rt, "at"))
					if !game.Contains(legal, m) {
						before := st.Clone()
						if st.Apply(seat, m, nil) == nil {
							rt.Fatalf("seat %d: move %#x is not legal but was applied", seat, uint64(m))
						}
						if !reflect.DeepEqual(before, st) {
							rt.Fatalf("a refused move changed the state")
						}
					}
				}
			}
			m := legal[rapid.IntRange(0, len(legal)-1).Draw(rt, "move")]
			if err := st.Apply(seat, m, nil); err != nil {
				rt.Fatalf("seat %d: legal move %#x refused: %v", seat, uint64(m), err)
			}
			if c, ok := st.(Checker); ok {
				if err := c.Check(); err != nil {
					rt.Fatalf("invariant broken: %v", err)
				}
			}
		}
	})
}
