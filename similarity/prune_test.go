package similarity

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// synthLibrary makes n cases of random words drawn from a Zipf-like
// vocabulary, so that some terms are in most cases (long postings, where
// pruning matters) and most are rare.
func synthLibrary(n int, seed uint64) []*caselib.Case {
	r := rand.New(rand.NewPCG(seed, 1))
	zipf := rand.NewZipf(r, 1.2, 3, 4000)
	word := func() string { return fmt.Sprintf("w%dx", zipf.Uint64()) }
	tags := []string{"kubernetes", "database", "networking", "dns", "storage"}
	var cases []*caselib.Case
	for i := range n {
		text := func(k int) string {
			var b strings.Builder
			for range k {
				b.WriteString(word())
				b.WriteByte(' ')
			}
			return b.String()
		}
		c := &caselib.Case{ID: fmt.Sprintf("S-%04d", i)}
		if r.IntN(8) > 0 { // most cases dated, over three years
			c.Date = fmt.Sprintf("20%02d-%02d-%02d", 21+r.IntN(3), 1+r.IntN(12), 1+r.IntN(28))
		}
		c.Title.EN = text(3 + r.IntN(8))
		if r.IntN(4) > 0 {
			c.Summary.EN = text(10 + r.IntN(120))
		}
		if r.IntN(3) == 0 {
			c.Remediation = append(c.Remediation, caselib.Text{EN: text(5 + r.IntN(20))})
		}
		if r.IntN(2) == 0 {
			c.Domain = []string{tags[r.IntN(len(tags))]}
			c.Symptoms = []string{fmt.Sprintf("sym-%d", r.IntN(30))}
		}
		cases = append(cases, c)
	}
	return cases
}

// bruteRelated scores case doc against every other case, exactly, as relate
// does (with its date prior).
func bruteRelated(ix *Index, doc, k int, minScore float64) []Hit {
	q := ix.relQuery(doc, nil)
	var hits []Hit
	for d := range ix.Len() {
		if d == doc {
			continue
		}
		if s := ix.exact(q, d, ix.rel) * ix.pairFactor(ix.relPrior, doc, d); s >= minScore && s > 0 {
			hits = append(hits, Hit{Doc: d, ID: ix.Case(d).ID, Score: s})
		}
	}
	sortHits(hits)
	return hits[:min(k, len(hits))]
}

