package bot

import (
	"math"
	"testing"

	"tapis/bot/learn"
	"tapis/game"
	"tapis/games"
	"tapis/games/papayoo"
)

// The trained evaluator is worth its training: the search with the
// committed weights (hard+learn) takes fewer points than the same search,
// at the same budget, stopping its playouts at the same place with an
// untrained model (every weight zero: a seat's value is then the points
// it has taken so far). Two of each sit at a 4-player table, on the same
// deals in both seatings (duplicate), and the untrained pair's points a
// round less the trained pair's must have a 95% interval over deals above
// zero.
func TestLearnedBeatsUntrained(t *testing.T) {
	g := games.Named("papayoo")
	// Under -short, fewer deals, and only the mean must favour the
	// trained model: 24 deals do not part an interval from zero.
	deals := 100
	if testing.Short() {
		deals = 24
	}
	zero := &learn.Model{Weights: make([]float64, papayoo.FeatureCount)}
	var diffs []float64
	for d := 0; d < deals; d++ {
		seed := uint64(1000 + d)
		diff := 0.0
		for seating := 0; seating < 2; seating++ {
			st, err := g.New(game.Config{Players: 4, Seed: seed, Options: []byte(`{"rounds":1}`)})
			if err != nil {
				t.Fatal(err)
			}
			players := make([]game.Player, 4)
			for s := range players {
				p, err := New(g, "hard+learn@200", game.Seat(s), seed*10+uint64(s))
				if err != nil {
					t.Fatal(err)
				}
				trained := (s+seating)%2 == 0
				if !trained {
					p.(*Search).Leaf = &learn.Leaf{Model: zero, Plies: learn.DefaultPlies}
				}
				players[s] = p
			}
			if _, err := Play(st, players, 10_000); err != nil {
				t.Fatal(err)
			}
			for s, pts := range st.Result().Scores {
				if (s+seating)%2 == 0 {
					diff -= float64(pts) / 4
				} else {
					diff += float64(pts) / 4
				}
			}
		}
		diffs = append(diffs, diff)
	}
	mean, half := interval(diffs)
	t.Logf("untrained less trained, points a round a seat: %.2f [%.2f, %.2f] over %d deals", mean, mean-half, mean+half, deals)
	if testing.Short() {
		half = 0
	}
	if mean-half <= 0 {
		t.Fatalf("the trained evaluator did not beat the untrained one: %.2f [%.2f, %.2f] points a round", mean, mean-half, mean+half)
	}
}

// interval is the mean of xs and the half width of its 95% interval
// (normal approximation).
func interval(xs []float64) (mean, half float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	v /= float64(len(xs) - 1)
	return mean, 1.96 * math.Sqrt(v/float64(len(xs)))
}

// A game without a learned evaluator plays hard+learn exactly as hard.
func TestLearnOnlyWhereTheGameHasAModel(t *testing.T) {
	for _, g := range games.All() {
		if learn.For(g.Name()) != nil {
			continue
		}
		for seed := uint64(1); seed <= 4; seed++ {
			st, s, told := position(t, g, 2, seed, int(seed*5))
			if st == nil {
				continue
			}
			if a, b := choose(t, g, "hard@150", st, s, told, seed), choose(t, g, "hard+learn@150", st, s, told, seed); a != b {
				t.Fatalf("%s, seed %d: hard chose %v, hard+learn %v, in a game with no learned evaluator", g.Name(), seed, a, b)
			}
		}
	}
	if _, err := New(games.Named("papayoo"), "easy+learn", 0, 1); err == nil {
		t.Fatal("easy+learn was accepted: only the search levels learn")
	}
}
