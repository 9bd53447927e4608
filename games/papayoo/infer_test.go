package papayoo

import (
	"math/bits"
	"testing"

	"tapis/game"
)

// At a table of heuristic bots, what infer guesses from their plays is
// always true, and samples respect it.
func TestInferHeuristicTable(t *testing.T) {
	shunned := 0
	for g := uint64(0); g < 30; g++ {
		n := 3 + int(g%6)
		st, err := NewState(game.Config{Players: n, Seed: g})
		if err != nil {
			t.Fatal(err)
		}
		ps := make([]*Heuristic, n)
		for s := range ps {
			ps[s] = NewHeuristic(game.Seat(s), g)
		}
		r := game.NewRNG(g)
		var log game.Log
		for !st.Over() {
			stepHeuristics(t, st, ps, &log)
			if st.phase != phasePlay {
				continue
			}
			for u := 0; u < n; u++ {
				if bad := st.shuns()[u] & st.hands[u]; bad != 0 {
					t.Fatalf("game %d: seat %d holds %v, which its plays said it lacks", g, u, names(bad))
				}
				shunned += bitsIn(st.shuns()[u] &^ st.playedBy[0] &^ st.playedBy[1] &^ st.playedBy[2])
			}
			y := st.Sample(st.turn, &r).(*State)
			for u := 0; u < n; u++ {
				if bad := y.shuns()[u] & y.hands[u]; bad != 0 {
					t.Fatalf("game %d: a sample gives seat %d %v, which its plays said it lacks", g, u, names(bad))
				}
			}
		}
	}
	if shunned == 0 {
		t.Fatal("infer never guessed anything")
	}
}

func bitsIn(x uint64) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// What shuns reads from the round's plays is, over random games at every
// table size, what this plain reading of infer gives, play by play.
func TestPlayInfers(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for g := uint64(0); g < 20; g++ {
			st, err := NewState(game.Config{Players: n, Seed: g})
			if err != nil {
				t.Fatal(err)
			}
			r := game.NewRNG(g)
			var buf []game.Move
			for !st.Over() {
				s := st.ToMove().First()
				buf = st.Legal(s, buf[:0])
				m := buf[r.IntN(len(buf))]
				want := st.shuns()
				if st.phase == phasePlay && st.nTrick > 0 {
					inferRef(st, s, cardOf(m), &want)
				}
				round := st.rounds
				if err := st.Apply(s, m, nil); err != nil {
					t.Fatal(err)
				}
				if st.rounds == round && st.shuns() != want {
					t.Fatalf("%d players, game %d: seat %d plays %s: shun %x, want %x", n, g, s, CardName(cardOf(m)), st.shuns(), want)
				}
			}
		}
	}
}

// inferRef is infer as first written, one function for every case.
func inferRef(st *State, s game.Seat, c int8, shun *[MaxPlayers]uint64) {
	k, led, best := suitOf[c], st.led, st.best
	bit := uint64(1) << uint(c)
	var pap uint64
	if st.papayoo >= 0 {
		pap = 1 << uint(st.papayoo)
	}
	below := func(x int8) uint64 { return 1<<uint(x) - 1 }
	if k == led {
		if c < best && bit == pap {
			return
		}
		if c < best {
			// Ducked: the highest card under the best one (or the
			// Papayoo) would have been played.
			shun[s] |= suitMask[led] & below(best) &^ below(c+1)
			if bit != pap {
				shun[s] |= pap & suitMask[led] & below(best)
			}
			return
		}
		// Could not duck: no card under the best one.
		shun[s] |= suitMask[led] & below(best)
		return
	}
	// A discard: the Papayoo goes first.
	if bit == pap {
		return
	}
	shun[s] |= pap
	var played uint64
	for t := 0; t < int(st.n); t++ {
		played |= st.playedBy[t]
	}
	if k == Payoo {
		// The highest Payoo goes before a lower one.
		shun[s] |= suitMask[Payoo] &^ below(c+1)
		return
	}
	// A plain card: a higher one of its suit would be worse to keep, and
	// so would a Payoo worth more than c's rank plus the lower cards of
	// its suit still out.
	shun[s] |= suitMask[k] &^ below(c+1)
	d := rank(c) + bits.OnesCount64(suitMask[k]&below(c)&^played)
	// A Payoo of rank r rates 2r+2: those above d.
	if r := (d - 2) / 2; r < payooSize {
		if r < 0 {
			r = 0
		}
		shun[s] |= suitMask[Payoo] &^ below(int8(4*plainSize+r))
	}
}
