package similarity

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// Each word's bound in a window is, rounded up, the most one case of the
// window gives a paste's word, its text views weighed as a paste weighs
// them (computed here from the case vectors, not from the postings the
// index reads), and a window none of whose cases has the word has none.
func TestWordBounds(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(synthLibrary(3*wordWindow+100, 9), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	type cell struct{ word, win uint32 }
	want := map[cell]float64{}
	for d := range ix.Len() {
		sums := map[uint32]float64{}
		for j := ix.vstart[d]; j < ix.vstart[d+1]; j++ {
			if k := ix.vkey[j]; keyView(k) < textViews {
				sums[keyTerm(k)] += ix.pasteViews[keyView(k)] * float64(ix.mw.vval[j])
			}
		}
		for w, s := range sums {
			c := cell{w, uint32(d / wordWindow)}
			want[c] = max(want[c], s)
		}
	}
	wb := ix.wb
	nwords := (len(ix.pstart) - 1) / NumViews
	if !validWordBounds(&wb, nwords) {
		t.Fatalf("word bounds of %d words do not fit together", nwords)
	}
	cells := 0
	for w := range nwords {
		for i := wb.start[w]; i < wb.start[w+1]; i++ {
			if i > wb.start[w] && wb.win[i] <= wb.win[i-1] {
				t.Fatalf("word %d: windows %d then %d", w, wb.win[i-1], wb.win[i])
			}
			c := cell{uint32(w), wb.win[i]}
			m, ok := want[c]
			if !ok {
				t.Fatalf("word %d has a bound in window %d, where no case has it", w, c.win)
			}
			if wb.max[i] != roundUp32(m) {
				t.Fatalf("word %d, window %d: bound %v, want %v", w, c.win, wb.max[i], roundUp32(m))
			}
			cells++
		}
	}
	if cells != len(want) {
		t.Fatalf("%d bounds, want one for each of %d words and windows", cells, len(want))
	}
}

// Over several windows of the word bounds, and with the search split in
// parts that start anywhere in them, a paste's block-max search with the
// word bounds gives what scoring every case gives: short pastes and long
// ones made of several cases' text, where most words are non-essential.
func TestWordBoundsAreExact(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(synthLibrary(3*wordWindow+100, 12), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	odd := func(d int) bool { return d%2 == 1 }
	for i := range 48 {
		ix.opts = searchOptions{parallelMin: []int{20000, 100}[i%2]}
		if ix.opts.window() != wordWindow {
			t.Fatal("the default window is not the word bounds'")
		}
		var text strings.Builder
		for range 1 + i%4*3 {
			c := ix.Case(r.IntN(ix.Len()))
			fmt.Fprintf(&text, "%s %s\n", c.Title.EN, c.Summary.EN)
		}
		p := ix.analyzePaste(text.String())
		k := []int{1, 5, 17}[i%3]
		minScore := []float64{0, 0, 0.02}[i%3]
		accept := []func(int) bool{nil, odd}[i/2%2]
		got := ix.search(&search{q: p.q, k: k, minScore: minScore, accept: accept})
		want := brutePaste(ix, p, k, minScore, accept)
		if fmt.Sprint(hitIDs(got)) != fmt.Sprint(hitIDs(want)) {
			t.Fatalf("paste %d (%d terms): block-max %v, brute force %v", i, len(p.q), hitIDs(got), hitIDs(want))
		}
	}
}
