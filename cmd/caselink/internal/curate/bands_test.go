package curate_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/eval"
	"github.com/caselink/caselink/eval/sharedtest"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// calSet is a judged set the confidence bands are calibrated on: pastes
// (queries) or related pairs (rel), in a library.
type calSet struct {
	name    string
	lib     []string
	queries string
	rel     string
	check   bool // the check set: confirms the bands, never sets them
}

func calSets() []calSet {
	d := sharedtest.Path
	real := []string{d("data/incidents/cases.jsonl"), "../../../../seeds"}
	noisy := func(set string) []string {
		return []string{d("data/" + set + "/cases"), "../../../../seeds", d("data/incidents/cases.jsonl")}
	}
	return []calSet{
		{name: "real-pastes", lib: real, queries: d("data/real-pastes/queries.jsonl")},
		{name: "incidents-noisy", lib: noisy("incidents-judged"), queries: d("data/incidents-judged/noisy-queries.jsonl"),
			rel: d("data/incidents-judged/noisy-related.tsv")},
		{name: "incidents2-noisy", lib: noisy("incidents-judged-2"), queries: d("data/incidents-judged-2/noisy-queries.jsonl"),
			rel: d("data/incidents-judged-2/noisy-related.tsv"), check: true},
	}
}

// calLoaded is a calibration set read and indexed, with its graded hits.
type calLoaded struct {
	calSet
	qs            []eval.Query
	match, absent []eval.GradedHit // the pastes' hits, in the library and with their relevant cases removed
	like          []eval.GradedHit // the related subjects' hits (relate, match --like)
}

// calK is how deep each list is graded: --top at its largest on the page.
const calK = 10

var loadCal = sync.OnceValues(func() ([]calLoaded, error) {
	var out []calLoaded
	built := map[string]*similarity.Index{}
	for _, s := range calSets() {
		key := strings.Join(s.lib, " ")
		ix := built[key]
		if ix == nil {
			lib, err := caselib.Load(s.lib, caselib.LoadOptions{})
			if err != nil {
				return nil, err
			}
			if ix, err = similarity.BuildCases(lib.Cases, similarity.DefaultConfig()); err != nil {
				return nil, err
			}
			built[key] = ix
		}
		l := calLoaded{calSet: s}
		if s.queries != "" {
			qs, err := eval.ReadQueries(s.queries)
			if err != nil {
				return nil, err
			}
			l.qs = qs
			l.match = eval.MatchHits(ix, qs, calK, nil)
			l.absent = eval.MatchHits(ix, qs, calK, eval.Without(qs))
		}
		if s.rel != "" {
			rel, err := eval.ReadPairs(s.rel)
			if err != nil {
				return nil, err
			}
			l.like = eval.RelatedHits(ix, rel, calK)
		}
		out = append(out, l)
	}
	return out, nil
})

