package similarity

import (
	"runtime"
	"strings"
	"testing"
)

// TestMatchReusesScratch: once warm, a match (the paste's block-max search,
// then the neighbour search from the best hit) allocates less than the
// scorer's accumulator (4 bytes a case): the scratch buffers of a search go back to the
// scorer whichever traversal ran. (They used to be dropped after a block-max
// search, and every neighbour search regrew them: about 0.4 MB a match at
// 100,000 cases; 0.59 MB here, against 16 KB now.)
func TestMatchReusesScratch(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops scorers at random")
	}
	ix, err := BuildCases(synthLibrary(10000, 1), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	ix.opts.parallelMin = 1 << 30 // one scorer, not one per part
	c := ix.Case(ix.Len() / 2)
	q := Query{Text: strings.TrimSpace(c.Title.EN + "\n" + c.Summary.EN), K: 10}
	res := ix.Match(q)
	if len(res.Expanded) == 0 {
		t.Fatal("the match ran no neighbour search")
	}
	const runs = 20
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	for range runs {
		ix.Match(q)
	}
	runtime.ReadMemStats(&b)
	if per := (b.TotalAlloc - a.TotalAlloc) / runs; per > 4*uint64(ix.Len()) {
		t.Errorf("a warm match allocates %d bytes, over 4 per case of %d", per, ix.Len())
	}
}
