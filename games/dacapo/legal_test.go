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

// legalRef is Legal as a plain reading of its order: the builds from the
// personal top, each hand value upwards, each helper pile, each
// opponent's top in seat order, each onto the piles it fits in pile
// order; then each hand value onto each helper pile; End where allowed.
func legalRef(st *State, s game.Seat) []game.Move {
	var out []game.Move
	if st.over || s != st.turn {
		return out
	}
	builds := func(c int8, f From, arg int8) {
		for p := 0; p < Piles; p++ {
			if c != 0 && st.fits(c, p) {
				out = append(out, mkBuild(f, arg, p))
			}
		}
	}
	builds(st.top[s], FromStock, 0)
	for c := int8(1); c <= Joker; c++ {
		if st.hand[s][c] > 0 {
			builds(c, FromHand, c)
		}
	}
	for i := 0; i < Helpers; i++ {
		builds(st.helperTop(s, i), FromHelper, int8(i))
	}
	for t := game.Seat(0); t < game.Seat(st.n); t++ {
		if t != s {
			builds(st.top[t], FromOpponent, int8(t))
		}
	}
	for c := int8(1); c <= Joker; c++ {
		if st.hand[s][c] > 0 {
			out = append(out, mkHelp(c, 0), mkHelp(c, 1), mkHelp(c, 2))
		}
	}
	if st.nHand[s] == 0 && st.nDraw == 0 && st.nAside == 0 {
		out = append(out, endMove)
	}
	return out
}

// Legal lists its moves in legalRef's order (random playouts and seeded
// bots depend on it), at every table size along random games.
func TestLegalOrder(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for g := uint64(0); g < 30; g++ {
			st, err := NewState(game.Config{Players: n, Seed: g})
			if err != nil {
				t.Fatal(err)
			}
			r := game.NewRNG(g)
			var buf []game.Move
			for moves := 0; !st.Over() && moves < 5000; moves++ {
				s := st.ToMove().First()
				buf = st.Legal(s, buf[:0])
				if want := legalRef(st, s); !reflect.DeepEqual(buf, want) {
					t.Fatalf("%d players, game %d, move %d: Legal %x, want %x", n, g, moves, buf, want)
				}
				if err := st.Apply(s, buf[r.IntN(len(buf))], nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
