package rating

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// game draws 2 to 8 players with assorted ratings and any finishing order,
// ties included.
func game(t *rapid.T) ([]Rating, []int) {
	n := rapid.IntRange(2, 8).Draw(t, "players")
	ratings := make([]Rating, n)
	ranks := make([]int, n)
	for i := range ratings {
		ratings[i] = Rating{
			Mu:    rapid.Float64Range(-20, 70).Draw(t, "mu"),
			Sigma: rapid.Float64Range(0, 12).Draw(t, "sigma"),
		}
		ranks[i] = rapid.IntRange(0, n-1).Draw(t, "rank")
	}
	return ratings, ranks
}

func mustUpdate(t *rapid.T, ratings []Rating, ranks []int) []Rating {
	got, err := Update(ratings, ranks)
	if err != nil {
		t.Fatalf("Update(%v, %v): %v", ratings, ranks, err)
	}
	return got
}

// soleAt returns the index of the only player with the best (or worst)
// rank, or -1 if that place is shared.
func soleAt(ranks []int, worst bool) int {
	best, at, count := ranks[0], 0, 0
	for i, r := range ranks {
		if (!worst && r < best) || (worst && r > best) {
			best, at, count = r, i, 0
		}
		if r == best {
			count++
		}
	}
	if count > 1 {
		return -1
	}
	return at
}

// The sole winner's mean never falls and the sole last's never rises. (A
// player who shares first place may fall: a draw with a weaker player is a
// disappointment.)
func TestWinnerRisesLastFalls(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ratings, ranks := game(t)
		got := mustUpdate(t, ratings, ranks)
		if w := soleAt(ranks, false); w >= 0 && got[w].Mu < ratings[w].Mu {
			t.Fatalf("sole winner %d fell: %v -> %v", w, ratings[w], got[w])
		}
		if l := soleAt(ranks, true); l >= 0 && got[l].Mu > ratings[l].Mu {
			t.Fatalf("sole last %d rose: %v -> %v", l, ratings[l], got[l])
		}
	})
}

// The means do not in general sum to what they did: a player moves in
// proportion to their own variance. What holds exactly, ties or not, is
// that the changes weighted by 1/σ'² (σ'² = σ² + τ², the variance the game
// used) sum to zero; with equal sigmas that makes the game zero-sum.
func TestWeightedMeanChangesSumToZero(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ratings, ranks := game(t)
		got := mustUpdate(t, ratings, ranks)
		sum, scale := 0.0, 0.0
		for i := range got {
			d := (got[i].Mu - ratings[i].Mu) / (ratings[i].Sigma*ratings[i].Sigma + Tau*Tau)
			sum += d
			scale += math.Abs(d)
		}
		if math.Abs(sum) > 1e-9*math.Max(scale, 1) {
			t.Fatalf("weighted changes sum to %g (scale %g)", sum, scale)
		}
	})
}

// A game only ever shrinks a variance: the only growth is τ's, added first.
func TestSigmaGrowsOnlyByTau(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ratings, ranks := game(t)
		got := mustUpdate(t, ratings, ranks)
		for i := range got {
			limit := math.Sqrt(ratings[i].Sigma*ratings[i].Sigma + Tau*Tau)
			if got[i].Sigma > limit*(1+1e-12) || !(got[i].Sigma > 0) {
				t.Fatalf("player %d: sigma %v -> %v, limit %v", i, ratings[i].Sigma, got[i].Sigma, limit)
			}
		}
	})
}

// Seats do not matter: permuting the players with their ranks permutes
// the results.
func TestSeatRelabelling(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ratings, ranks := game(t)
		got := mustUpdate(t, ratings, ranks)
		idx := make([]int, len(ratings))
		for i := range idx {
			idx[i] = i
		}
		perm := rapid.Permutation(idx).Draw(t, "perm")
		pr := make([]Rating, len(perm))
		pk := make([]int, len(perm))
		for i, p := range perm {
			pr[i], pk[i] = ratings[p], ranks[p]
		}
		pgot := mustUpdate(t, pr, pk)
		for i, p := range perm {
			if !near(pgot[i], got[p], 1e-9) {
				t.Fatalf("seat %d (player %d): %v relabelled, %v not", i, p, pgot[i], got[p])
			}
		}
	})
}

// Two tied players who came in with the same rating leave with the same.
func TestTiedEqualsStayEqual(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ratings, ranks := game(t)
		a := rapid.IntRange(0, len(ratings)-1).Draw(t, "a")
		b := rapid.IntRange(0, len(ratings)-1).Filter(func(b int) bool { return b != a }).Draw(t, "b")
		ratings[b], ranks[b] = ratings[a], ranks[a]
		got := mustUpdate(t, ratings, ranks)
		if !near(got[a], got[b], 1e-12) {
			t.Fatalf("tied equals %d and %d parted: %v, %v", a, b, got[a], got[b])
		}
	})
}

// An anchor keeps its rating, and the others get exactly what they would
// have had if it had been rated too.
func TestFixedPlayersAnchor(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ratings, ranks := game(t)
		fixed := rapid.SliceOfN(rapid.Bool(), len(ratings), len(ratings)).Draw(t, "fixed")
		got, err := UpdateFixed(ratings, ranks, fixed)
		if err != nil {
			t.Fatal(err)
		}
		free := mustUpdate(t, ratings, ranks)
		for i := range got {
			want := free[i]
			if fixed[i] {
				want = ratings[i]
			}
			if got[i] != want {
				t.Fatalf("player %d (fixed %v): got %v, want %v", i, fixed[i], got[i], want)
			}
		}
	})
}

func near(a, b Rating, tol float64) bool {
	return math.Abs(a.Mu-b.Mu) <= tol*math.Max(1, math.Abs(b.Mu)) &&
		math.Abs(a.Sigma-b.Sigma) <= tol*math.Max(1, b.Sigma)
}
