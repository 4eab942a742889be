package curate_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/eval"
	"github.com/caselink/caselink/eval/sharedtest"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// TestRelateThresholdAcrossSizes checks that relate's default --min-score
// means the same in a library of a few cases as in a large one: on random
// sub-libraries of the judged incidents (seeded, 4 to all 40–48 cases), the
// links relate makes at the default are judged related at least 75% of the
// time at every size (measured: 0.85–0.91 from 3 to 48 cases, and 0.80–0.85
// for the judged cases inside the 6,898-case noisy library). Links in the
// band just under it (0.125–0.15) are right about half the time (0.3–0.7),
// so a lower default would add many wrong links; -v prints both figures.
// Skips when ../shared is absent (fails with CASELINK_REQUIRE_SHARED=1).
func TestRelateThresholdAcrossSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds about 500 indexes of the judged incidents: run without -short")
	}
	min := curate.RelateMinScore
	for _, s := range []struct{ cases, rel string }{
		{sharedtest.Path("data/incidents-judged/cases"), sharedtest.Path("data/incidents-judged/related.tsv")},
		{sharedtest.Path("data/incidents-judged-2/cases"), sharedtest.Path("data/incidents-judged-2/related.tsv")},
	} {
		sharedtest.Need(t, s.cases, s.rel)
		lib, err := caselib.Load([]string{s.cases}, caselib.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rel, err := eval.ReadPairs(s.rel)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, 2))
		for _, n := range []int{4, 8, 16, len(lib.Cases)} {
			var above, aboveOK, band, bandOK int
			reps := 600 / n // about as many links at every size
			if n == len(lib.Cases) {
				reps = 1
			}
			for range reps {
				var cs []*caselib.Case
				for _, i := range r.Perm(len(lib.Cases))[:n] {
					cs = append(cs, lib.Cases[i])
				}
				ix, err := similarity.BuildCases(cs, similarity.DefaultConfig())
				if err != nil {
					t.Fatal(err)
				}
				for d, hits := range ix.AllRelated(curate.RelateTop, min-0.025, nil) {
					id := ix.Case(d).ID
					for _, h := range hits {
						ok := rel[id][h.ID] > 0
						if h.Score >= min {
							above++
							if ok {
								aboveOK++
							}
						} else {
							band++
							if ok {
								bandOK++
							}
						}
					}
				}
			}
			prec := func(ok, all int) float64 {
				if all == 0 {
					return 0
				}
				return float64(ok) / float64(all)
			}
			msg := fmt.Sprintf("%s, %d cases: %d links at ≥ %.3f, %.2f judged; %d in the band below, %.2f judged",
				s.cases, n, above, min, prec(aboveOK, above), band, prec(bandOK, band))
			t.Log(msg)
			if above < 20 || prec(aboveOK, above) < 0.75 {
				t.Error(msg)
			}
		}
	}
}
