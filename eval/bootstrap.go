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
	return b.interval(xs, weights, nil)
}

// maxDraws bounds the memory of the resample indices that draws keeps
// (4 bytes each).
const maxDraws = 1 << 24

// draws returns the indices of every resample of a sample of n items, one
// resample after the other, or nil when they would take more than maxDraws
// entries. They are the indices Mean draws, so interval with them gives
// Mean's result; several samples of the same items (one per variant) share
// them instead of drawing again.
func (b Bootstrap) draws(n int) []int32 {
	reps := max(b.Resamples, 1)
	if n == 0 || n*reps > maxDraws {
		return nil
	}
	rng := b.source()
	idx := make([]int32, n*reps)
	for i := range idx {
		idx[i] = int32(rng.IntN(n))
	}
	return idx
}

func (b Bootstrap) source() *rand.Rand {
	return rand.New(rand.NewPCG(b.Seed, b.Seed^0x9e3779b97f4a7c15))
}

// interval is Mean with the resample indices given (from draws for len(xs)
// items), or drawn as it goes when idx is nil.
func (b Bootstrap) interval(xs, weights []float64, idx []int32) Interval {
	n := len(xs)
	if n == 0 {
		return Interval{}
	}
	iv := Interval{Mean: stat.Mean(xs, weights), N: n}
	reps := max(b.Resamples, 1)
	var rng *rand.Rand
	if idx == nil {
		rng = b.source()
	}
	means := make([]float64, reps)
	for r := range means {
		var sum, wsum float64
		for j := range n {
			var i int
			if idx != nil {
				i = int(idx[r*n+j])
			} else {
				i = rng.IntN(n)
			}
			if weights != nil {
				sum += weights[i] * xs[i]
				wsum += weights[i]
			} else {
				sum += xs[i]
			}
		}
		if weights == nil {
			wsum = float64(n)
		}
		means[r] = sum / wsum
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
	return b.paired(before, after, weights, nil)
}

// paired is Paired with the resample indices given, as in interval.
func (b Bootstrap) paired(before, after, weights []float64, idx []int32) Interval {
	d := make([]float64, len(before))
	for i := range d {
		d[i] = after[i] - before[i]
	}
	return b.interval(d, weights, idx)
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }
