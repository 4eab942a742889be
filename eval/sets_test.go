package eval

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/caselink/caselink/internal/sharedtest"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/tokenize"
)

// judgedSet is one judged set of the "How good is it" table.
type judgedSet struct {
	name    string
	cases   []string // library paths, relative to this directory
	queries string
	related string
	k       int
}

func judgedSets() []judgedSet {
	d := sharedData
	return []judgedSet{
		{name: "seeds", queries: "testdata/seeds/queries.jsonl", related: "testdata/seeds/related.tsv", k: 10},
		// The seeds' pastes again, with the real incidents as distractors.
		{name: "seeds-noisy", cases: []string{"../seeds", d("incidents/cases.jsonl")},
			queries: "testdata/seeds/queries.jsonl", k: 10},
		{name: "semeval-dev", cases: []string{d("bench/semeval2016-b/cases.jsonl")},
			queries: d("bench/semeval2016-b/queries-dev.jsonl"), k: 10},
		{name: "semeval-train2", cases: []string{d("bench/semeval2016-b/cases.jsonl")},
			queries: d("bench/semeval2016-b/queries-train2.jsonl"), k: 10},
		{name: "gitbugs-train", cases: []string{d("bench/gitbugs-hadoop/cases.jsonl")},
			related: d("bench/gitbugs-hadoop/dupes-train.tsv"), k: 20},
		{name: "incidents-noisy", cases: []string{d("incidents-judged/cases"), "../seeds", d("incidents/cases.jsonl")},
			queries: d("incidents-judged/noisy-queries.jsonl"), related: d("incidents-judged/noisy-related.tsv"), k: 10},
		// The check set: 48 more judged incidents and their pastes in the same
		// noisy library. Never used for choosing a default, only to check one.
		{name: "incidents2-noisy", cases: []string{d("incidents-judged-2/cases"), "../seeds", d("incidents/cases.jsonl")},
			queries: d("incidents-judged-2/noisy-queries.jsonl"), related: d("incidents-judged-2/noisy-related.tsv"), k: 10},
	}
}

// load reads a set's library and judgments; ok is false when its files are
// absent (the public sets live outside the repository). In CI, where they
// must be present, absence fails t (see package sharedtest).
func (s judgedSet) load(t testing.TB) (cases []*caselib.Case, qs []Query, rel Judgments, ok bool) {
	t.Helper()
	paths := slices.DeleteFunc(append(slices.Clone(s.cases), s.queries, s.related), func(p string) bool { return p == "" })
	if !sharedtest.Present(t, paths...) {
		return nil, nil, nil, false
	}
	var lib *caselib.Library
	var err error
	if len(s.cases) == 0 {
		lib, err = caselib.LoadSeeds()
	} else {
		lib, err = caselib.Load(s.cases, caselib.LoadOptions{})
	}
	if err != nil {
		t.Fatal(err)
	}
	if s.queries != "" {
		if qs, err = ReadQueries(s.queries); err != nil {
			t.Fatal(err)
		}
	}
	if s.related != "" {
		if rel, err = ReadPairs(s.related); err != nil {
			t.Fatal(err)
		}
	}
	return lib.Cases, qs, rel, true
}

// TestQualityFloors runs the default engine on every judged set present and
// fails when a score drops below the level the README reports (a regression
// guard, a little under the measured figure). With -v it prints the table
// and every set's measures with their intervals.
func TestQualityFloors(t *testing.T) {
	type floor struct {
		what  string
		get   func(r Row) float64
		floor float64
	}
	floors := map[string][]floor{
		"seeds": {
			{"match p1best", func(r Row) float64 { return r.Match.P1Best }, 0.9},
			{"match nDCG@10", func(r Row) float64 { return r.Match.NDCG }, 0.93},
		},
		"semeval-dev": {{"match MAP", func(r Row) float64 { return r.Match.MAP }, 0.72}},
		"gitbugs-train": {
			{"relate MRR", func(r Row) float64 { return r.Relate.MRR }, 0.55},
			{"dupes MRR", func(r Row) float64 { return r.Dupes.MRR }, 0.64},
		},
		"incidents-noisy": {{"match nDCG@10", func(r Row) float64 { return r.Match.NDCG }, 0.75}},
	}
	var rows []Row
	for _, s := range judgedSets() {
		cases, qs, rel, ok := s.load(t)
		if !ok {
			t.Logf("%s: data absent, skipped", s.name)
			continue
		}
		ix, err := similarity.BuildCases(cases, similarity.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckSet(ix, qs, rel); err != nil {
			t.Errorf("%s: %v", s.name, err)
		}
		row, _ := Run(ix, qs, rel, s.k)
		row.Name, row.ByKind = s.name, nil
		rows = append(rows, row)
		for _, f := range floors[s.name] {
			if got := f.get(row); got < f.floor {
				t.Errorf("%s: %s = %.4f, below the floor %.4f", s.name, f.what, got, f.floor)
			}
		}
	}
	var b strings.Builder
	WriteTable(&b, rows)
	// Every set's measures with their 95% intervals, short pastes and the
	// other query kinds apart.
	for _, r := range rows {
		fmt.Fprintf(&b, "\n%s\n", r.Name)
		WriteIntervals(&b, Intervals(r, DefaultBootstrap()), DefaultBootstrap())
	}
	t.Log("\n" + b.String())
}

// TestGridAllSets runs the ablation grid on every judged set present and
// prints one line per variant with its score on each set, ranked by the mean
// objective. It is how the defaults were chosen; it takes a minute, so it
// runs only when CASELINK_GRID=1.
func TestGridAllSets(t *testing.T) {
	if os.Getenv("CASELINK_GRID") == "" {
		t.Skip("set CASELINK_GRID=1 to run the grid over all judged sets")
	}
	variants := Grid()
	type line struct {
		name  string
		cells []string
		mean  float64
	}
	lines := make([]line, len(variants))
	for i, v := range variants {
		lines[i].name = v.Name
	}
	var heads []string
	nsets := 0
	for _, s := range judgedSets() {
		cases, qs, rel, ok := s.load(t)
		if !ok {
			continue
		}
		nsets++
		heads = append(heads, s.name)
		for i, v := range variants {
			ix, err := similarity.BuildCases(cases, v.Config)
			if err != nil {
				t.Fatal(err)
			}
			row, _ := Run(ix, qs, rel, s.k)
			cell := ""
			if row.Match != nil {
				cell += fmt.Sprintf("m%.4f/%.2f ", row.Match.NDCG, row.Match.P1Best)
				if strings.HasPrefix(s.name, "semeval") {
					cell = fmt.Sprintf("map%.4f ", row.Match.MAP)
				}
			}
			if row.Relate != nil {
				cell += fmt.Sprintf("r%.4f/mrr%.4f d%.4f/mrr%.4f", row.Relate.NDCG, row.Relate.MRR, row.Dupes.NDCG, row.Dupes.MRR)
			}
			lines[i].cells = append(lines[i].cells, cell)
			lines[i].mean += Objective(row)
		}
	}
	slices.SortStableFunc(lines, func(a, b line) int { return cmp.Compare(b.mean, a.mean) })
	var b strings.Builder
	fmt.Fprintf(&b, "%-28s %-7s %s\n", "variant", "mean", strings.Join(heads, " | "))
	for _, l := range lines {
		fmt.Fprintf(&b, "%-28s %.4f  %s\n", l.name, l.mean/float64(max(nsets, 1)), strings.Join(l.cells, " | "))
	}
	t.Log("\n" + b.String())
}

// TestSynonymGroups measures every group of the synonym table on its own:
// the table's default against the table without that group, on every judged
// set present. A group earns its place when removing it costs more than it
// gains. It takes a few minutes, so it runs only when CASELINK_SYNONYMS=1.
func TestSynonymGroups(t *testing.T) {
	if os.Getenv("CASELINK_SYNONYMS") == "" {
		t.Skip("set CASELINK_SYNONYMS=1 to measure each synonym group")
	}
	type set struct {
		judgedSet
		cases []*caselib.Case
		qs    []Query
		rel   Judgments
	}
	var sets []set
	for _, s := range judgedSets() {
		if cases, qs, rel, ok := s.load(t); ok {
			sets = append(sets, set{s, cases, qs, rel})
		}
	}
	score := func(cfg similarity.Config) []float64 {
		var out []float64
		for _, s := range sets {
			ix, err := similarity.BuildCases(s.cases, cfg)
			if err != nil {
				t.Fatal(err)
			}
			row, _ := Run(ix, s.qs, s.rel, s.k)
			out = append(out, Objective(row))
		}
		return out
	}
	base := score(similarity.DefaultConfig())
	var b strings.Builder
	fmt.Fprintf(&b, "change in each set's objective (match/relate nDCG) when a group is removed; sets:")
	for _, s := range sets {
		fmt.Fprintf(&b, " %s", s.name)
	}
	fmt.Fprintln(&b)
	for i, g := range tokenize.SynonymGroups() {
		cfg := similarity.DefaultConfig()
		cfg.Analyzer.SynonymsOff = 1 << i
		got := score(cfg)
		var sum float64
		fmt.Fprintf(&b, "%2d %-40.40s", i, strings.Join(g, ","))
		for j := range got {
			d := got[j] - base[j]
			sum += d
			fmt.Fprintf(&b, " %+.4f", d)
		}
		fmt.Fprintf(&b, "  sum %+.4f\n", sum)
	}
	t.Log("\n" + b.String())
}
