package similarity

import (
	"fmt"
	"math"
	"testing"
)

// Each level norm bounds the case's part over the keys of that level, and
// is close to it: a bound below would drop cases that belong in the top k,
// one far above would prune nothing.
func TestLevelNormsBoundTheirKeys(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(synthLibrary(600, 11), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	n := ix.Len()
	for _, pr := range []struct {
		name string
		p    *profile
	}{{"relate", ix.rel}, {"second stage", ix.exp}} {
		p := pr.p
		var below, rows int
		for d := range n {
			b := p.bounds[d]
			for j := range numLevels {
				var n2 float64
				for e := ix.vstart[d]; e < ix.vstart[d+1]; e++ {
					k := ix.vkey[e]
					if ix.pstart[k+1]-ix.pstart[k] >= levelLen(j, n) {
						x := float64(p.w.at(k, e))
						n2 += p.views[keyView(k)] * x * x
					}
				}
				want := math.Sqrt(n2) * float64(p.scale[d])
				got := b.level(j)
				if got < want {
					t.Fatalf("%s: case %s, level %d: bound %g below its part's norm %g", pr.name, ix.Case(d).ID, j, got, want)
				}
				if step := float64(b.unorm) / 255; got > want+step*1.001 {
					t.Fatalf("%s: case %s, level %d: bound %g more than a step (%g) above %g", pr.name, ix.Case(d).ID, j, got, step, want)
				}
				if j > 0 && b.lev[j] > b.lev[j-1] {
					t.Fatalf("%s: case %s: level %d above level %d", pr.name, ix.Case(d).ID, j, j-1)
				}
				rows++
				if got < 0.5*float64(b.unorm) {
					below++
				}
			}
		}
		// The common words hold a small part of most cases: the levels
		// are worth keeping only if many are well below the whole norm.
		if below < rows/4 {
			t.Errorf("%s: only %d of %d level norms are below half the case's norm", pr.name, below, rows)
		}
	}
}

// levelLen's levels run from n/16384 to n by fourfold steps, never below one
// posting.
func TestLevelLen(t *testing.T) {
	for _, c := range []struct{ n, j, want int }{
		{1_000_000, 7, 1_000_000},
		{1_000_000, 6, 250_000},
		{1_000_000, 0, 61},
		{100_000, 3, 390},
		{6854, 0, 1},
		{6854, 4, 107},
		{10, 7, 10},
		{10, 5, 1},
	} {
		if got := levelLen(c.j, c.n); got != c.want {
			t.Errorf("levelLen(%d, %d) = %d, want %d", c.j, c.n, got, c.want)
		}
	}
	for _, c := range []struct{ tmin, n, want int }{
		{100_000, 100_000, 7},
		{99_999, 100_000, 6},
		{390, 100_000, 3},
		{5, 100_000, -1},
		{1, 10, 5},
		{2, 10, 6},
	} {
		if got := tailLevel(c.tmin, c.n); got != c.want {
			t.Errorf("tailLevel(%d, %d) = %d, want %d", c.tmin, c.n, got, c.want)
		}
	}
}

// The level bound prunes; it must not change an answer of relate or of the
// second stage's neighbour search, at any k.
func TestLevelsChangeNoAnswer(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(synthLibrary(1500, 12), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for d := 0; d < ix.Len(); d += 7 {
		for _, k := range []int{1, 5, 15} {
			ix.opts.noLevels = true
			rel, near := ix.Related(d, k, 0), ix.search(&search{q: ix.caseQuery(d, ix.exp, nil), prof: ix.exp, k: k, minScore: 0.05})
			ix.opts.noLevels = false
			if got := ix.Related(d, k, 0); fmt.Sprint(got) != fmt.Sprint(rel) {
				t.Fatalf("case %s, k %d: relate with levels %v, without %v", ix.Case(d).ID, k, hitIDs(got), hitIDs(rel))
			}
			if got := ix.search(&search{q: ix.caseQuery(d, ix.exp, nil), prof: ix.exp, k: k, minScore: 0.05}); fmt.Sprint(got) != fmt.Sprint(near) {
				t.Fatalf("case %s, k %d: neighbours with levels %v, without %v", ix.Case(d).ID, k, hitIDs(got), hitIDs(near))
			}
		}
		if got, want := ix.Related(d, 10, 0), bruteRelated(ix, d, 10, 0); fmt.Sprint(ids(got)) != fmt.Sprint(ids(want)) {
			t.Fatalf("case %s: relate %v, brute force %v", ix.Case(d).ID, hitIDs(got), hitIDs(want))
		}
	}
}
