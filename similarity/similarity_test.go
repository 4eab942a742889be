package similarity

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

func seedIndex(t testing.TB, cfg Config) *Index {
	t.Helper()
	lib, err := caselib.LoadSeeds()
	if err != nil {
		t.Fatal(err)
	}
	ix, err := BuildCases(lib.Cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// The seeds' judgments: IL-0191 and IL-0371 are both label/selector routing
// mistakes; IL-0100 and IL-0194 are capacity overloads that overwhelmed a
// datastore after a restart or rollout. Each must be the other's nearest
// case, although IL-0191's text shares more words with IL-0100 (pods, CPU,
// rollout): with four cases idf cannot discount such words, and the tags
// must carry the mechanism (Config.TextPrior).
func TestSeedsNearestCase(t *testing.T) {
	t.Parallel()
	ix := seedIndex(t, DefaultConfig())
	want := map[string]string{"IL-0191": "IL-0371", "IL-0371": "IL-0191", "IL-0100": "IL-0194", "IL-0194": "IL-0100"}
	for id, nearest := range want {
		d, _ := ix.Lookup(id)
		hits := ix.Related(d, 3, 0)
		if len(hits) == 0 || hits[0].ID != nearest {
			t.Errorf("nearest case of %s = %v, want %s", id, hitIDs(hits), nearest)
		}
	}
}

func hitIDs(h []Hit) []string {
	var s []string
	for _, x := range h {
		s = append(s, fmt.Sprintf("%s(%.3f)", x.ID, x.Score))
	}
	return s
}

// Properties every case-to-case score has: self-similarity 1 (plain cosine),
// symmetry, scores in [0, 1], explanations that add up.
func TestCaseScoreProperties(t *testing.T) {
	t.Parallel()
	for _, pivot := range []float64{0, 0.3} {
		cfg := DefaultConfig()
		cfg.Pivot = pivot
		ix := seedIndex(t, cfg)
		for a := range ix.Len() {
			self := ix.CaseSimilarity(a, a)
			if pivot == 0 && math.Abs(self-1) > 1e-6 {
				t.Errorf("pivot 0: self-similarity of %s = %v, want 1", ix.Case(a).ID, self)
			}
			if self > 1+1e-6 || self <= 0 {
				t.Errorf("pivot %v: self-similarity of %s = %v, want in (0, 1]", pivot, ix.Case(a).ID, self)
			}
			for b := range ix.Len() {
				ab, ba := ix.CaseSimilarity(a, b), ix.CaseSimilarity(b, a)
				if math.Abs(ab-ba) > 1e-6 {
					t.Errorf("score(%d,%d)=%v but score(%d,%d)=%v", a, b, ab, b, a, ba)
				}
				if ab < 0 || ab > 1 {
					t.Errorf("score(%d,%d)=%v outside [0,1]", a, b, ab)
				}
				ex := ix.ExplainPair(a, b)
				if math.Abs(ex.Score-ab) > 1e-6 {
					t.Errorf("explanation of (%d,%d) sums to %v, score %v", a, b, ex.Score, ab)
				}
				var sum float64
				for _, p := range ex.Parts {
					sum += p.Score
				}
				if math.Abs(sum-ab) > 1e-6 {
					t.Errorf("parts of (%d,%d) sum to %v, score %v", a, b, sum, ab)
				}
			}
		}
	}
}

func TestMatchExplanationSums(t *testing.T) {
	t.Parallel()
	ix := seedIndex(t, DefaultConfig())
	res := ix.Match(Query{Text: "distributor pods OOMKilled, only the new pods get write traffic after the rollout; label selector on the Service", K: 4})
	if len(res.Hits) == 0 {
		t.Fatal("no hits")
	}
	if res.Hits[0].ID != "IL-0191" {
		t.Errorf("first hit %s, want IL-0191", res.Hits[0].ID)
	}
	for _, h := range res.Hits {
		ex := ix.ExplainMatch(res, h)
		if math.Abs(ex.Score-h.Score) > 1e-6 {
			t.Errorf("%s: explanation sums to %v, score %v", h.ID, ex.Score, h.Score)
		}
		if math.Abs(ex.Query+ex.Expand-h.Score) > 1e-6 {
			t.Errorf("%s: query %v + expand %v != score %v", h.ID, ex.Query, ex.Expand, h.Score)
		}
		if h.Score < 0 || h.Score > 1 {
			t.Errorf("%s: score %v outside [0, 1]", h.ID, h.Score)
		}
	}
	why := ix.ExplainMatch(res, res.Hits[0]).Why(5)
	// The case never writes "OOMKilled" (it writes "OOM-killed"): a reason
	// names the case's own words, not the paste's.
	if !slices.Contains(why, "selector") || slices.Contains(why, "OOMKilled") {
		t.Errorf("why of IL-0191 = %q: want the case's own words", why)
	}
}

// The index must give the same answer on any number of cores.
func TestAllRelatedDeterministicAcrossCores(t *testing.T) {
	ix := seedIndex(t, DefaultConfig())
	prev := runtime.GOMAXPROCS(1)
	one := ix.AllRelated(3, 0, nil)
	runtime.GOMAXPROCS(4)
	four := ix.AllRelated(3, 0, nil)
	runtime.GOMAXPROCS(prev)
	if fmt.Sprint(one) != fmt.Sprint(four) {
		t.Errorf("1 core: %v\n4 cores: %v", one, four)
	}
}

// A re-rank returns every candidate it is given, the ones sharing nothing
// with the paste last and in the order they were given (the candidate list
// is itself a ranking), and never a case outside the list.
func TestRerankKeepsEveryCandidate(t *testing.T) {
	t.Parallel()
	mk := func(id, title string) *caselib.Case {
		c := &caselib.Case{ID: id}
		c.Title.EN = title
		return c
	}
	ix, err := BuildCases([]*caselib.Case{
		mk("A", "payment gateway timeouts after deploy"),
		mk("B", "payment gateway returns 500"),
		mk("C", "office coffee machine broken"),
		mk("D", "holiday schedule for the team"),
		mk("E", "payment gateway timeouts"),
	}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, cands := range [][]string{{"D", "C", "B", "A"}, {"C", "D", "A", "B"}} {
		res := ix.Match(Query{Text: "payment gateway timeouts", K: 10, Candidates: cands})
		got := ids(res.Hits)
		if len(got) != len(cands) {
			t.Fatalf("candidates %v: got %v, want all %d back", cands, got, len(cands))
		}
		if got[0] != "A" {
			t.Errorf("candidates %v: best %s, want A", cands, got[0])
		}
		var zero []string
		for _, h := range res.Hits {
			if h.Score == 0 {
				zero = append(zero, h.ID)
			}
		}
		var given []string
		for _, id := range cands {
			if id == "C" || id == "D" {
				given = append(given, id)
			}
		}
		if fmt.Sprint(zero) != fmt.Sprint(given) || fmt.Sprint(got[2:]) != fmt.Sprint(given) {
			t.Errorf("candidates %v: got %v, want the unmatched %v last in the given order", cands, got, given)
		}
	}
	// A score floor still applies.
	res := ix.Match(Query{Text: "payment gateway timeouts", K: 10, MinScore: 0.01, Candidates: []string{"D", "A"}})
	if got := ids(res.Hits); fmt.Sprint(got) != "[A]" {
		t.Errorf("with MinScore: got %v, want [A]", got)
	}
}
