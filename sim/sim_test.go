package sim

import (
	"context"
	"math"
	"testing"

	"tapis/games/cabo"
)

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{{50, 100, 0.4038, 0.5962}, {0, 10, 0, 0.2775}, {10, 10, 0.7225, 1}} {
		got := Wilson(tc.k, tc.n)
		if math.Abs(got[0]-tc.lo) > 1e-3 || math.Abs(got[1]-tc.hi) > 1e-3 {
			t.Errorf("Wilson(%d, %d) = %v, want [%v, %v]", tc.k, tc.n, got, tc.lo, tc.hi)
		}
	}
}

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
