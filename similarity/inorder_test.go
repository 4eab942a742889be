package similarity

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortTouched sorts a set of touched cases in place when the set is large
// enough for its pass over the bitset to pay, keeps every case, and leaves
// its bitset clear for the next search.
func TestSortTouched(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name         string
		n, from, to  int
		count        int
		wantReorders bool
	}{
		{"whole library, dense", 10_000, 0, 10_000, 3_000, true},
		{"whole library, every case", 640, 0, 640, 640, true},
		{"a split range", 100_000, 30_000, 60_000, 2_000, true},
		{"a range not on a word's edge", 5_000, 1_001, 4_099, 500, true},
		{"fewer than 64", 10_000, 0, 10_000, 63, false},
		{"sparse: under one case in 1,024", 1_000_000, 0, 1_000_000, 900, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.n), uint64(c.count)))
			perm := rng.Perm(c.to - c.from)[:c.count]
			touched := make([]uint32, len(perm))
			for i, x := range perm {
				touched[i] = uint32(c.from + x)
			}
			before := slices.Clone(touched)
			sc := new(scorer)
			got := sc.sortTouched(touched, c.n, c.from, c.to)
			if got != c.wantReorders {
				t.Fatalf("sortTouched = %v, want %v", got, c.wantReorders)
			}
			if !c.wantReorders {
				if !slices.Equal(touched, before) {
					t.Fatal("a set left as it is was changed")
				}
				return
			}
			if !slices.IsSorted(touched) {
				t.Fatal("not sorted")
			}
			if !slices.Equal(touched, slices.Sorted(slices.Values(before))) {
				t.Fatal("cases lost or made up")
			}
			for i, w := range sc.tbits {
				if w != 0 {
					t.Fatalf("bitset word %d left set: %x", i, w)
				}
			}
		})
	}
}

// Screening the touched cases in case order instead of the order of first
// touch must change no answer: relate, the second stage's neighbour search,
// whole or split by ranges, and dupes.
func TestOrderChangesNoAnswer(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(synthLibrary(1500, 13), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	answers := func() string {
		var out []string
		for d := 0; d < ix.Len(); d += 11 {
			for _, k := range []int{1, 5, 15} {
				near := ix.search(&search{q: ix.caseQuery(d, ix.exp, nil), prof: ix.exp, k: k, minScore: 0.05})
				out = append(out, fmt.Sprint(ix.Related(d, k, 0)), fmt.Sprint(near))
			}
		}
		out = append(out, fmt.Sprint(ix.AllRelated(10, 0.15, nil)), fmt.Sprint(ix.Duplicates(0.5, 5, nil)))
		return fmt.Sprint(out)
	}
	for _, split := range []int{1 << 30, 100} {
		ix.opts = searchOptions{parallelMin: split, orderMin: -1}
		want := answers()
		ix.opts.orderMin = 1
		if got := answers(); got != want {
			t.Fatalf("parallelMin %d: answers differ with the touched cases in case order", split)
		}
	}
	if got, want := ix.Related(3, 10, 0), bruteRelated(ix, 3, 10, 0); fmt.Sprint(ids(got)) != fmt.Sprint(ids(want)) {
		t.Fatalf("relate %v, brute force %v", hitIDs(got), hitIDs(want))
	}
}
