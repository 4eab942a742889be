package eval

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/caselink/caselink/eval/sharedtest"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// sameEventSet is a judged list of library records that describe the same
// event as a judged case (library-duplicates.tsv), and its noisy library.
type sameEventSet struct {
	name, list string
	cases      []string
}

func sameEventSets() []sameEventSet {
	d := sharedData
	lib := func(set string) []string {
		return []string{d(set) + "/cases", "../seeds", d("incidents/cases.jsonl")}
	}
	return []sameEventSet{
		{"incidents-judged", d("incidents-judged/library-duplicates.tsv"), lib("incidents-judged")},
		{"incidents-judged-2", d("incidents-judged-2/library-duplicates.tsv"), lib("incidents-judged-2")},
	}
}

// readSameEvent reads a library-duplicates.tsv: a header, then
// dv_id<TAB>library_id<TAB>relation<TAB>note.
func readSameEvent(t *testing.T, path string) [][2]string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]string
	for n, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			t.Fatalf("%s:%d: want dv_id<TAB>library_id<TAB>relation", path, n+2)
		}
		pairs = append(pairs, [2]string{min(f[0], f[1]), max(f[0], f[1])})
	}
	return pairs
}

// TestSameEventInTopDupes lists every pair of the noisy libraries by the
// dupes score and checks that at least 70% of the judged same-event pairs
// are among the first 500 (the target of issue 16; none were before the
// same-event evidence), and that the near-identical pairs the text alone
// put first are still listed, but for repeats (one organisation's records
// of different days). -v prints each pair's rank.
func TestSameEventInTopDupes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two 6,900-case libraries")
	}
	for _, s := range sameEventSets() {
		t.Run(s.name, func(t *testing.T) { checkSameEventInTopDupes(t, s) })
	}
}

// checkSameEventInTopDupes is TestSameEventInTopDupes on one set; it skips
// (or, with shared data required, fails) when the set's data is absent.
func checkSameEventInTopDupes(t *testing.T, s sameEventSet) {
	sharedtest.Need(t, append([]string{s.list}, s.cases...)...)
	want := readSameEvent(t, s.list)
	lib, err := caselib.Load(s.cases, caselib.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := similarity.DefaultConfig()
	ix, err := similarity.BuildCases(lib.Cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	pairs := ix.Duplicates(0.4, 10, nil)
	rank := map[[2]string]int{}
	// textTop counts the listed pairs whose text part alone scores what
	// the 500th pair did before the same-event evidence, leaving out
	// repeats: one organisation's records of different days, whose text
	// part dupes halves (the same template another day).
	textTop, repeats := 0, 0
	for i, p := range pairs {
		a, b := ix.Case(p.A), ix.Case(p.B)
		rank[[2]string{a.ID, b.ID}] = i + 1
		if p.Similarity*datePrior(cfg, a.Date, b.Date) >= 0.755 {
			if a.Org != "" && a.Org == b.Org && len(a.Date) >= 10 && len(b.Date) >= 10 && a.Date[:10] != b.Date[:10] {
				repeats++
			} else {
				textTop++
			}
		}
	}
	in := 0
	for _, p := range want {
		r := rank[p]
		if r > 0 && r <= 500 {
			in++
		}
		t.Logf("%s %-40s rank %d", p[0], p[1], r)
	}
	share := float64(in) / float64(len(want))
	t.Logf("%s: %d of %d same-event pairs (%.0f%%) in the top 500 of %d pairs; %d pairs by text alone above 0.755 (and %d repeats)",
		s.name, in, len(want), 100*share, len(pairs), textTop, repeats)
	if share < 0.85 {
		t.Errorf("%s: %.0f%% of the same-event pairs in the top 500, want at least 85%% (issue 31's target)", s.name, 100*share)
	}
	// Before the repeat rule ~500 such pairs were listed; about 400 of them
	// were one organisation's template on other days (issue 23). 99 and 98
	// measured after it.
	if textTop < 95 {
		t.Errorf("%s: only %d near-identical pairs (not repeats) still listed, want the ~100 the text alone puts first", s.name, textTop)
	}
}

// datePrior is the date factor of the dupes score's text part, as
// similarity.Config.DupeDate documents it (1 when a date is missing).
func datePrior(cfg similarity.Config, a, b string) float64 {
	da, okA := caselib.DayNumber(a)
	db, okB := caselib.DayNumber(b)
	if !okA || !okB {
		return 1
	}
	days := math.Abs(float64(da - db))
	return 1 - cfg.DupeDate + cfg.DupeDate*math.Exp(-days/cfg.DupeDays)
}
