package similarity

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// A search split over ranges of cases prunes each part with the best bar any
// part has found (liveBar): ids and scores must still be a brute-force
// scan's, for case-to-case searches (the second stage of match, relate) and
// for long pastes, with a filter, in four parts.
func TestSplitSearchesAreExact(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	ix, err := BuildCases(nearDuplicates(synthLibrary(1200, 31), 31), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	ix.opts.parallelMin = 100
	r := rand.New(rand.NewPCG(31, 31))
	for i := range 120 {
		d := r.IntN(ix.Len())
		k := []int{1, 10, 15}[i%3]
		accept := []func(int) bool{nil, func(x int) bool { return x%4 != 1 }}[i/3%2]
		prof := []*profile{ix.exp, ix.rel}[i%2]
		minScore := []float64{0, 0.3, 0.6}[i%3]
		notSelf := func(x int) bool { return x != d && (accept == nil || accept(x)) }
		got := ix.search(&search{q: ix.caseQuery(d, prof, nil), prof: prof, k: k, minScore: minScore, accept: notSelf})
		if want := bruteProfile(ix, prof, nil, d, k, minScore, accept); scored(got) != scored(want) {
			t.Fatalf("case %s, k=%d, min %.1f: split %v, brute force %v", ix.Case(d).ID, k, minScore, scored(got), scored(want))
		}
		p := ix.analyzePaste(longPaste(ix, r, 1+i%4))
		got = ix.search(&search{q: p.q, k: k, accept: accept})
		if want := brutePaste(ix, p, k, 0, accept); scored(got) != scored(want) {
			t.Fatalf("paste %d (%d keys), k=%d: split %v, brute force %v", i, len(p.q), k, scored(got), scored(want))
		}
	}
}
