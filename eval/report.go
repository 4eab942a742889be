package eval

import (
	"bufio"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Row is one line of a results table: a named run (an engine configuration,
// an anchor, …) and its averaged scores. Match and Relate are nil when the run
// did not do that task. The JSON form mirrors score.py's output object.
type Row struct {
	// Name labels the run.
	Name string `json:"name"`
	// Match is the average over judged queries (ScoreQueries).
	Match *Metrics `json:"match,omitempty"`
	// ByKind is the match average per query kind; may be nil.
	ByKind map[string]Metrics `json:"match_by_kind,omitempty"`
	// Relate is the average over judged subjects (ScoreRelate).
	Relate *Metrics `json:"relate,omitempty"`
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
// name, then the match measures and the relate measures (each group only when
// some row has it), four decimals, "-" where a row lacks a task. Each row's
// per-kind match averages follow it as indented lines, kinds in sorted order.
// The output depends only on rows.
func WriteTable(w io.Writer, rows []Row) error {
	hasMatch, hasRelate := false, false
	for _, r := range rows {
		hasMatch = hasMatch || r.Match != nil || len(r.ByKind) > 0
		hasRelate = hasRelate || r.Relate != nil
	}
	var groups []string
	head := []string{"name"}
	if hasMatch {
		groups = append(groups, "match")
		head = append(head, metricHeads...)
	}
	if hasRelate {
		groups = append(groups, "relate")
		head = append(head, metricHeads...)
	}
	lines := [][]string{head}
	for _, r := range rows {
		line := []string{r.Name}
		if hasMatch {
			line = append(line, metricCells(r.Match)...)
		}
		if hasRelate {
			line = append(line, metricCells(r.Relate)...)
		}
		lines = append(lines, line)
		for _, kind := range slices.Sorted(maps.Keys(r.ByKind)) {
			m := r.ByKind[kind]
			sub := append([]string{"  " + kind}, metricCells(&m)...)
			if hasRelate {
				sub = append(sub, make([]string, len(metricHeads))...)
			}
			lines = append(lines, sub)
		}
	}

	width := make([]int, len(head))
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
		for g, name := range groups {
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

// WriteJSON writes rows as an indented JSON array, with every measure rounded
// to four decimals as score.py prints them. Map keys come out sorted, so the
// output depends only on rows.
func WriteJSON(w io.Writer, rows []Row) error {
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = Row{Name: r.Name, Match: roundPtr(r.Match), Relate: roundPtr(r.Relate)}
		if r.ByKind != nil {
			out[i].ByKind = make(map[string]Metrics, len(r.ByKind))
			for k, m := range r.ByKind {
				out[i].ByKind[k] = m.Round(4)
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func roundPtr(m *Metrics) *Metrics {
	if m == nil {
		return nil
	}
	r := m.Round(4)
	return &r
}
