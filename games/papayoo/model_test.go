package papayoo

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"tapis/game"
)

// The engine against a second, naive model of RULES.md §2 written from the
// text alone (cards as strings, hands as lists): whole games with random
// choices, at every table size, on stacked and shuffled deals. Every legal
// move list, trick winner, point count, dealer, hand and final winner must
// agree.
func TestAgainstModel(t *testing.T) {
	for _, tc := range tables {
		for g := 0; g < 12; g++ {
			t.Run(fmt.Sprintf("%dp/%d", tc.n, g), func(t *testing.T) {
				var stacks []json.RawMessage
				if g%3 == 0 {
					stacks = append(stacks, stackJSON(blocks(tc.n), string("SHDC"[g%4])))
				}
				opts := ""
				if g%4 == 1 {
					opts = `{"rounds":2}`
				}
				st, err := NewState(game.Config{Players: tc.n, Seed: uint64(g), Options: json.RawMessage(opts), Stacks: stacks})
				if err != nil {
					t.Fatal(err)
				}
				playModel(t, st, game.NewRNG(uint64(g)+1000))
			})
		}
	}
}

type modelRank struct {
	suit byte
	n    int
}

func parse(c string) modelRank {
	n, _ := strconv.Atoi(c[1:])
	return modelRank{c[0], n}
}

func playModel(t *testing.T, st *State, rng game.RNG) {
	n := st.Players()
	rounds := st.opt.Rounds
	scores := make([]int, n)
	for round := 1; round <= rounds; round++ {
		dealer := (round - 1) % n
		hands := make([][]string, n)
		for s := range hands {
			hands[s] = st.view(game.Seat(s)).Hand
			if len(hands[s]) != HandSize(n) {
				t.Fatalf("round %d seat %d dealt %d cards", round, s, len(hands[s]))
			}
		}
		if v := st.view(game.Spectator); v.Dealer != game.Seat(dealer) || v.Round != round {
			t.Fatalf("round %d: dealer %d, want %d", round, v.Dealer, dealer)
		}
		// Pass: random cards, whole or one at a time.
		k := PassSize(n)
		passes := make([][]string, n)
		for s := 0; s < n; s++ {
			h := slices.Clone(hands[s])
			for i := range h {
				j := i + rng.IntN(len(h)-i)
				h[i], h[j] = h[j], h[i]
			}
			passes[s] = h[:k]
			if rng.IntN(2) == 0 {
				do(t, st, game.Seat(s), passJSON(passes[s]...), nil)
				continue
			}
			for _, c := range passes[s] {
				if got := legalCards(st, game.Seat(s)); len(got) != len(hands[s])-slices.Index(passes[s], c) {
					t.Fatalf("seat %d may choose among %d cards", s, len(got))
				}
				do(t, st, game.Seat(s), passJSON(c), nil)
			}
		}
		for s := 0; s < n; s++ {
			hands[s] = slices.DeleteFunc(hands[s], func(c string) bool { return slices.Contains(passes[s], c) })
		}
		for s := 0; s < n; s++ {
			hands[(s+1)%n] = append(hands[(s+1)%n], passes[s]...)
		}
		die := st.view(game.Spectator).Die
		papayoo := die + "7"
		points := func(c string) int {
			if c == papayoo {
				return 40
			}
			if c[0] == 'P' {
				return parse(c).n
			}
			return 0
		}
		taken := make([]int, n)
		leader := dealer
		for trick := 0; trick < HandSize(n); trick++ {
			var led byte
			best, winner, pts := 0, -1, 0
			for i := 0; i < n; i++ {
				s := (leader + i) % n
				if st.ToMove() != game.Only(game.Seat(s)) {
					t.Fatalf("round %d trick %d: %v to move, want seat %d", round, trick, st.ToMove().List(), s)
				}
				if got := st.view(game.Seat(s)).Hand; !slices.Equal(sorted(got), sorted(hands[s])) {
					t.Fatalf("seat %d holds %v, model %v", s, got, hands[s])
				}
				var want []string
				for _, c := range hands[s] {
					if i > 0 && c[0] == led {
						want = append(want, c)
					}
				}
				if len(want) == 0 {
					want = hands[s]
				}
				if got := legalCards(st, game.Seat(s)); !slices.Equal(got, sorted(want)) {
					t.Fatalf("seat %d may play %v, model %v", s, got, sorted(want))
				}
				c := want[rng.IntN(len(want))]
				do(t, st, game.Seat(s), playJSON(c), nil)
				hands[s] = slices.DeleteFunc(hands[s], func(x string) bool { return x == c })
				if i == 0 {
					led = c[0]
				}
				if c[0] == led && parse(c).n > best {
					best, winner = parse(c).n, s
				}
				pts += points(c)
			}
			taken[winner] += pts
			leader = winner
			if round == st.rounds+1 && !slices.Equal(st.taken[:n], taken) {
				t.Fatalf("taken %v, model %v", st.taken[:n], taken)
			}
		}
		sum := 0
		for s := range taken {
			scores[s] += taken[s]
			sum += taken[s]
		}
		if sum != 250 {
			t.Fatalf("the model's round scored %d", sum)
		}
		res := st.Result()
		if res.Rounds != round || !slices.Equal(res.RoundScores, taken) || !slices.Equal(res.Scores, scores) {
			t.Fatalf("round %d: result %+v, model %v %v", round, res, taken, scores)
		}
	}
	if !st.Over() {
		t.Fatalf("not over after %d rounds", rounds)
	}
	low := slices.Min(scores)
	var winners []game.Seat
	for s, sc := range scores {
		if sc == low {
			winners = append(winners, game.Seat(s))
		}
	}
	if got := st.Result().Winners; !slices.Equal(got, winners) {
		t.Fatalf("winners %v, model %v (scores %v)", got, winners, scores)
	}
}

// Game end: the lowest cumulative score wins, and ties share the win.
func TestWinnersShareTies(t *testing.T) {
	for _, tc := range []struct {
		scores []int
		want   []game.Seat
	}{
		{[]int{10, 30, 210}, []game.Seat{0}},
		{[]int{100, 50, 50, 50}, []game.Seat{1, 2, 3}},
		{[]int{250, 0, 250, 0, 250}, []game.Seat{1, 3}},
		{[]int{0, 0, 0, 0, 0, 0, 0, 250}, []game.Seat{0, 1, 2, 3, 4, 5, 6}},
	} {
		st := mustNew(t, len(tc.scores), "")
		copy(st.scores[:], tc.scores)
		var log game.Log
		st.finish(&log)
		if got := st.Result().Winners; !st.Over() || !slices.Equal(got, tc.want) {
			t.Fatalf("scores %v: winners %v, want %v", tc.scores, got, tc.want)
		}
		if ev := log.Events[0].Data.(Event); ev.Type != "game_over" || !slices.Equal(ev.Winners, tc.want) {
			t.Fatalf("game_over event %+v", ev)
		}
	}
}
