package similarity

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// nearDuplicates returns lib with, for every third case, a copy of it that
// lost some words and gained others: neighbours as close as those the
// second stage of match looks for (similarity 0.6 to 0.95).
func nearDuplicates(lib []*caselib.Case, seed uint64) []*caselib.Case {
	r := rand.New(rand.NewPCG(seed, 2))
	out := lib
	edit := func(s string) string {
		var b strings.Builder
		for _, w := range strings.Fields(s) {
			if r.IntN(5) > 0 {
				b.WriteString(w + " ")
			}
			if r.IntN(8) == 0 {
				fmt.Fprintf(&b, "new%dx ", r.IntN(300))
			}
		}
		return b.String()
	}
	for i := 0; i < len(lib); i += 3 {
		c := *lib[i]
		c.ID = lib[i].ID + "-dup"
		c.Title.EN = edit(c.Title.EN)
		c.Summary.EN = edit(c.Summary.EN)
		if r.IntN(3) == 0 {
			c.Symptoms = []string{fmt.Sprintf("sym-%d", r.IntN(30))}
		}
		out = append(out, &c)
	}
	return out
}

// The case-to-case search must stay exact where its bar is high, as in the
// second stage of match (neighbourBar asks for similarities of 0.6 to 0.9):
// there the bounds of the norms decide most cases (the cut, the candidates,
// reading the terms left for the candidates only).
func TestNeighbourSearchIsExact(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(nearDuplicates(synthLibrary(900, 5), 5), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for d := 0; d < ix.Len(); d += 4 {
		for _, prof := range []*profile{ix.exp, ix.rel} {
			for _, k := range []int{1, 15} {
				for _, minScore := range []float64{0, 0.4, 0.6, 0.75, 0.85} {
					s := &search{q: ix.caseQuery(d, prof, nil), prof: prof, k: k, minScore: minScore,
						accept: func(x int) bool { return x != d }}
					var dp *datePrior
					if d%8 == 0 && prof == ix.rel {
						dp, s.dated = ix.relPrior, ix.datedFrom(ix.relPrior, d)
					}
					got := ix.search(s)
					want := bruteProfile(ix, prof, dp, d, k, minScore, nil)
					if scored(got) != scored(want) {
						t.Fatalf("case %s, k=%d, min %.2f: pruned %v, brute force %v", ix.Case(d).ID, k, minScore, scored(got), scored(want))
					}
					if len(want) > 0 && want[len(want)-1].Score >= 0.6 {
						checked++
					}
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d searches found neighbours at 0.6 or more: the library has too few near duplicates", checked)
	}
}

// The paste search too, where the bar is high: a paste that is a whole
// case's text scores that case and its near duplicate far above the rest,
// so that the norm bound of the non-essential terms decides most cases.
func TestBlockMaxNearDuplicates(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(nearDuplicates(synthLibrary(900, 8), 8), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(8, 8))
	for _, ws := range []int{64, 1024} {
		for i := range 80 {
			ix.opts = searchOptions{windowSize: ws, parallelMin: []int{20000, 100}[i%2]}
			c := ix.Case(r.IntN(ix.Len()))
			p := ix.analyzePaste(c.Title.EN + " " + c.Summary.EN)
			k := []int{1, 2, 5, 17}[i%4]
			got := ix.search(&search{q: p.q, k: k})
			if want := bruteMatch(ix, p, k); scored(got) != scored(want) {
				t.Fatalf("window %d, paste of %s, k=%d: block-max %v, brute force %v", ws, c.ID, k, scored(got), scored(want))
			}
		}
	}
}
