package sim

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
)

// z95 is the standard normal's 97.5% quantile: a two-sided 95% interval.
const z95 = 1.959963984540054

// Interval is a 95% confidence interval. A bound that cannot be known
// (fewer than two units to estimate a spread from) is infinite, and
// written as null in JSON.
type Interval [2]float64

// MarshalJSON writes an infinite or undefined bound as null: JSON has no
// infinity.
func (iv Interval) MarshalJSON() ([]byte, error) {
	out := [2]any{}
	for k, v := range iv {
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			out[k] = v
		}
	}
	return json.Marshal(out)
}

// unknown is the interval of an estimate with no measure of its spread.
var unknown = Interval{math.Inf(-1), math.Inf(1)}

// Wilson is the 95% Wilson score interval of k successes in n trials. A
// fractional k (shared wins) gets the interval of its proportion, which
// errs wide: a half win varies less than a coin toss.
func Wilson(k float64, n int) [2]float64 {
	if n == 0 {
		return [2]float64{0, 1}
	}
	const z = z95
	p, nf := k/float64(n), float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	lo, hi := math.Max(0, mid-half), math.Min(1, mid+half)
	// Rounding must not push a bound past an extreme observation.
	if k <= 0 {
		lo = 0
	}
	if k >= nf {
		hi = 1
	}
	return [2]float64{lo, hi}
}

// t975 holds Student's t distribution's 97.5% quantiles for 1 to 30
// degrees of freedom (the usual tables').
var t975 = [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// TQuantile is Student's t distribution's 97.5% quantile for df degrees
// of freedom (df ≥ 1): the half-width, in standard errors, of a two-sided
// 95% interval of a mean. Beyond the table, the Cornish-Fisher expansion
// about the normal quantile, which is within 1e-4 of it from 30 on.
func TQuantile(df int) float64 {
	if df < 1 {
		return math.Inf(1)
	}
	if df <= len(t975) {
		return t975[df-1]
	}
	z, v := z95, float64(df)
	z3, z5, z7 := z*z*z, z*z*z*z*z, z*z*z*z*z*z*z
	return z + (z3+z)/(4*v) + (5*z5+16*z3+3*z)/(96*v*v) + (3*z7+19*z5+17*z3-15*z)/(384*v*v*v)
}

// MeanCI is the mean of xs and its 95% t interval: the units (games, or
// deals when they are played in duplicate) are taken as independent.
func MeanCI(xs []float64) (float64, Interval) {
	n := len(xs)
	if n == 0 {
		return 0, unknown
	}
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	if n < 2 {
		return mean, unknown
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := TQuantile(n-1) * math.Sqrt(ss/float64(n-1)/float64(n))
	return mean, Interval{mean - half, mean + half}
}

// RatioCI is Σxs/Σys and its 95% interval by the delta method (the ratio
// estimator's usual one): its standard error is that of the mean of the
// residuals x - r·y, over the mean of ys. It is how a mean per round gets
// its interval when games, the independent units, have different numbers
// of rounds. A zero Σys gives no ratio: 0 and an unknown interval.
func RatioCI(xs, ys []float64) (float64, Interval) {
	n := len(xs)
	var sx, sy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
	}
	if n == 0 || sy == 0 {
		return 0, unknown
	}
	r := sx / sy
	if n < 2 {
		return r, unknown
	}
	ss := 0.0
	for i := range xs {
		e := xs[i] - r*ys[i]
		ss += e * e
	}
	half := TQuantile(n-1) * math.Sqrt(ss/float64(n-1)/float64(n)) / math.Abs(sy/float64(n))
	return r, Interval{r - half, r + half}
}

// bootstrapRounds is how many resamples Bootstrap draws: enough that its
// 2.5% and 97.5% percentiles move by well under a point between seeds.
const bootstrapRounds = 4000

// Bootstrap is the 95% percentile bootstrap interval of a statistic of n
// units: stat is given the units' indices of each resample (drawn with
// replacement, n of them) and returns the statistic. Where no formula is
// at hand (the gap closed, a ratio of ratios), it is the honest interval;
// it is deterministic, its draws coming from seed. Resamples where the
// statistic is undefined (NaN) are left out.
func Bootstrap(n int, seed uint64, stat func(idx []int) float64) Interval {
	if n < 2 {
		return unknown
	}
	rng := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc909))
	idx := make([]int, n)
	vals := make([]float64, 0, bootstrapRounds)
	for range bootstrapRounds {
		for k := range idx {
			idx[k] = rng.IntN(n)
		}
		if v := stat(idx); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	if len(vals) < bootstrapRounds/2 {
		return unknown
	}
	slices.Sort(vals)
	at := func(q float64) float64 { return vals[int(math.Round(q*float64(len(vals)-1)))] }
	return Interval{at(0.025), at(0.975)}
}
