package papayoo

import (
	"strings"
	"testing"

	"tapis/game"
)

// Cards: 40 suited cards 1..10 in four suits and 20 Payoos, each with one
// name in REPLAY.md's notation; only the Payoos score, their number.
func TestCardNotation(t *testing.T) {
	seen := map[string]bool{}
	total := 0
	for c := int8(0); c < DeckSize; c++ {
		name := CardName(c)
		back, err := ParseCard(name)
		if err != nil || back != c || seen[name] {
			t.Fatalf("card %d: %q parses to %d, %v", c, name, back, err)
		}
		seen[name] = true
		total += CardPoints(c, none)
	}
	for _, s := range []string{"S1", "S10", "H7", "D3", "C10", "P1", "P20"} {
		if !seen[s] {
			t.Fatalf("%s is not a card", s)
		}
	}
	for _, s := range []string{"S0", "S11", "P0", "P21", "X3", "s7", "S07", "", "P", "H1x", "P-1"} {
		if _, err := ParseCard(s); err == nil {
			t.Fatalf("%q parsed", s)
		}
	}
	if total != RoundPoints-PapayooPoints {
		t.Fatalf("the Payoos total %d, want 210", total)
	}
}

// The invariant checks themselves: Check notices a card in two places, a
// lost card, a round that did not score 250; ending a round that did not
// total 250 is refused loudly.
func TestInvariantsBite(t *testing.T) {
	st := mustNew(t, 4, "", stackJSON(blocks(4), "H"))
	passFirst(t, st)
	bad := *st
	bad.hands[1] |= bad.hands[0] & -bad.hands[0]
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "two places") {
		t.Fatalf("a card in two hands: %v", err)
	}
	bad = *st
	bad.hands[2] &= bad.hands[2] - 1
	if err := bad.Check(); err == nil {
		t.Fatal("a lost card went unnoticed")
	}
	bad = *st
	bad.rounds, bad.roundScores = 1, [MaxPlayers]int{100, 100, 49}
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "249") {
		t.Fatalf("a round of 249 points: %v", err)
	}
	bad = *st
	bad.taken[0] = 5
	if err := bad.Check(); err == nil {
		t.Fatal("points from nowhere went unnoticed")
	}
	// Play the round to its last trick, add a point that does not exist,
	// and end it.
	for st.rounds == 0 {
		s := st.ToMove().First()
		if count(st.hands[0]|st.hands[1]|st.hands[2]|st.hands[3]) == 1 {
			st.taken[s]++
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "251") {
					t.Fatalf("a round of 251 points ended: %v", r)
				}
			}()
		}
		_ = st.Apply(s, st.Legal(s, nil)[0], nil)
	}
	t.Fatal("unreachable: the round should not end")
}

// Every round of every table scores 250, the 1s removed or not.
func TestRoundsScore250(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for g := uint64(0); g < 20; g++ {
			st, _ := NewState(game.Config{Players: n, Seed: g})
			rng := game.NewRNG(g)
			var buf []game.Move
			last := 0
			for !st.Over() {
				to := st.ToMove()
				s := to.Nth(rng.IntN(to.Len()))
				buf = st.Legal(s, buf[:0])
				if err := st.Apply(s, buf[rng.IntN(len(buf))], nil); err != nil {
					t.Fatal(err)
				}
				if res := st.Result(); res.Rounds > last {
					last = res.Rounds
					sum := 0
					for _, v := range res.RoundScores {
						sum += v
					}
					if sum != 250 {
						t.Fatalf("%dp round %d scored %d", n, last, sum)
					}
				}
			}
			if last != n {
				t.Fatalf("%dp: %d rounds by default", n, last)
			}
		}
	}
}
