package limits

import (
	"math"
	"testing"

	"tapis/game"
)

// The rollout policy plays from what the seat to move knows: on any state
// and on any sample drawn for that seat, it makes the same move.
func TestRolloutMoveSeesOnlyItsSeat(t *testing.T) {
	for _, n := range []int{2, 3, 5} {
		for g := uint64(0); g < 30; g++ {
			st, err := NewState(game.Config{Players: n, Seed: g})
			if err != nil {
				t.Fatal(err)
			}
			r := game.NewRNG(g)
			for !st.Over() {
				s := st.ToMove().First()
				ra, rb := game.NewRNG(g+7), game.NewRNG(g+7)
				y := st.Sample(s, &r).(*State)
				m := st.RolloutMove(&ra, nil)
				if got := y.RolloutMove(&rb, nil); got != m {
					t.Fatalf("%d players, game %d: seat %d's rollout move %#x on the state, %#x on its sample", n, g, s, m, got)
				}
				if !game.Contains(st.Legal(s, nil), m) {
					t.Fatalf("rollout move %#x is not legal", m)
				}
				if err := st.Apply(s, m, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// Two players: the value is the binomial chance to finish ahead.
func TestValueTwoPlayers(t *testing.T) {
	cases := []struct {
		d, left int
		want    float64
	}{
		{0, 1, 0.5}, {0, 4, 0.5}, {1, 1, 0.5}, {4, 1, 1}, {-4, 1, 0}, {3, 1, 0.75},
		{-3, 1, 0.25}, {7, 2, 1}, {6, 2, 0.875}, {2, 2, 0.75},
	}
	for _, c := range cases {
		if got := binomialWin(c.d, c.left); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("binomialWin(%d, %d) = %v, want %v", c.d, c.left, got, c.want)
		}
	}
	for left := 1; left <= 10; left++ {
		for d := -40; d < 40; d++ {
			lo, hi := binomialWin(d, left), binomialWin(d+1, left)
			if lo > hi || lo < 0 || hi > 1 {
				t.Fatalf("binomialWin(%d, %d) = %v, (%d) = %v: not a chance rising with the lead", d, left, lo, d+1, hi)
			}
			if sum := binomialWin(d, left) + binomialWin(-d, left); math.Abs(sum-1) > 1e-12 {
				t.Fatalf("binomialWin(±%d, %d) adds to %v, not 1", d, left, sum)
			}
		}
	}
}

// Every seat's value is a chance, the leader's the highest, and a finished
// game is valued by its winners.
func TestValue(t *testing.T) {
	for _, n := range []int{2, 4, 6} {
		st, err := NewState(game.Config{Players: n, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		st.points[1] = 4
		for s := game.Seat(0); s < game.Seat(n); s++ {
			v := st.Value(s)
			if v < 0 || v > 1 || (s != 1 && v >= st.Value(1)) {
				t.Errorf("%d players: seat %d valued %v, the leader %v", n, s, v, st.Value(1))
			}
		}
		st.phase, st.winners = phaseOver, game.Only(0).With(1)
		if st.Value(0) != 0.5 || st.Value(1) != 0.5 || st.Value(game.Seat(n-1)) != 0 && n > 2 {
			t.Errorf("%d players: a shared win is valued %v, %v", n, st.Value(0), st.Value(1))
		}
	}
}
