package server_test

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// A page that connects in the middle of a match is sent the scores of
// every round completed so far, in order, the same as a page that watched
// them happen saw at each round's end, and they add up to the scores.
func TestStateCarriesEveryRound(t *testing.T) {
	for _, tc := range []struct {
		game   string
		bots   []string
		rounds int
	}{
		{"limits", []string{"", "random", "random"}, 3},
		{"papayoo", []string{"", "random", "random", "random"}, 2},
	} {
		t.Run(tc.game, func(t *testing.T) {
			h := newHarness(t, testConfig())
			a := h.create(tc.game, tc.bots, "Ann", "")
			ca := h.dial(a.Table, a.Token)
			rng := rand.New(rand.NewPCG(1, 2))
			// seen: the round scores as they were at each round's end.
			var seen [][]int
			var last roundsState
			pending := false
			for last.Result.Rounds < tc.rounds {
				s, err := nextRounds(ca)
				if err != nil {
					t.Fatal(err)
				}
				if s.Status == "over" {
					t.Fatalf("the match ended after %d rounds; the test needs %d", s.Result.Rounds, tc.rounds)
				}
				if s.Result.Rounds > len(seen) {
					seen = append(seen, s.Result.RoundScores)
				}
				if len(s.Rounds) != s.Result.Rounds {
					t.Fatalf("move %d: %d rounds sent, the result counts %d", s.N, len(s.Rounds), s.Result.Rounds)
				}
				if s.By == a.Seat {
					pending = false
				}
				if !pending && slices.Contains(s.ToMove, a.Seat) && len(s.Legal) > 0 {
					pending = true
					ca.send(map[string]any{"type": "move", "move": s.Legal[rng.IntN(len(s.Legal))]})
				}
				last = s
			}
			// Ann's page is refreshed: a fresh connection of the same seat.
			ca.ws.CloseNow()
			<-ca.done
			fresh := h.dial(a.Table, a.Token)
			s, err := nextRounds(fresh)
			if err != nil {
				t.Fatal(err)
			}
			if s.Result.Rounds < tc.rounds || s.Result.Rounds != len(seen) {
				t.Fatalf("fresh state: %d rounds done, %d seen live", s.Result.Rounds, len(seen))
			}
			if got, want := canon(t, s.Rounds), canon(t, seen); got != want {
				t.Fatalf("fresh state's rounds\n got %s\nwant %s", got, want)
			}
			sum := make([]int, len(tc.bots))
			for _, r := range s.Rounds {
				if len(r) != len(tc.bots) {
					t.Fatalf("a round of %d scores at a table of %d", len(r), len(tc.bots))
				}
				for i, x := range r {
					sum[i] += x
				}
			}
			if !slices.Equal(sum, s.Result.Scores) {
				t.Fatalf("the rounds add up to %v, the scores are %v", sum, s.Result.Scores)
			}
			// A spectator's sheet is the same: round scores are public.
			spec := h.dial(a.Table, "")
			ss, err := nextRounds(spec)
			if err != nil {
				t.Fatal(err)
			}
			if canon(t, ss.Rounds) != canon(t, s.Rounds) {
				t.Fatalf("spectator's rounds %v, the player's %v", ss.Rounds, s.Rounds)
			}
		})
	}
}
