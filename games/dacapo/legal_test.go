package dacapo

import (
	"reflect"
	"sort"
	"testing"

	"tapis/game"
)

// allMoves is every well-formed move code.
func allMoves() []game.Move {
	var out []game.Move
	for p := 0; p < Piles; p++ {
		for c := int8(1); c <= Joker; c++ {
			out = append(out, mkBuild(FromHand, c, p))
		}
		out = append(out, mkBuild(FromStock, 0, p))
		for i := int8(0); i < Helpers; i++ {
			out = append(out, mkBuild(FromHelper, i, p))
		}
		for t := int8(0); t < MaxPlayers; t++ {
			out = append(out, mkBuild(FromOpponent, t, p))
		}
	}
	for i := 0; i < Helpers; i++ {
		for c := int8(1); c <= Joker; c++ {
			out = append(out, mkHelp(c, i))
		}
	}
	return append(out, endMove)
}

// Legal lists exactly the moves Apply accepts, once each, for every seat
// along random games.
func TestLegalIsWhatApplyAccepts(t *testing.T) {
	all := allMoves()
	for _, m := range all {
		if !wellFormed(m) {
			t.Fatalf("%#x is not well formed", uint64(m))
		}
	}
	for _, cfg := range configs() {
		for g := uint64(0); g < 5; g++ {
			cfg.Seed = g + 1
			st, err := NewState(cfg)
			if err != nil {
				t.Fatal(err)
			}
			rng := game.NewRNG(g)
			for moves := 0; !st.Over(); moves++ {
				for s := game.Seat(0); s < game.Seat(st.n); s++ {
					legal := st.Legal(s, nil)
					var accepted []game.Move
					for _, m := range all {
						y := *st
						if y.Apply(s, m, nil) == nil {
							accepted = append(accepted, m)
						}
					}
					sort.Slice(legal, func(i, j int) bool { return legal[i] < legal[j] })
					sort.Slice(accepted, func(i, j int) bool { return accepted[i] < accepted[j] })
					if !reflect.DeepEqual(legal, accepted) && (len(legal) > 0 || len(accepted) > 0) {
						t.Fatalf("seat %d: Legal %d moves, Apply accepts %d", s, len(legal), len(accepted))
					}
				}
				legal := st.Legal(st.turn, nil)
				if err := st.Apply(st.turn, legal[rng.IntN(len(legal))], nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
