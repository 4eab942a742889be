package eval

import (
	"math"
	"testing"
)

func TestBootstrapMean(t *testing.T) {
	b := DefaultBootstrap()
	tests := []struct {
		name   string
		xs, ws []float64
		lo, hi float64 // want exactly, when exact
		exact  bool
	}{
		{name: "all zero", xs: []float64{0, 0, 0, 0, 0}, exact: true},
		{name: "constant", xs: []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, lo: 0.1, hi: 0.1, exact: true},
		{name: "constant weighted", xs: []float64{-0.3, -0.3, -0.3}, ws: []float64{1, 2, 7}, lo: -0.3, hi: -0.3, exact: true},
		{name: "one value", xs: []float64{0.42}, lo: 0.42, hi: 0.42, exact: true},
		{name: "spread", xs: []float64{0, 1, 0, 1, 1, 0.5, 0.25, 0.75, 1, 0, 0.6, 0.3}},
		{name: "weighted spread", xs: []float64{0, 1, 0, 1, 1, 0.5, 0.25, 0.75}, ws: []float64{1, 1, 1, 1, 2, 2, 2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			iv := b.Mean(tt.xs, tt.ws)
			if iv.N != len(tt.xs) {
				t.Errorf("N = %d, want %d", iv.N, len(tt.xs))
			}
			if tt.exact && (iv.Lo != tt.lo || iv.Hi != tt.hi) {
				t.Errorf("interval [%v, %v], want [%v, %v]", iv.Lo, iv.Hi, tt.lo, tt.hi)
			}
			if !iv.Contains(iv.Mean) || iv.Lo > iv.Hi {
				t.Errorf("interval [%v, %v] does not contain the mean %v", iv.Lo, iv.Hi, iv.Mean)
			}
			if again := b.Mean(tt.xs, tt.ws); again != iv {
				t.Errorf("second run gave %+v, first %+v", again, iv)
			}
		})
	}
}

// TestBootstrapKnownData checks the interval of a sample against the normal
// approximation mean ± 1.96·sd/√n, which a 10,000-resample percentile
// bootstrap of 40 values matches to within a few hundredths.
func TestBootstrapKnownData(t *testing.T) {
	var xs []float64
	for i := range 40 {
		xs = append(xs, float64(i%10)/10) // 0, 0.1, …, 0.9 four times
	}
	iv := DefaultBootstrap().Mean(xs, nil)
	mean, sd := 0.45, math.Sqrt(0.0825) // population sd of 0..0.9 step 0.1
	half := 1.96 * sd / math.Sqrt(40)
	if math.Abs(iv.Mean-mean) > 1e-12 {
		t.Errorf("mean %v, want %v", iv.Mean, mean)
	}
	if math.Abs(iv.Lo-(mean-half)) > 0.02 || math.Abs(iv.Hi-(mean+half)) > 0.02 {
		t.Errorf("interval [%.4f, %.4f], want about [%.4f, %.4f]", iv.Lo, iv.Hi, mean-half, mean+half)
	}
	// Drawing the resamples once and reusing them (as a grid does for all
	// its variants) gives the same interval.
	if shared := DefaultBootstrap().interval(xs, nil, DefaultBootstrap().draws(len(xs))); shared != iv {
		t.Errorf("with shared draws %+v, drawn as it goes %+v", shared, iv)
	}
	// A different seed moves the bounds a little, not the mean.
	other := Bootstrap{Resamples: 10000, Level: 0.95, Seed: 7}.Mean(xs, nil)
	if other.Mean != iv.Mean || other == iv {
		t.Errorf("seed 7 gave %+v beside %+v: want the same mean, different bounds", other, iv)
	}
	// A higher level gives a wider interval.
	wide := Bootstrap{Resamples: 10000, Level: 0.99, Seed: DefaultBootstrap().Seed}.Mean(xs, nil)
	if wide.Lo >= iv.Lo || wide.Hi <= iv.Hi {
		t.Errorf("99%% interval [%v, %v] not wider than 95%% [%v, %v]", wide.Lo, wide.Hi, iv.Lo, iv.Hi)
	}
}

func TestBootstrapPaired(t *testing.T) {
	b := DefaultBootstrap()
	a := []float64{0.25, 0.5, 0.875, 0.125, 0.75, 0.375} // exact in binary, so a+d−a is d
	same := b.Paired(a, a, nil)
	if same.Mean != 0 || same.Lo != 0 || same.Hi != 0 {
		t.Errorf("equal runs: %+v, want [0, 0]", same)
	}
	// A constant gain d on every query: the interval is [d, d] however
	// different the queries are.
	up := make([]float64, len(a))
	for i := range a {
		up[i] = a[i] + 0.125
	}
	d := b.Paired(a, up, nil)
	if d.Lo != 0.125 || d.Hi != 0.125 || d.Mean != 0.125 {
		t.Errorf("constant gain 0.125: %+v", d)
	}
	// Pairing removes the spread between queries: an unpaired interval of
	// the same gain would cross zero, the paired one does not.
	noisy := []float64{0.3, 0.55, 0.9, 0.2, 0.8, 0.4}
	p := b.Paired(a, noisy, nil)
	if p.Lo <= 0 || !p.Contains(p.Mean) {
		t.Errorf("small consistent gain: %+v, want an interval above 0", p)
	}
	if empty := b.Paired(nil, nil, nil); empty != (Interval{}) {
		t.Errorf("no pairs: %+v", empty)
	}
}
