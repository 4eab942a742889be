package similarity

import (
	"runtime"
	"testing"
)

// prefixMismatches runs AllRelated by the prefix path on 1 and 4 cores, for
// several k and score floors, and returns how many cases' answers differ
// from brute[case] (each case's top 10 by brute force, best first).
func prefixMismatches(t *testing.T, ix *Index, brute [][]Hit) int {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	ix.opts.prefix = 1
	defer func() { ix.opts.prefix = 0 }()
	bad := 0
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		for _, k := range []int{1, 3, 10} {
			for _, minScore := range []float64{0, 0.3} {
				all := ix.AllRelated(k, minScore, nil)
				for d := range ix.Len() {
					var want []Hit
					for _, h := range brute[d] {
						if h.Score >= minScore && len(want) < k {
							want = append(want, h)
						}
					}
					if got, w := scored(all[d]), scored(want); got != w {
						if bad == 0 {
							t.Logf("procs=%d k=%d min=%v case %s: prefix path %v, brute force %v", procs, k, minScore, ix.Case(d).ID, got, w)
						}
						bad++
					}
				}
			}
		}
	}
	return bad
}

// AllRelated by the prefix index equals a brute-force scan, ids and scores,
// on a library of near-duplicates (high bars, short prefixes) and on one of
// unrelated cases (low bars, the whole vectors indexed); and the check can
// fail: with suffixes allowed to reach 1.2 times the floor, pairs are lost.
func TestPrefixPathIsExact(t *testing.T) {
	libs := []struct {
		name string
		ix   *Index
	}{}
	for _, l := range []struct {
		name string
		n    int
	}{{"near-duplicates", 0}, {"unrelated", 1}} {
		lib := clusteredLibrary(100, 6, 41)
		if l.n == 1 {
			lib = synthLibrary(500, 43)
		}
		ix, err := BuildCases(lib, DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		libs = append(libs, struct {
			name string
			ix   *Index
		}{l.name, ix})
	}
	weakFails := 0
	for _, l := range libs {
		brute := make([][]Hit, l.ix.Len())
		for d := range brute {
			brute[d] = bruteRelated(l.ix, d, 10, 0)
		}
		if bad := prefixMismatches(t, l.ix, brute); bad > 0 {
			t.Errorf("%s: %d answers differ from a brute force", l.name, bad)
		}
		prefixBeta = 1.2
		weakFails += prefixMismatches(t, l.ix, brute)
		prefixBeta = 1
	}
	if weakFails == 0 {
		t.Error("suffixes weakened to 1.2 times the floor lost no pair: the check cannot fail")
	}
}