// bruteProfile scores case doc against every other case under profile p and
// the date prior dp (nil for none), keeping only the cases accept keeps (nil:
// all).
func bruteProfile(ix *Index, p *profile, dp *datePrior, doc, k int, minScore float64, accept func(int) bool) []Hit {
	q := ix.caseQuery(doc, p, nil)
	var hits []Hit
	for d := range ix.Len() {
		if d == doc || accept != nil && !accept(d) {
			continue
		}
		if s := ix.exact(q, d, p) * ix.pairFactor(dp, doc, d); s >= minScore && s > 0 {
			hits = append(hits, Hit{Doc: d, ID: ix.Case(d).ID, Score: s})
		}
	}
	sortHits(hits)
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

// bruteMatch scores a paste against every case, exactly.
func bruteMatch(ix *Index, p paste, k int) []Hit { return brutePaste(ix, p, k, 0, nil) }

// brutePaste is bruteMatch with a score floor and a filter (nil: none).
func brutePaste(ix *Index, p paste, k int, minScore float64, accept func(int) bool) []Hit {
	var hits []Hit
	for d := range ix.Len() {
		if accept != nil && !accept(d) {
			continue
		}
		if s := ix.exact(p.q, d, nil); s > 0 && s >= minScore {
			hits = append(hits, Hit{Doc: d, ID: ix.Case(d).ID, Score: s})
		}
	}
	sortHits(hits)
	return hits[:min(k, len(hits))]
}

// Pruning must never change a result: every case's top k equals a brute-force
// scan of the whole library, for several k and score floors.
func TestPruningIsExact(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(synthLibrary(600, 7), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 5, 20} {
		for _, minScore := range []float64{0, 0.1} {
			all := ix.AllRelated(k, minScore, nil)
			for d := range ix.Len() {
				want := bruteRelated(ix, d, k, minScore)
				if got := all[d]; scored(got) != scored(want) {
					t.Fatalf("k=%d min=%v case %s: pruned %v, brute force %v", k, minScore, ix.Case(d).ID, hitIDs(got), hitIDs(want))
				}
			}
		}
	}
	// The second stage's neighbour search has its own profile and weights.
	if ix.exp == ix.rel {
		t.Fatal("default config: the second stage should have its own profile")
	}
	for d := 0; d < ix.Len(); d += 7 {
		got := ix.search(&search{q: ix.caseQuery(d, ix.exp, nil), prof: ix.exp, k: 10,
			accept: func(x int) bool { return x != d }})
		if want := bruteProfile(ix, ix.exp, nil, d, 10, 0, nil); scored(got) != scored(want) {
			t.Fatalf("second stage of %s: pruned %v, brute force %v", ix.Case(d).ID, hitIDs(got), hitIDs(want))
		}
	}
	// A filter and the date prior together (screen drops a case on its bound
	// before either is looked up), with a score floor.
	for d := 0; d < ix.Len(); d += 5 {
		keep := func(x int) bool { return x != d && x%3 != 0 }
		for _, minScore := range []float64{0, 0.05} {
			got := ix.search(&search{q: ix.caseQuery(d, ix.rel, nil), prof: ix.rel, k: 10, minScore: minScore,
				dated: ix.datedFrom(ix.relPrior, d), accept: keep})
			if want := bruteProfile(ix, ix.rel, ix.relPrior, d, 10, minScore, keep); scored(got) != scored(want) {
				t.Fatalf("filtered and dated, %s: pruned %v, brute force %v", ix.Case(d).ID, scored(got), scored(want))
			}
		}
	}
	// Pastes too: the first pass of match against a brute-force scan, both
	// in one piece and split over ranges of cases as on a large library.
	r := rand.New(rand.NewPCG(3, 3))
	for i := range 100 {
		ix.opts.parallelMin = 20000
		if i%2 == 1 {
			ix.opts.parallelMin = 100
		}
		text := ix.Case(r.IntN(ix.Len())).Summary.EN
		p := ix.analyzePaste(text)
		got := ix.search(&search{q: p.q, k: 10})
		if want := bruteMatch(ix, p, 10); fmt.Sprint(ids(got)) != fmt.Sprint(ids(want)) {
			t.Fatalf("paste: pruned %v, brute force %v", hitIDs(got), hitIDs(want))
		}
	}
}

// scored lists hits as "id score" with the score to 4 decimals: what a user
// compares.
func scored(h []Hit) string {
	var b strings.Builder
	for _, x := range h {
		fmt.Fprintf(&b, "%s %.4f; ", x.ID, x.Score)
	}
	return b.String()
}

func ids(h []Hit) []string {
	var s []string
	for _, x := range h {
		s = append(s, x.ID)
	}
	return s
}

// indexOfFile loads the library file at path (leniently) and indexes it with
// the defaults.
func indexOfFile(t testing.TB, path string) *Index {
	t.Helper()
	lib, err := caselib.Load([]string{path}, caselib.LoadOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := BuildCases(lib.Cases, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// At scale, relate must still equal a brute-force scan. The 100,000-case
// corpus is made with ../shared/bench/scale_corpus.py and named by
// CASELINK_CORPUS_100K (any large library works); the test skips without it.
func TestRelateExactAtScale(t *testing.T) {
	t.Parallel()
	path := os.Getenv("CASELINK_CORPUS_100K")
	if path == "" {
		t.Skip("set CASELINK_CORPUS_100K to a large library to run")
	}
	ix := indexOfFile(t, path)
	step := max(1, ix.Len()/40)
	for d := 0; d < ix.Len(); d += step {
		got := ix.Related(d, 10, 0)
		want := bruteRelated(ix, d, 10, 0)
		if fmt.Sprint(ids(got)) != fmt.Sprint(ids(want)) {
			t.Errorf("case %s: relate %v, brute force %v", ix.Case(d).ID, hitIDs(got), hitIDs(want))
		}
	}
	// The first pass of match, split over the cores, against a brute force.
	r := rand.New(rand.NewPCG(9, 9))
	for range 40 {
		p := ix.analyzePaste(ix.Case(r.IntN(ix.Len())).Summary.EN)
		got := ix.search(&search{q: p.q, k: 10})
		if want := bruteMatch(ix, p, 10); fmt.Sprint(ids(got)) != fmt.Sprint(ids(want)) {
			t.Errorf("paste: search %v, brute force %v", hitIDs(got), hitIDs(want))
		}
	}
}

// The second stage searches the best hit's neighbours only above the
// similarity they would need to reach the top k: the answer must be the
// same as when it searches them all. Also when most cases are one
// organisation's, whose cap (capOrgs) lifts cases from below the k-th score
// into the top.
func TestNeighbourBarChangesNothing(t *testing.T) {
	t.Parallel()
	cases := synthLibrary(800, 5)
	for i, c := range cases {
		c.Org = []string{"acme", "acme", "acme", "acme", "acme", "acme", "globex", ""}[i%8]
	}
	ix, err := BuildCases(cases, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(4, 4))
	for i := range 300 {
		c := ix.Case(r.IntN(ix.Len()))
		text := c.Title.EN + " " + strings.Join(c.Domain, " ") + " " + strings.Join(c.Symptoms, " ")
		k := []int{1, 3, 5, 10}[i%4]
		ix.opts.noNeighbourBar = false
		with := ix.Match(Query{Text: text, K: k})
		ix.opts.noNeighbourBar = true
		without := ix.Match(Query{Text: text, K: k})
		if fmt.Sprint(with.Hits) != fmt.Sprint(without.Hits) {
			t.Fatalf("k=%d %q:\nwith the bar    %v\nwithout the bar %v", k, text, with.Hits, without.Hits)
		}
	}
}

// The block-max traversal of pastes must give a brute-force scan's answer
// whatever the window size (many windows, and blocks that cross them), with
// a filter and a score floor, in one piece and split over ranges of cases;
// and whole matches must come out the same, ids and scores, as by the
// term-at-a-time traversal.
func TestBlockMaxIsExact(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(synthLibrary(1500, 11), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 5))
	for _, ws := range []int{64, 320, 1024, defaultWindow} {
		for i := range 60 {
			ix.opts = searchOptions{windowSize: ws, parallelMin: []int{20000, 100}[i%2]}
			c := ix.Case(r.IntN(ix.Len()))
			text := c.Title.EN
			if i%3 == 0 {
				text += " " + c.Summary.EN
			}
			p := ix.analyzePaste(text)
			k := []int{1, 5, 17}[i%3]
			minScore := []float64{0, 0, 0.05}[i%3]
			odd := func(d int) bool { return d%2 == 1 }
			accept := []func(int) bool{nil, odd}[i/2%2]
			ix.opts.blocks = func(s *search) bool { return s.prof == nil }
			got := ix.search(&search{q: p.q, k: k, minScore: minScore, accept: accept})
			want := brutePaste(ix, p, k, minScore, accept)
			if fmt.Sprint(hitIDs(got)) != fmt.Sprint(hitIDs(want)) {
				t.Fatalf("window %d, paste %d: block-max %v, brute force %v", ws, i, hitIDs(got), hitIDs(want))
			}
			with := ix.Match(Query{Text: text, K: 10})
			ix.opts.blocks = func(*search) bool { return false }
			without := ix.Match(Query{Text: text, K: 10})
			if fmt.Sprint(with.Hits) != fmt.Sprint(without.Hits) {
				t.Fatalf("window %d, paste %d:\nblock-max  %v\nterm-at-a-time %v", ws, i, with.Hits, without.Hits)
			}
		}
	}
}
