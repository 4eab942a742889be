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

// The bars a case-to-case search takes from the exact scores of its most
// promising cases (touchedBar over the cases it touched, candsBar over its
// candidates) are lower bounds of its k-th best score, the filter and the
// date prior applied; and, where those cases are the best ones (every term
// read), they are that score, rounded down. Pooled over the parts of a split
// search (liveBar.offerExact), a case probed twice counts once.
func TestExactBarsBoundTheKth(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(nearDuplicates(synthLibrary(600, 6), 6), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for d := 0; d < ix.Len(); d += 5 {
		for _, prof := range []*profile{ix.exp, ix.rel} {
			for _, k := range []int{1, 3, 15} {
				s := &search{q: ix.caseQuery(d, prof, nil), prof: prof, k: k, accept: func(x int) bool { return x != d && x%7 != 3 }}
				var dp *datePrior
				if d%2 == 0 && prof == ix.rel {
					dp, s.dated = ix.relPrior, ix.datedFrom(ix.relPrior, d)
				}
				want := bruteProfile(ix, prof, dp, d, k, 0, func(x int) bool { return x%7 != 3 })
				if len(want) < k {
					continue
				}
				kth := want[k-1].Score
				sc := ix.getScorer()
				p := pass{ix: ix, sc: sc, wt: ix.weightsFor(prof)}
				var touched []uint32
				for _, q := range s.q {
					lo, hi := ix.pstart[q.key], ix.pstart[q.key+1]
					touched = addPostings(sc.acc, touched, ix.pdoc[lo:hi], p.wt.postings(q.key)[lo:hi], q.w)
				}
				for _, x := range touched {
					if !s.accept(int(x)) {
						continue // screen keeps only the cases the search accepts
					}
					c := cand{doc: x, sc: prof.scale[x], dfac: 1}
					if s.dated != nil {
						c.dfac = s.dated.factor(int(x))
					}
					c.lb = float64(sc.acc[x]) * c.f()
					p.cands = append(p.cands, c)
				}
				bars := [2]float64{p.touchedBar(s, touched), p.candsBar(s)}
				// As a part of a split search: its probes pooled with the
				// other parts' (here, its own again, counted once).
				p.live = new(liveBar)
				p.touchedBar(s, touched)
				p.touchedBar(s, touched)
				if bar := p.candsBar(s); bar > kth || bar < bars[1] {
					t.Fatalf("case %s, k=%d: pooled bar %v, the k-th best score %v, alone %v", ix.Case(d).ID, k, bar, kth, bars[1])
				}
				for _, x := range touched {
					sc.acc[x] = 0
				}
				ix.putScorer(sc)
				for i, bar := range bars {
					name := []string{"touchedBar", "candsBar"}[i]
					if bar > kth {
						t.Fatalf("case %s, k=%d: %s %v above the k-th best score %v", ix.Case(d).ID, k, name, bar, kth)
					}
					// touchedBar ranks by the sums before the date prior.
					if (s.dated == nil || i == 1) && bar < kth*(1-1e-3) {
						t.Fatalf("case %s, k=%d: %s %v, the k-th best score %v", ix.Case(d).ID, k, name, bar, kth)
					}
				}
				checked++
			}
		}
	}
	if checked < 300 {
		t.Fatalf("only %d searches checked", checked)
	}
}

// A case-to-case search raises its bar as the cases it touched double
// (accumulate), here from 16 cases on so that the small library's searches
// raise it many times: each raise is a lower bound of the k-th best score,
// so the answers stay those of a brute force.
func TestBarRaisedAsTouchedGrowsIsExact(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(nearDuplicates(synthLibrary(900, 5), 5), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	ix.opts.raiseTouched = 16
	for d := 1; d < ix.Len(); d += 9 {
		for _, prof := range []*profile{ix.exp, ix.rel} {
			for _, k := range []int{1, 10} {
				for _, minScore := range []float64{0, 0.5} {
					s := &search{q: ix.caseQuery(d, prof, nil), prof: prof, k: k, minScore: minScore,
						accept: func(x int) bool { return x != d }}
					var dp *datePrior
					if d%2 == 0 && prof == ix.rel {
						dp, s.dated = ix.relPrior, ix.datedFrom(ix.relPrior, d)
					}
					sc := ix.getScorer()
					got := ix.run(sc, s)
					ix.putScorer(sc)
					if want := bruteProfile(ix, prof, dp, d, k, minScore, nil); scored(got) != scored(want) {
						t.Fatalf("case %s, k=%d, min %.2f: pruned %v, brute force %v", ix.Case(d).ID, k, minScore, scored(got), scored(want))
					}
				}
			}
		}
	}
}
