package sim

import (
	"context"
	"math"
	"testing"

	"tapis/games/cabo"
)

// Results depend on the seed only, not on how many workers play.
func TestDeterministicAcrossWorkers(t *testing.T) {
	run := func(workers int) Report {
		rep, err := Run(context.Background(), Config{Game: cabo.Game{}, Players: 3, Bots: []string{"heuristic", "random", "random"}, Games: 60, Seed: 9, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		rep.GamesPerSecond = 0
		return rep
	}
	a, b := run(1), run(2)
	for s := range a.Seats {
		if a.Seats[s] != b.Seats[s] {
			t.Fatalf("seat %d: %+v with one worker, %+v with two", s, a.Seats[s], b.Seats[s])
		}
	}
	if a.Moves != b.Moves || a.Rounds != b.Rounds {
		t.Fatal("different games with different worker counts")
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, Config{Game: cabo.Game{}, Players: 2, Bots: []string{"random"}, Games: 100000, Seed: 1}); err == nil {
		t.Fatal("a cancelled run returned no error")
	}
}

// Rotating, each bot sits in every seat equally often, one bot per seat.
func TestRotationVisitsEverySeat(t *testing.T) {
	for n := 2; n <= 8; n++ {
		count := make(map[[2]int]int)
		for i := 0; i < 3*n; i++ {
			seen := make(map[int]bool)
			for s := 0; s < n; s++ {
				b := rotated(i, s, n)
				if b < 0 || b >= n || seen[b] {
					t.Fatalf("%d players, game %d: bot %d twice or out of range", n, i, b)
				}
				seen[b] = true
				count[[2]int{b, s}]++
			}
		}
		for b := 0; b < n; b++ {
			for s := 0; s < n; s++ {
				if count[[2]int{b, s}] != 3 {
					t.Fatalf("%d players: bot %d sat in seat %d %d times in %d games", n, b, s, count[[2]int{b, s}], 3*n)
				}
			}
		}
	}
}

// Results follow the bot round the table, and shares add up to one game
// each, ties split.
func TestRotateFollowsTheBot(t *testing.T) {
	for _, rotate := range []bool{false, true} {
		rep, err := Run(context.Background(), Config{Game: cabo.Game{}, Players: 3, Bots: []string{"heuristic", "random", "random"}, Games: 90, Seed: 4, Rotate: rotate})
		if err != nil {
			t.Fatal(err)
		}
		total := 0.0
		for _, s := range rep.Seats {
			total += s.Share
			if s.Share > s.WinRate || s.ShareCI95[0] > s.Share || s.ShareCI95[1] < s.Share {
				t.Fatalf("rotate %v: share %v against win rate %v, interval %v", rotate, s.Share, s.WinRate, s.ShareCI95)
			}
		}
		if math.Abs(total-1) > 1e-9 {
			t.Fatalf("rotate %v: shares add up to %v", rotate, total)
		}
		if rep.Seats[0].Bot != "heuristic" || rep.Seats[0].Share < 0.9 {
			t.Fatalf("rotate %v: the heuristic bot's results are not in its entry: %+v", rotate, rep.Seats)
		}
	}
}

// Shuffling, over Players! games, each bot sits in every seat equally
// often and beside every other bot, on each side, equally often; and
// every Players games each bot has sat in every seat once.
func TestShuffleVisitsEveryNeighbour(t *testing.T) {
	for n := 2; n <= 6; n++ {
		games := 1
		for m := 2; m <= n; m++ {
			games *= m
		}
		seats := make(map[[2]int]int)
		left := make(map[[2]int]int) // {a, b}: a sits just left of b
		for i := 0; i < games; i++ {
			seen := make(map[int]bool)
			at := make([]int, n)
			for s := 0; s < n; s++ {
				b := shuffled(i, s, n)
				if b < 0 || b >= n || seen[b] {
					t.Fatalf("%d players, game %d: bot %d twice or out of range", n, i, b)
				}
				seen[b], at[s] = true, b
				seats[[2]int{b, s}]++
			}
			for s := 0; s < n; s++ {
				left[[2]int{at[s], at[(s+1)%n]}]++
			}
			if (i+1)%n == 0 {
				for b := 0; b < n; b++ {
					for s := 0; s < n; s++ {
						if seats[[2]int{b, s}] != (i+1)/n {
							t.Fatalf("%d players, after %d games: bot %d sat in seat %d %d times", n, i+1, b, s, seats[[2]int{b, s}])
						}
					}
				}
			}
		}
		want := games / (n - 1)
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				if a != b && left[[2]int{a, b}] != want {
					t.Fatalf("%d players: bot %d sat left of bot %d %d times in %d games, want %d", n, a, b, left[[2]int{a, b}], games, want)
				}
			}
		}
	}
}
