package rating

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

func TestDisplay(t *testing.T) {
	for _, tc := range []struct {
		r    Rating
		want int
	}{
		{New(), 1500},                         // 25 − 3·25/3 = 0
		{Rating{30, 5}, 1860},                 // ordinal 15
		{Rating{0, 25.0 / 3}, 900},            // ordinal −25
		{Rating{25.02, 25.0 / 3}, 1500},       // 1500.48 rounds down
		{Rating{25.021, 25.0 / 3}, 1501},      // 1500.504 rounds up
		{Rating{24.979, 25.0 / 3}, 1499},      // 1499.496 rounds up to 1499
		{Rating{40, 1}, 1500 + 24*37},         // a settled strong player
		{Rating{10, 2}, int(1500 + 24*4.0)},   // a settled weak one
		{Rating{-10, 2}, int(1500 - 24*16.0)}, // below zero ordinals go below 1500
	} {
		if got := tc.r.Display(); got != tc.want {
			t.Errorf("%+v.Display() = %d, want %d (ordinal %g)", tc.r, got, tc.want, tc.r.Ordinal())
		}
	}
}

func TestProvisional(t *testing.T) {
	for _, tc := range []struct {
		sigma float64
		want  bool
	}{
		{DefaultSigma, true},
		{5, true},
		{ProvisionalSigma, true},
		{math.Nextafter(ProvisionalSigma, 0), false},
		{2.5, false},
	} {
		if got := (Rating{Mu: 25, Sigma: tc.sigma}).Provisional(); got != tc.want {
			t.Errorf("sigma %v: Provisional() = %v, want %v", tc.sigma, got, tc.want)
		}
	}
}

func TestUpdateRefuses(t *testing.T) {
	n := New()
	for _, tc := range []struct {
		name    string
		ratings []Rating
		ranks   []int
		fixed   []bool
		want    string
	}{
		{"no one", nil, nil, nil, "at least 2"},
		{"one player", []Rating{n}, []int{0}, nil, "at least 2"},
		{"short ranks", []Rating{n, n}, []int{0}, nil, "1 ranks for 2 players"},
		{"short fixed", []Rating{n, n}, []int{0, 1}, []bool{true}, "1 fixed flags"},
		{"NaN mu", []Rating{n, {math.NaN(), 1}}, []int{0, 1}, nil, "player 1: mu or sigma is not a finite"},
		{"infinite sigma", []Rating{{25, math.Inf(1)}, n}, []int{0, 1}, nil, "player 0: mu or sigma"},
		{"negative sigma", []Rating{n, {25, -1}}, []int{0, 1}, nil, "sigma is negative"},
	} {
		_, err := UpdateFixed(tc.ratings, tc.ranks, tc.fixed)
		if err == nil || !strings.HasPrefix(err.Error(), "rating: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one with %q", tc.name, err, tc.want)
		}
	}
}

// TestProvisionalGames is where ProvisionalSigma's "about 50 games" comes
// from. Twelve new players of spread true skills play 4-player games, four
// drawn at random each time, finishing in an order drawn from the
// Plackett–Luce model of their true skills; it counts the games each needs
// before Sigma falls below ProvisionalSigma. It also shows why a
// threshold is needed: early on, a third place of four still raises the
// conservative value Mu − 3·Sigma.
func TestProvisionalGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	const players = 12
	skill := make([]float64, players)
	ratings := make([]Rating, players)
	played := make([]int, players)
	crossed := make([]int, players)
	for i := range ratings {
		skill[i] = 10 + 30*float64(i)/(players-1)
		ratings[i] = New()
	}
	thirdRaisedOrdinal := 0
	for g := 0; g < 2000; g++ {
		seats := rng.Perm(players)[:4]
		ranks := finish(rng, skill, seats)
		in := make([]Rating, 4)
		for i, p := range seats {
			in[i] = ratings[p]
		}
		out, err := Update(in, ranks)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range seats {
			played[p]++
			if ranks[i] == 2 && in[i].Provisional() && out[i].Ordinal() > in[i].Ordinal() {
				thirdRaisedOrdinal++
			}
			ratings[p] = out[i]
			if crossed[p] == 0 && !ratings[p].Provisional() {
				crossed[p] = played[p]
			}
		}
	}
	sort.Ints(crossed)
	t.Logf("games to leave provisional: %v (median %d); provisional third places that raised the ordinal: %d",
		crossed, crossed[players/2], thirdRaisedOrdinal)
	if crossed[0] == 0 {
		t.Fatalf("a player was still provisional after some %d games", 2000*4/players)
	}
	if m := crossed[players/2]; m < 40 || m > 60 {
		t.Errorf("median games to leave provisional = %d; ProvisionalSigma's doc says about 50", m)
	}
	if thirdRaisedOrdinal == 0 {
		t.Error("no third place raised the conservative value: the threshold's reason is gone")
	}
	// And the ordering settles: the conservative values now rank the
	// players as their true skills do, give or take near neighbours.
	inversions := 0
	for i := range players {
		for j := i + 1; j < players; j++ {
			if j-i > 3 && ratings[i].Ordinal() > ratings[j].Ordinal() {
				inversions++
			}
		}
	}
	if inversions > 0 {
		t.Errorf("%d pairs more than three apart in skill rank inverted", inversions)
	}
}

// finish draws a finishing order for the seated players from the
// Plackett–Luce model: each next place goes to one of those left with
// probability proportional to exp(skill/Beta).
func finish(rng *rand.Rand, skill []float64, seats []int) []int {
	ranks := make([]int, len(seats))
	left := append([]int(nil), seats...)
	idx := make([]int, len(seats))
	for i := range idx {
		idx[i] = i
	}
	for place := range seats {
		total := 0.0
		for _, p := range left {
			total += math.Exp(skill[p] / Beta)
		}
		x := rng.Float64() * total
		k := 0
		for k = range left[:len(left)-1] {
			x -= math.Exp(skill[left[k]] / Beta)
			if x < 0 {
				break
			}
		}
		ranks[idx[k]] = place
		left = append(left[:k], left[k+1:]...)
		idx = append(idx[:k], idx[k+1:]...)
	}
	return ranks
}
