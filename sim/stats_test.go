package sim

import (
	"encoding/json"
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{{50, 100, 0.4038, 0.5962}, {0, 10, 0, 0.2775}, {10, 10, 0.7225, 1},
		// 7 of 20 by hand: p = 0.35, z = 1.96: centre (0.35 + 0.0960)/1.1921
		// = 0.3742, half 1.96·√(0.011375 + 0.0024)/1.1921 = 0.1930.
		{7, 20, 0.1812, 0.5671}} {
		got := Wilson(float64(tc.k), tc.n)
		if math.Abs(got[0]-tc.lo) > 1e-3 || math.Abs(got[1]-tc.hi) > 1e-3 {
			t.Errorf("Wilson(%d, %d) = %v, want [%v, %v]", tc.k, tc.n, got, tc.lo, tc.hi)
		}
	}
	// The same proportion, more games: a narrower interval.
	last := 1.0
	for _, n := range []int{10, 100, 1000, 10000} {
		iv := Wilson(0.6*float64(n), n)
		if w := iv[1] - iv[0]; w >= last || iv[0] > 0.6 || iv[1] < 0.6 {
			t.Fatalf("Wilson(%v, %d) = %v, after a width of %v", 0.6*float64(n), n, iv, last)
		} else {
			last = w
		}
	}
}

func TestTQuantile(t *testing.T) {
	for df, want := range map[int]float64{1: 12.706, 4: 2.776, 30: 2.042, 31: 2.0395, 60: 2.0003, 120: 1.9799, 1 << 20: 1.95997} {
		if got := TQuantile(df); !near(got, want, 5e-4) {
			t.Errorf("TQuantile(%d) = %v, want %v", df, got, want)
		}
	}
}

func TestMeanCI(t *testing.T) {
	// 1..5: mean 3, s = √2.5, se = 0.7071, t(4) = 2.776: ±1.963.
	m, iv := MeanCI([]float64{1, 2, 3, 4, 5})
	if m != 3 || !near(iv[0], 1.037, 1e-3) || !near(iv[1], 4.963, 1e-3) {
		t.Fatalf("MeanCI(1..5) = %v %v, want 3 [1.037, 4.963]", m, iv)
	}
	if m, iv := MeanCI([]float64{2, 2, 2}); m != 2 || iv != (Interval{2, 2}) {
		t.Fatalf("a constant: %v %v", m, iv)
	}
	if _, iv := MeanCI([]float64{7}); !math.IsInf(iv[0], -1) || !math.IsInf(iv[1], 1) {
		t.Fatalf("one value: interval %v, want unknown", iv)
	}
}

func TestRatioCI(t *testing.T) {
	// Proportional: no residual, no width.
	if r, iv := RatioCI([]float64{2, 4, 6}, []float64{1, 2, 3}); r != 2 || iv != (Interval{2, 2}) {
		t.Fatalf("proportional: %v %v", r, iv)
	}
	// 4/2 = 2, residuals -1 and 1: s² = 2, se = √(2/2) = 1 over a mean y
	// of 1, t(1) = 12.706.
	if r, iv := RatioCI([]float64{1, 3}, []float64{1, 1}); r != 2 || !near(iv[0], 2-12.706, 1e-9) || !near(iv[1], 2+12.706, 1e-9) {
		t.Fatalf("RatioCI: %v %v", r, iv)
	}
	// Every y 1: the ratio is the mean, with the mean's interval.
	xs := []float64{3, 1, 4, 1, 5, 9, 2, 6}
	ys := []float64{1, 1, 1, 1, 1, 1, 1, 1}
	r, iv := RatioCI(xs, ys)
	m, miv := MeanCI(xs)
	if !near(r, m, 1e-12) || !near(iv[0], miv[0], 1e-12) || !near(iv[1], miv[1], 1e-12) {
		t.Fatalf("ratio over ones %v %v, mean %v %v", r, iv, m, miv)
	}
}

// The bootstrap of a mean comes close to the normal interval, and is the
// same for the same seed.
func TestBootstrap(t *testing.T) {
	xs := make([]float64, 400)
	for i := range xs {
		xs[i] = float64(i%10) + float64(i%7)/3
	}
	mean := func(idx []int) float64 {
		s := 0.0
		for _, k := range idx {
			s += xs[k]
		}
		return s / float64(len(idx))
	}
	_, want := MeanCI(xs)
	got := Bootstrap(len(xs), 1, mean)
	w := want[1] - want[0]
	if !near(got[0], want[0], 0.1*w) || !near(got[1], want[1], 0.1*w) {
		t.Fatalf("bootstrap %v, t interval %v", got, want)
	}
	if again := Bootstrap(len(xs), 1, mean); again != got {
		t.Fatalf("the same seed: %v, then %v", got, again)
	}
}

// Unknown bounds are written as null: JSON has no infinity.
func TestIntervalJSON(t *testing.T) {
	for iv, want := range map[Interval]string{unknown: "[null,null]", {0.25, 0.5}: "[0.25,0.5]"} {
		b, err := json.Marshal(iv)
		if err != nil || string(b) != want {
			t.Errorf("%v: %s (%v), want %s", iv, b, err, want)
		}
	}
}
