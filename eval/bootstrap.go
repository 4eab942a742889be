package eval

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Interval is a bootstrap confidence interval for a mean: the mean of the
// sample, and the percentile interval [Lo, Hi] of the means of the
// resamples. N is the sample size.
type Interval struct {
	Mean float64 `json:"mean"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
	N    int     `json:"n"`
}

// Contains reports whether x lies in [Lo, Hi].
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// Bootstrap holds the settings of a percentile bootstrap: how many
// resamples, the confidence level and the seed of the random source. The
// same settings and data give the same interval on every run and machine.
type Bootstrap struct {
	// Resamples is how many resamples are drawn (with replacement, each of
	// the sample's size).
	Resamples int
	// Level is the coverage of the interval, e.g. 0.95 for the 2.5th to
	// the 97.5th percentile of the resampled means.
	Level float64
	// Seed seeds the PCG random source.
	Seed uint64
}

// DefaultBootstrap returns the settings caselink reports with: 10,000
// resamples, a 95% interval, a fixed seed.
func DefaultBootstrap() Bootstrap {
	return Bootstrap{Resamples: 10000, Level: 0.95, Seed: 0x5ca1ab1e}
}

// Mean returns the interval of the mean of xs, weighted by weights (nil
// means equal weights; otherwise one positive weight per value). Resamples
// draw whole items, each with its weight. An empty sample gives the zero
// Interval.
//
// The bounds are the percentiles of the resampled means (gonum's empirical
// quantile), clamped to the range of xs so that rounding in a sum never puts
// a bound outside the values it averages: a constant sample c gives [c, c].
func (b Bootstrap) Mean(xs, weights []float64) Interval {
	n := len(xs)
	if n == 0 {
		return Interval{}
	}
	iv := Interval{Mean: stat.Mean(xs, weights), N: n}
	reps := max(b.Resamples, 1)
	rng := rand.New(rand.NewPCG(b.Seed, b.Seed^0x9e3779b97f4a7c15))
	means := make([]float64, reps)
	x := make([]float64, n)
	var w []float64
	if weights != nil {
		w = make([]float64, n)
	}
	for r := range means {
		for j := range x {
			i := rng.IntN(n)
			x[j] = xs[i]
			if w != nil {
				w[j] = weights[i]
			}
		}
		means[r] = stat.Mean(x, w)
	}
	slices.Sort(means)
	alpha := (1 - b.Level) / 2
	lo, hi := slices.Min(xs), slices.Max(xs)
	iv.Lo = clamp(stat.Quantile(alpha, stat.Empirical, means, nil), lo, hi)
	iv.Hi = clamp(stat.Quantile(1-alpha, stat.Empirical, means, nil), lo, hi)
	return iv
}

// Paired returns the interval of the mean difference after − before over
// paired items (the same query scored by two configurations), weighted as
// in Mean. The two slices must have the same length.
func (b Bootstrap) Paired(before, after, weights []float64) Interval {
	d := make([]float64, len(before))
	for i := range d {
		d[i] = after[i] - before[i]
	}
	return b.Mean(d, weights)
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }
