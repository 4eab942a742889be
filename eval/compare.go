package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"
)

// ScoreEach scores the ranking of every query on its own (Score at cutoff
// k): query id → its metrics. A query missing from rankings scores 0, as in
// ScoreQueries, whose averages are the means of these.
func ScoreEach(qs []Query, rankings map[string][]string, k int) map[string]Metrics {
	out := make(map[string]Metrics, len(qs))
	for _, q := range qs {
		out[q.ID] = Score(rankings[q.ID], q.Relevant, k)
	}
	return out
}

// ScoreEachRelate scores the neighbour list of every judged subject on its
// own: subject id → its metrics, for the subjects present in both j and
// rankings (those ScoreRelate averages).
func ScoreEachRelate(j Judgments, rankings map[string][]string, k int) map[string]Metrics {
	out := make(map[string]Metrics, len(j))
	for id, rel := range j {
		if ranked, ok := rankings[id]; ok {
			out[id] = Score(ranked, rel, k)
		}
	}
	return out
}

// queryKinds maps the id of every query that has a Kind to it; nil when none
// has.
func queryKinds(qs []Query) map[string]string {
	var out map[string]string
	for _, q := range qs {
		if q.Kind != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[q.ID] = q.Kind
		}
	}
	return out
}

// measure is one per-list measure the comparisons and interval tables show.
type measure struct {
	name string
	get  func(Metrics) float64
}

var (
	ndcg   = measure{"ndcg", func(m Metrics) float64 { return m.NDCG }}
	mrr    = measure{"mrr", func(m Metrics) float64 { return m.MRR }}
	p1best = measure{"p1best", func(m Metrics) float64 { return m.P1Best }}
	mapm   = measure{"map", func(m Metrics) float64 { return m.MAP }}
)

// lists is one group of per-list scores of a row: match (or one kind of
// match query), relate or dupes, with the measures reported for it.
type lists struct {
	name     string
	per      map[string]Metrics
	measures []measure
}

// perLists returns the per-list scores of r by task: match, then match per
// query kind (kinds sorted; left out when one kind covers every query),
// relate, dupes; groups r lacks are left out.
func perLists(r Row) []lists {
	var out []lists
	if len(r.PerQuery) > 0 {
		matchMeasures := []measure{ndcg, p1best, mrr, mapm}
		out = append(out, lists{"match", r.PerQuery, matchMeasures})
		byKind := map[string]map[string]Metrics{}
		for id, kind := range r.QueryKind {
			if m, ok := r.PerQuery[id]; ok {
				if byKind[kind] == nil {
					byKind[kind] = map[string]Metrics{}
				}
				byKind[kind][id] = m
			}
		}
		for _, kind := range slices.Sorted(maps.Keys(byKind)) {
			if len(byKind[kind]) < len(r.PerQuery) {
				out = append(out, lists{"match " + kind, byKind[kind], matchMeasures})
			}
		}
	}
	if len(r.PerSubject) > 0 {
		out = append(out, lists{"relate", r.PerSubject, []measure{ndcg, mrr}})
	}
	if len(r.DupesPerSubject) > 0 {
		out = append(out, lists{"dupes", r.DupesPerSubject, []measure{ndcg, mrr}})
	}
	return out
}

// Estimate is one measure of one run with its bootstrap interval over the
// run's lists (queries or subjects).
type Estimate struct {
	// Measure names the task (with the query kind, if any) and the
	// measure, e.g. "match ndcg", "match short ndcg", "relate mrr".
	Measure string `json:"measure"`
	// Interval is the mean of the measure over the lists, with its
	// interval.
	Interval
}

// Intervals returns, for each task of r that has per-list scores, the mean
// of its measures (match: nDCG, P@1 of the best case, MRR, MAP, also per
// query kind; relate and dupes: nDCG, MRR) with a bootstrap interval.
func Intervals(r Row, b Bootstrap) []Estimate {
	var out []Estimate
	for _, l := range perLists(r) {
		ids := slices.Sorted(maps.Keys(l.per))
		for _, ms := range l.measures {
			xs := make([]float64, len(ids))
			for i, id := range ids {
				xs[i] = ms.get(l.per[id])
			}
			out = append(out, Estimate{l.name + " " + ms.name, b.Mean(xs, nil)})
		}
	}
	return out
}

// Comparison is one measure of two runs over the lists both have: the two
// means and the paired bootstrap interval of the difference B − A.
type Comparison struct {
	// Measure names the task and measure as in Estimate.
	Measure string `json:"measure"`
	// A and B are the means of the two runs over the shared lists.
	A float64 `json:"a"`
	B float64 `json:"b"`
	// Delta is B − A with its interval; Delta.N is the number of shared
	// lists.
	Delta Interval `json:"delta"`
}

// Compare pairs the per-list scores of runs a and b (the queries and
// subjects both have) and returns, for each task both have, each measure's
// means and the paired bootstrap interval of b − a. Tasks without per-list
// scores in either row (JSON written before they existed) are left out.
func Compare(a, b Row, bs Bootstrap) []Comparison {
	var out []Comparison
	lb := map[string]lists{}
	for _, l := range perLists(b) {
		lb[l.name] = l
	}
	for _, la := range perLists(a) {
		other, ok := lb[la.name]
		if !ok {
			continue
		}
		var ids []string
		for _, id := range slices.Sorted(maps.Keys(la.per)) {
			if _, ok := other.per[id]; ok {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		for _, ms := range la.measures {
			xa, xb := make([]float64, len(ids)), make([]float64, len(ids))
			for i, id := range ids {
				xa[i], xb[i] = ms.get(la.per[id]), ms.get(other.per[id])
			}
			d := bs.Paired(xa, xb, nil)
			out = append(out, Comparison{la.name + " " + ms.name, stat.Mean(xa, nil), stat.Mean(xb, nil), d})
		}
	}
	return out
}

// f4 formats x with four decimals; signed adds a + to non-negative values.
func f4(x float64, signed bool) string {
	s := strconv.FormatFloat(x, 'f', 4, 64)
	if signed && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// WriteComparison writes comparisons as an aligned table: measure, number
// of shared lists, mean of A, mean of B, B − A and its interval.
func WriteComparison(w io.Writer, nameA, nameB string, cs []Comparison, b Bootstrap) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "measure\tn\t%s\t%s\tdelta\t%.0f%% interval\n", nameA, nameB, b.Level*100)
	for _, c := range cs {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t[%s, %s]\n", c.Measure, c.Delta.N, f4(c.A, false), f4(c.B, false),
			f4(c.Delta.Mean, true), f4(c.Delta.Lo, true), f4(c.Delta.Hi, true))
	}
	return tw.Flush()
}

// WriteIntervals writes estimates as an aligned table: measure, number of
// lists, mean and interval.
func WriteIntervals(w io.Writer, es []Estimate, b Bootstrap) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "measure\tn\tmean\t%.0f%% interval\n", b.Level*100)
	for _, e := range es {
		fmt.Fprintf(tw, "%s\t%d\t%s\t[%s, %s]\n", e.Measure, e.N, f4(e.Mean, false), f4(e.Lo, false), f4(e.Hi, false))
	}
	return tw.Flush()
}

// ReadRows reads runs written by WriteJSON (caselink eval --json). Errors
// name the file.
func ReadRows(path string) ([]Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []Row
	dec := json.NewDecoder(bufio.NewReader(f))
	if err := dec.Decode(&rows); err != nil {
		return nil, fmt.Errorf("%s: not the JSON of caselink eval --json: %v", path, err)
	}
	for i, r := range rows {
		if r.PerQuery == nil && r.PerSubject == nil && r.DupesPerSubject == nil {
			return nil, fmt.Errorf("%s: run %d (%q) has no per-query scores (match_per_query, relate_per_subject); write it again with this version of caselink eval --json", path, i+1, r.Name)
		}
	}
	return rows, nil
}
