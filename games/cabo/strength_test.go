package cabo_test

import (
	"context"
	"testing"

	"tapis/games/cabo"
	"tapis/sim"
)

// The heuristic bot wins at least 95% of 2-player games against random,
// and is clearly ahead (intervals apart) at a table of two of each.
func TestHeuristicBeatsRandom(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	rep, err := sim.Run(context.Background(), sim.Config{Game: cabo.Game{}, Players: 2, Bots: []string{"heuristic", "random"}, Games: n, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Seats[0].WinRate; r < 0.95 {
		t.Fatalf("heuristic won %.1f%% of 2-player games against random, want at least 95%%", 100*r)
	}
	rep, err = sim.Run(context.Background(), sim.Config{Game: cabo.Game{}, Players: 4, Bots: []string{"heuristic", "random", "heuristic", "random"}, Games: n, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []int{0, 2} {
		for _, r := range []int{1, 3} {
			if rep.Seats[h].CI95[0] <= rep.Seats[r].CI95[1] {
				t.Fatalf("heuristic seat %d %v not clearly ahead of random seat %d %v", h, rep.Seats[h].CI95, r, rep.Seats[r].CI95)
			}
		}
	}
}