// TestBandsCalibrated checks the confidence bands against the judged sets,
// and with -v prints the calibration that sets them (eval/README.md,
// "Confidence bands"): the precision of the hits by score band, the
// thresholds it proposes, and how often "nothing like this here" is said
// for pastes whose incidents the library holds and for the same pastes with
// those incidents removed. Re-run it after changing the scoring:
//
//	go test ./cmd/caselink/internal/curate -run BandsCalibrated -v -count=1
//
// Skips when ../shared is absent (fails with CASELINK_REQUIRE_SHARED=1).
func TestBandsCalibrated(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the 6,900-case library twice: run without -short")
	}
	for _, s := range calSets() {
		sharedtest.Need(t, append(s.lib[:len(s.lib):len(s.lib)], s.queries)...)
	}
	sets, err := loadCal()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var match, absent, like []eval.GradedHit
	var qs []eval.Query
	for _, s := range sets {
		if s.check {
			continue
		}
		match, absent, like = append(match, s.match...), append(absent, s.absent...), append(like, s.like...)
		qs = append(qs, s.qs...)
	}
	report := func(name string, hits []eval.GradedHit, th curate.Thresholds) {
		fmt.Fprintf(&b, "\n%s: %d hits\n", name, len(hits))
		eval.WriteBands(&b, eval.Bands(hits, 8))
		for _, band := range []struct {
			name string
			lo   float64
		}{{curate.Strong, th.Strong}, {curate.Possible, th.Possible}, {curate.Weak, 0}} {
			p := inBand(hits, th, band.name)
			fmt.Fprintf(&b, "  %-8s (%.2f–) %4d hits, right %.2f (grade 2: %.2f)\n", band.name, band.lo, p.N, p.P1(), p.P2())
		}
		fmt.Fprintf(&b, "  proposed: strong from %.2f (right ≥ 90%%), possible from %.2f (right ≥ 50%%)\n",
			eval.Threshold(hits, 0.9, 10), eval.Threshold(hits, 0.5, 10))
	}
	report("match, judged pastes", match, curate.MatchBands)
	report("relate and match --like, judged subjects", like, curate.CaseBands)
	// What a user checks: a hit called strong is right at least 9 times in
	// 10, on the development sets together and for match on the check set.
	strongRight := func(name string, hits []eval.GradedHit, th curate.Thresholds) {
		if p := inBand(hits, th, curate.Strong); p.N < 20 || p.P1() < 0.9 {
			t.Errorf("%s: %d strong hits, right %.2f: want at least 20, right ≥ 0.90", name, p.N, p.P1())
		}
	}
	strongRight("match", match, curate.MatchBands)
	strongRight("relate", like, curate.CaseBands)
	for _, s := range sets {
		report("match, "+s.name, s.match, curate.MatchBands)
		if len(s.like) > 0 {
			report("relate, "+s.name, s.like, curate.CaseBands)
		}
	}
	reaches := func(s float64) bool { return !curate.Novel(s) }
	atLeast := func(p float64) func(float64) bool {
		return func(s float64) bool { return curate.Thresholds{Strong: 1, Possible: p}.Band(s) != curate.Weak }
	}
	fmt.Fprintf(&b, "\n\"nothing like this here\" (best hit under possible; hiding: of those in the library, with a right hit in the top 5)\n%-18s %14s %14s %8s\n", "set", "in library", "removed", "hiding")
	for _, s := range sets {
		_, inN, n := eval.Silent(s.match, s.qs, reaches)
		_, outN, _ := eval.Silent(s.absent, s.qs, reaches)
		heard, right := map[string]bool{}, map[string]bool{}
		for _, h := range s.match {
			heard[h.Query] = heard[h.Query] || reaches(h.Score)
			right[h.Query] = right[h.Query] || (h.Rank <= 5 && h.Grade >= 1)
		}
		hiding := 0
		for _, q := range s.qs {
			if !heard[q.ID] && right[q.ID] {
				hiding++
			}
		}
		fmt.Fprintf(&b, "%-18s %6d/%-3d %.2f %6d/%-3d %.2f %8d\n", s.name, inN, n, float64(inN)/float64(n), outN, n, float64(outN)/float64(n), hiding)
		if s.check {
			strongRight("match, "+s.name, s.match, curate.MatchBands)
		}
		// Said more often when the incident is absent than when it is
		// there, and seldom for the curated pastes of incidents present.
		if outN <= inN || (s.name != "real-pastes" && float64(inN) > 0.1*float64(n)) {
			t.Errorf("%s: \"nothing like this\" for %d of %d pastes in the library, %d with their incidents removed", s.name, inN, n, outN)
		}
	}
	fmt.Fprintf(&b, "\n\"nothing like this\" by the possible threshold (each set: share in library / removed)\n")
	for i := 2; i <= 8; i++ {
		p := float64(i) / 100
		fmt.Fprintf(&b, "  %.2f", p)
		for _, s := range sets {
			in, _, _ := eval.Silent(s.match, s.qs, atLeast(p))
			out, _, _ := eval.Silent(s.absent, s.qs, atLeast(p))
			fmt.Fprintf(&b, "  %s %.2f / %.2f", s.name, in, out)
		}
		fmt.Fprintln(&b)
	}
	t.Log(b.String())
}

// inBand is the precision of the hits th puts in band (as the front ends
// band them, on the score shown).
func inBand(hits []eval.GradedHit, th curate.Thresholds, band string) eval.ScoreBand {
	var in []eval.GradedHit
	for _, h := range hits {
		if th.Band(h.Score) == band {
			in = append(in, h)
		}
	}
	return eval.Precision(in, 0, 2)
}
