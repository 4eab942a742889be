package eval

import (
	"bufio"
	"encoding/json"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Row is one line of a results table: a named run (an engine configuration,
// an anchor, …) and its averaged scores. Match, Relate and Dupes are nil when
// the run did not do that task. The JSON form mirrors score.py's output
// object, with dupes added.
type Row struct {
	// Name labels the run.
	Name string `json:"name"`
	// Match is the average over judged queries (ScoreQueries).
	Match *Metrics `json:"match,omitempty"`
	// ByKind is the match average per query kind; may be nil.
	ByKind map[string]Metrics `json:"match_by_kind,omitempty"`
	// Relate is the average over judged subjects (ScoreRelate).
	Relate *Metrics `json:"relate,omitempty"`
	// Dupes is the average over the same subjects as Relate, each subject's
	// neighbours ranked by the dupes score instead (ScoreRelate).
	Dupes *Metrics `json:"dupes,omitempty"`
	// PerQuery holds each query's own match scores (ScoreEach), so that
	// two runs can be compared query by query; may be nil.
	PerQuery map[string]Metrics `json:"match_per_query,omitempty"`
	// QueryKind maps a query id to its Kind, for queries that have one.
	QueryKind map[string]string `json:"match_query_kind,omitempty"`
	// PerSubject holds each judged subject's own relate scores
	// (ScoreEachRelate); may be nil.
	PerSubject map[string]Metrics `json:"relate_per_subject,omitempty"`
	// DupesPerSubject holds each judged subject's own dupes scores; may be
	// nil.
	DupesPerSubject map[string]Metrics `json:"dupes_per_subject,omitempty"`
	// DupesPR is the precision and recall of dupes at thresholds 0.1 to
	// 0.9 (MeasureDupes); nil when not measured.
	DupesPR []PRPoint `json:"dupes_pr,omitempty"`
}

// metricHeads are the column heads of one task group, in Metrics field order.
var metricHeads = []string{"ndcg", "mrr", "p1", "p1best", "r5", "map", "n"}

func metricCells(m *Metrics) []string {
	if m == nil {
		return []string{"-", "-", "-", "-", "-", "-", "-"}
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	return []string{f(m.NDCG), f(m.MRR), f(m.P1), f(m.P1Best), f(m.R5), f(m.MAP), strconv.Itoa(m.N)}
}

// WriteTable writes rows as a plain-text table with aligned columns: the
// name, then the match, relate and dupes measures (each group only when some
// row has it), four decimals, "-" where a row lacks a task. Each row's
// per-kind match averages follow it as indented lines, kinds in sorted order.
// The output depends only on rows.
func WriteTable(w io.Writer, rows []Row) error {
	groups := tableGroups(rows)
	head := []string{"name"}
	for range groups {
		head = append(head, metricHeads...)
	}
	lines := [][]string{head}
	for _, r := range rows {
		line := []string{r.Name}
		for _, g := range groups {
			line = append(line, metricCells(g.get(r))...)
		}
		lines = append(lines, line)
		for _, kind := range slices.Sorted(maps.Keys(r.ByKind)) {
			m := r.ByKind[kind]
			sub := append([]string{"  " + kind}, metricCells(&m)...)
			sub = append(sub, make([]string, (len(groups)-1)*len(metricHeads))...)
			lines = append(lines, sub)
		}
	}
	return writeAligned(w, groups, lines)
}

// tableGroup is one task's columns of WriteTable.
type tableGroup struct {
	name string
	get  func(Row) *Metrics
}

// tableGroups returns the tasks some row has, in the order match, relate,
// dupes.
func tableGroups(rows []Row) []tableGroup {
	var groups []tableGroup
	for _, g := range []tableGroup{
		{"match", func(r Row) *Metrics { return r.Match }},
		{"relate", func(r Row) *Metrics { return r.Relate }},
		{"dupes", func(r Row) *Metrics { return r.Dupes }},
	} {
		for _, r := range rows {
			if g.get(r) != nil || (g.name == "match" && len(r.ByKind) > 0) {
				groups = append(groups, g)
				break
			}
		}
	}
	return groups
}

// writeAligned writes lines (the first is the head) with the first column
// left-aligned and the others right-aligned, under a line of group titles.
func writeAligned(w io.Writer, groups []tableGroup, lines [][]string) error {
	width := make([]int, len(lines[0]))
	for _, line := range lines {
		for i, c := range line {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	bw := bufio.NewWriter(w)
	var sb strings.Builder
	pad := func(n int) {
		for ; n > 0; n-- {
			sb.WriteByte(' ')
		}
	}
	flush := func() {
		bw.WriteString(strings.TrimRight(sb.String(), " "))
		bw.WriteByte('\n')
		sb.Reset()
	}
	if len(groups) > 0 {
		// Group titles sit above the first column of their group.
		pad(width[0])
		for g, gr := range groups {
			name := gr.name
			span := 0
			for i := range metricHeads {
				span += 2 + width[1+g*len(metricHeads)+i]
			}
			sb.WriteString("  " + name)
			pad(span - 2 - len(name))
		}
		flush()
	}
	for _, line := range lines {
		for i, c := range line {
			n := utf8.RuneCountInString(c)
			if i == 0 {
				sb.WriteString(c)
				pad(width[0] - n)
				continue
			}
			pad(2 + width[i] - n)
			sb.WriteString(c)
		}
		flush()
	}
	return bw.Flush()
}

// WriteJSON writes rows as an indented JSON array, with every average
// rounded to four decimals as score.py prints them, and the per-query and
// per-subject scores to six (so that means taken from them agree with the
// averages to four). Map keys come out sorted, so the output depends only on
// rows.
func WriteJSON(w io.Writer, rows []Row) error {
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = Row{Name: r.Name, Match: roundPtr(r.Match), Relate: roundPtr(r.Relate), Dupes: roundPtr(r.Dupes),
			ByKind: roundMap(r.ByKind, 4), PerQuery: roundMap(r.PerQuery, 6), QueryKind: r.QueryKind,
			PerSubject: roundMap(r.PerSubject, 6), DupesPerSubject: roundMap(r.DupesPerSubject, 6)}
		for _, p := range r.DupesPR {
			p.Precision, p.Recall = math.Round(p.Precision*1e4)/1e4, math.Round(p.Recall*1e4)/1e4
			out[i].DupesPR = append(out[i].DupesPR, p)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// roundMap returns a copy of ms with every measure rounded; nil stays nil.
func roundMap(ms map[string]Metrics, places int) map[string]Metrics {
	if ms == nil {
		return nil
	}
	out := make(map[string]Metrics, len(ms))
	for k, m := range ms {
		out[k] = m.Round(places)
	}
	return out
}

func roundPtr(m *Metrics) *Metrics {
	if m == nil {
		return nil
	}
	r := m.Round(4)
	return &r
}
