package similarity

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// trackerLibrary returns bug reports written as a title and a body: in each
// of six groups the first report names the fault in its title, and its two
// duplicates, filed by others, name it only in their bodies, under titles
// of their own; the first report's body names only its own host, so the
// fault's words are all it shares with anything.
func trackerLibrary() []*caselib.Case {
	faults := [][]string{{"jetty", "websocket", "handshake"}, {"kerberos", "ticket", "renewal"},
		{"snappy", "codec", "checksum"}, {"namenode", "safemode", "startup"},
		{"zookeeper", "session", "expiry"}, {"yarn", "container", "preemption"}}
	hosts := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
		"juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo"}
	var cases []*caselib.Case
	for g, f := range faults {
		add := func(i int, title, body string) {
			c := &caselib.Case{ID: fmt.Sprintf("BUG-%d%d", g, i)}
			c.Title.EN, c.Summary.EN = title, body
			cases = append(cases, c)
		}
		w := hosts[3*g : 3*g+3]
		add(0, fmt.Sprintf("%s %s %s", f[0], f[1], f[2]), w[0])
		add(1, fmt.Sprintf("%s job breaks", w[1]), fmt.Sprintf("Since last week the %s %s %s fails for us.", f[0], f[1], f[2]))
		add(2, fmt.Sprintf("%s service unusable", w[2]), fmt.Sprintf("Logs show the %s %s %s going wrong.", f[0], f[1], f[2]))
	}
	return cases
}

// relScore is relate's score of case b for case a (as Related ranks it).
func relScore(ix *Index, a, b int) float64 {
	return ix.exact(ix.relQuery(a, nil), b, ix.rel) * ix.pairFactor(ix.relPrior, a, b)
}

// A duplicate that names the fault only in its body is found first when a
// title's words meet another report's body (CrossViews), and not when views
// are compared one by one.
func TestTitleMeetsBody(t *testing.T) {
	t.Parallel()
	for _, cv := range []float64{0, DefaultConfig().CrossViews} {
		cfg := DefaultConfig()
		cfg.CrossViews = cv
		ix, err := BuildCases(trackerLibrary(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for g := range 6 {
			d := slices.Index(ix.ids, fmt.Sprintf("BUG-%d0", g))
			hits := ix.Related(d, 2, 0)
			if len(hits) == 2 && hits[0].ID[:5] == hits[1].ID[:5] && hits[0].ID[:5] == ix.ids[d][:5] {
				found++
			}
		}
		if cv > 0 {
			// The explanation adds up to relate's score and says the
			// fault's words were found across views.
			a, b := slices.Index(ix.ids, "BUG-00"), slices.Index(ix.ids, "BUG-01")
			ex := ix.ExplainPair(a, b)
			if got := relScore(ix, a, b) / ix.pairFactor(ix.relPrior, a, b); math.Abs(ex.Score-got) > 1e-6 {
				t.Errorf("ExplainPair(BUG-00, BUG-01) = %v, relate scores %v", ex.Score, got)
			}
			across := 0
			for _, p := range ex.Parts {
				if p.Across && slices.Contains([]string{"jetty", "websocket", "handshake"}, p.Term) {
					across++
				}
			}
			if across != 3 {
				t.Errorf("ExplainPair(BUG-00, BUG-01) parts %+v: want jetty, websocket and handshake across views", ex.Parts)
			}
		}
		switch {
		case cv == 0 && found == 6:
			t.Errorf("CrossViews 0: all 6 reports have their duplicates first; the library should need title meeting body")
		case cv > 0 && found != 6:
			t.Errorf("CrossViews %v: %d of 6 reports have their two duplicates first, want 6", cv, found)
		}
	}
}

// The score of two reports is (s + λ·x) / (1 + λ), s their cosine and x one
// sum for every λ: it is the same both ways, in [0, 1], and a case with a
// response view (a curated case) is scored by its cosine alone, both as
// the case related and as the case relate lists.
func TestCrossViewsScore(t *testing.T) {
	t.Parallel()
	cases := synthLibrary(300, 11)
	at := map[float64]*Index{}
	for _, cv := range []float64{0, 0.2, 0.5} {
		cfg := DefaultConfig()
		cfg.CrossViews, cfg.RelateDate = cv, 0
		ix, err := BuildCases(cases, cfg)
		if err != nil {
			t.Fatal(err)
		}
		at[cv] = ix
	}
	ix := at[0]
	var plain, curated int
	for a := range ix.Len() {
		for b := a + 1; b < ix.Len(); b++ {
			s := ix.CaseSimilarity(a, b)
			if math.Abs(relScore(ix, a, b)-s) > 1e-6 {
				t.Fatalf("CrossViews 0: %s %s relate %v, cosine %v", ix.ID(a), ix.ID(b), relScore(ix, a, b), s)
			}
			both := ix.titleAndBody(a) && ix.titleAndBody(b)
			var x []float64
			for _, cv := range []float64{0.2, 0.5} {
				ab, ba := relScore(at[cv], a, b), relScore(at[cv], b, a)
				if ab < 0 || ab > 1 {
					t.Fatalf("CrossViews %v: %s %s scores %v", cv, ix.ID(a), ix.ID(b), ab)
				}
				if !ix.titleAndBody(a) && math.Abs(ab-s) > 1e-6 {
					t.Fatalf("CrossViews %v: curated %s lists %s at %v, its cosine is %v", cv, ix.ID(a), ix.ID(b), ab, s)
				}
				if both {
					if math.Abs(ab-ba) > 1e-6 {
						t.Fatalf("CrossViews %v: %s→%s %v, %s→%s %v", cv, ix.ID(a), ix.ID(b), ab, ix.ID(b), ix.ID(a), ba)
					}
					x = append(x, (ab*(1+cv)-s)/cv)
				}
			}
			if both {
				plain++
				if math.Abs(x[0]-x[1]) > 1e-5 || x[0] < -1e-6 {
					t.Fatalf("%s %s: the cross sum is %v at 0.2 and %v at 0.5, want one sum ≥ 0", ix.ID(a), ix.ID(b), x[0], x[1])
				}
			} else {
				curated++
			}
		}
	}
	if plain == 0 || curated == 0 {
		t.Fatalf("%d pairs of reports, %d with a curated case: the library should have both", plain, curated)
	}
}
