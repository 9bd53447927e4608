package papayoo

import (
	"testing"

	"tapis/game"
)

// greedyPass, which rates again only the suit of each card chosen, chooses
// what passStep chooses card by card, over hands of every size.
func TestGreedyPassIsPassStep(t *testing.T) {
	r := game.NewRNG(1)
	for i := 0; i < 20000; i++ {
		var hand uint64
		for n := 1 + r.IntN(25); n > 0; n-- {
			hand |= 1 << uint(r.IntN(DeckSize))
		}
		k := 1 + r.IntN(5)
		var want uint64
		for j := 0; j < k && hand&^want != 0; j++ {
			want |= 1 << uint(passStep(hand, want))
		}
		if got := dangerousPass(hand, k); got != want {
			t.Fatalf("hand %x, %d cards: greedyPass %x, passStep %x", hand, k, got, want)
		}
		_, in := greedyPass(hand, k, want)
		_, out := greedyPass(hand, k, want&(want-1))
		if !in || out {
			t.Fatalf("hand %x: within its own pass %v, within less %v", hand, in, out)
		}
	}
}

// At the pass, the plans are the seat's whole passes: the heuristic's
// first, then every other choice of the cards left among its most
// dangerous, each once; a pass begun keeps its chosen cards.
func TestPlansArePasses(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		st, _ := NewState(game.Config{Players: n, Seed: uint64(n)})
		k := st.passSize()
		for chosen := 0; chosen < k; chosen++ {
			moves, ends := st.Plans(0, nil, nil)
			need := k - chosen
			want := 1 // C(need+planSpread, need)
			for i := 1; i <= need; i++ {
				want = want * (planSpread + i) / i
			}
			if len(ends) != want {
				t.Fatalf("%dp, %d chosen: %d plans, want %d", n, chosen, len(ends), want)
			}
			seen := map[uint64]bool{}
			start := 0
			for i, end := range ends {
				var set uint64
				for _, m := range moves[start:end] {
					if err := st.Clone().Apply(0, m, nil); err != nil {
						t.Fatalf("%dp: plan %d: %v", n, i, err)
					}
					set |= cardsOf(m)
				}
				if end-start != need || seen[set] || set&st.pass[0] != 0 {
					t.Fatalf("%dp, %d chosen: plan %d is %x", n, chosen, i, set)
				}
				seen[set] = true
				if i == 0 && dangerousPass(st.hands[0], k) != set|st.pass[0] {
					t.Fatalf("%dp: the first plan %x is not the heuristic's pass", n, set)
				}
				start = end
			}
			// Choose the heuristic's next card and plan again.
			do(t, st, 0, passJSON(CardName(passStep(st.hands[0], st.pass[0]))), nil)
		}
		if moves, ends := st.Plans(1, nil, nil); len(ends) == 0 || len(moves) == 0 {
			t.Fatalf("%dp: no plans for a seat still passing", n)
		}
	}
}

// After the pass, samples prefer deals whose passes fit the heuristic's
// rule (passinfer.go): at a table of heuristics, where the true deal's
// passes fit, samples fit clearly more often than single deals do (at
// positions early in the round, where many deals fit nowhere, some 23%
// against 14%), and they are whole deals.
func TestSamplePrefersFittingPasses(t *testing.T) {
	var fits, deals, samples int
	for g := uint64(0); g < 10; g++ {
		st, _ := NewState(game.Config{Players: 4, Seed: g})
		ps := make([]*Heuristic, 4)
		for s := range ps {
			ps[s] = NewHeuristic(game.Seat(s), g)
		}
		var log game.Log
		for st.rounds == 0 && !st.Over() {
			stepHeuristics(t, st, ps, &log)
			if st.phase != phasePlay || st.nSeq%4 != 1 {
				continue
			}
			s := st.turn
			for i := uint64(0); i < 20; i++ {
				r := game.NewRNG(i)
				y := st.Sample(s, &r).(*State)
				if err := y.Check(); err != nil {
					t.Fatal(err)
				}
				samples++
				if y.passMisfits(s, st.passSize()) == 0 {
					fits++
				}
				r = game.NewRNG(i)
				if oneDeal(st, s, &r).passMisfits(s, st.passSize()) == 0 {
					deals++
				}
			}
		}
	}
	t.Logf("of %d samples, %d fit; of as many single deals, %d", samples, fits, deals)
	if 4*fits < 5*deals {
		t.Errorf("samples fit %d times, single deals %d", fits, deals)
	}
}

// oneDeal is a sample without the passes' inference: one deal of the
// unknown cards, the passes guessed.
func oneDeal(st *State, s game.Seat, r *game.RNG) *State {
	y := *st
	n := game.Seat(st.n)
	fixed, unknown, need, allowed := st.hidden(s)
	var deal [MaxPlayers]uint64
	shun := st.shuns()
	dealUnknown(&deal, unknown, need, allowed, &shun, int(n), r)
	for t := game.Seat(0); t < n; t++ {
		y.hands[t] = fixed[t] | deal[t]
	}
	y.guessPasses(s, st.passSize())
	return &y
}
