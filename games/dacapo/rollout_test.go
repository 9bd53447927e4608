package dacapo

import (
	"testing"

	"tapis/game"
)

// Playouts of RolloutMove alone, which follow planned sequences across
// moves, play legal moves only and end, for every table size; and a
// random move between rollout moves makes the plan start over.
func TestRolloutLegal(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for g := 0; g < 50; g++ {
			st, err := NewState(game.Config{Players: n, Seed: uint64(100*n + g)})
			if err != nil {
				t.Fatal(err)
			}
			rng := game.NewRNG(uint64(g))
			var buf []game.Move
			for moves := 0; !st.Over(); moves++ {
				if moves > 20000 {
					t.Fatalf("%d players, game %d: no end after %d moves", n, g, moves)
				}
				s := st.turn
				buf = st.Legal(s, buf[:0])
				m := st.RolloutMove(&rng, nil)
				if g%2 == 1 && rng.IntN(4) == 0 {
					m = buf[rng.IntN(len(buf))]
				}
				if !game.Contains(buf, m) {
					t.Fatalf("%d players, game %d: rollout move %#x is not legal", n, g, uint64(m))
				}
				if err := st.Apply(s, m, nil); err != nil {
					t.Fatal(err)
				}
				if err := st.Check(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// The playout policy beats the heuristic bot it is built from (55% of
// games in long runs), seats alternating: a change that loses that edge
// would make every search playout worse.
func TestRolloutBeatsHeuristic(t *testing.T) {
	const games = 1000
	wins := 0.0
	rng := game.NewRNG(1)
	for g := 0; g < games; g++ {
		st, err := NewState(game.Config{Players: 2, Seed: uint64(g + 1)})
		if err != nil {
			t.Fatal(err)
		}
		me := game.Seat(g % 2)
		h := Game{}.Heuristic(1-me, 0)
		for !st.Over() {
			s := st.turn
			var m game.Move
			if s == me {
				m = st.RolloutMove(&rng, nil)
			} else {
				m = h.Choose(game.KnowledgeOf(st, s))
			}
			if err := st.Apply(s, m, nil); err != nil {
				t.Fatal(err)
			}
		}
		if st.winners.Has(me) {
			wins += 1 / float64(st.winners.Len())
		}
	}
	rate := wins / games
	t.Logf("the playout policy won %.1f%% of %d games against the heuristic", 100*rate, games)
	if rate < 0.5 {
		t.Errorf("the playout policy won %.1f%% against the heuristic, want more than half", 100*rate)
	}
}

// helperScore looks helperPoints up in a table: over random games at every
// table size, it rates every helper move of every seat as this plain
// reading of the rule does.
func TestHelperScoreTable(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for g := uint64(0); g < 5; g++ {
			st, err := NewState(game.Config{Players: n, Seed: g})
			if err != nil {
				t.Fatal(err)
			}
			r := game.NewRNG(g)
			var buf []game.Move
			for moves := 0; !st.Over() && moves < 3000; moves++ {
				for s := game.Seat(0); s < game.Seat(n); s++ {
					for c := int8(1); c < Kinds; c++ {
						for i := 0; i < Helpers; i++ {
							if got, want := st.helperScore(s, c, i), helperScoreRef(st, s, c, i); got != want {
								t.Fatalf("%d players, game %d: seat %d, %d on helper %d: %d, want %d", n, g, s, c, i, got, want)
							}
						}
					}
				}
				s := st.ToMove().First()
				buf = st.Legal(s, buf[:0])
				if err := st.Apply(s, buf[r.IntN(len(buf))], nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// helperScoreRef is helperScore as first written.
func helperScoreRef(st *State, s game.Seat, c int8, i int) int {
	k := int(s)*Helpers + i
	sc := hHigh * int(c)
	if st.hlen[k] == 0 {
		return sc + hNew
	}
	top := st.top[s]
	low := min(st.nPile[0], st.nPile[1], st.nPile[2])
	switch t := st.htop[k]; {
	case t == Joker:
		sc -= hJoker
	case t == c+1:
		sc += hDescend
	case t == c:
		sc += hSame
	case t == c+2:
		sc += hSkip
		if top != Joker && t > low && t < top {
			sc -= hUseful
		}
	default:
		sc += hBury
		if top != Joker && t > low && t < top {
			sc -= hUseful
		}
	}
	return sc
}
