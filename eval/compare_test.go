package eval

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The per-query scores average to what ScoreQueries and ScoreRelate report.
func TestScoreEachAveragesToScoreQueries(t *testing.T) {
	qs := []Query{
		{ID: "q1", Relevant: map[string]int{"A": 2, "B": 1}, Kind: "short"},
		{ID: "q2", Relevant: map[string]int{"C": 2}},
		{ID: "q3", Relevant: map[string]int{"A": 1}}, // no ranking: scores 0
	}
	rk := map[string][]string{"q1": {"B", "A", "X"}, "q2": {"X", "C"}}
	each := ScoreEach(qs, rk, 10)
	overall, _ := ScoreQueries(qs, rk, 10)
	var rows []Metrics
	for _, q := range qs {
		rows = append(rows, each[q.ID])
	}
	if got := Mean(rows); got != overall {
		t.Errorf("mean of ScoreEach %v, ScoreQueries %v", got, overall)
	}
	if each["q3"] != (Metrics{N: 1}) {
		t.Errorf("unranked query: %v", each["q3"])
	}

	j := Judgments{}
	j.Add("A", "B", 2, false)
	j.Add("A", "C", 1, true)
	rel := map[string][]string{"A": {"C", "B"}, "B": {"X"}}
	per := ScoreEachRelate(j, rel, 10)
	if got, want := Mean([]Metrics{per["A"], per["B"]}), ScoreRelate(j, rel, 10); got != want || len(per) != 2 {
		t.Errorf("mean of ScoreEachRelate %v (%d subjects), ScoreRelate %v", got, len(per), want)
	}
}

func perRow(name string, match map[string]float64, kinds map[string]string, relate map[string]float64) Row {
	r := Row{Name: name, PerQuery: map[string]Metrics{}, QueryKind: kinds}
	for id, x := range match {
		r.PerQuery[id] = Metrics{NDCG: x, MRR: x, P1Best: math.Round(x), N: 1}
	}
	if relate != nil {
		r.PerSubject = map[string]Metrics{}
		for id, x := range relate {
			r.PerSubject[id] = Metrics{NDCG: x, MRR: 1, N: 1}
		}
	}
	return r
}

func TestCompare(t *testing.T) {
	kinds := map[string]string{"q1": "short", "q2": "short", "q3": "long"}
	a := perRow("A", map[string]float64{"q1": 0.5, "q2": 0.25, "q3": 1, "q4": 0.5}, kinds, map[string]float64{"X": 0.5})
	// B gains 0.25 on each shared query; q4 is missing from B and q5 from A.
	b := perRow("B", map[string]float64{"q1": 0.75, "q2": 0.5, "q3": 1.25, "q5": 0}, kinds, map[string]float64{"X": 0.75})
	cs := Compare(a, b, DefaultBootstrap())
	got := map[string]Comparison{}
	var order []string
	for _, c := range cs {
		got[c.Measure] = c
		order = append(order, c.Measure)
	}
	wantOrder := "match ndcg,match p1best,match mrr,match map,match long ndcg,match long p1best,match long mrr,match long map," +
		"match short ndcg,match short p1best,match short mrr,match short map,relate ndcg,relate mrr"
	if strings.Join(order, ",") != wantOrder {
		t.Errorf("measures %v, want %s", order, wantOrder)
	}
	m := got["match ndcg"]
	if m.Delta.N != 3 || m.A != 1.75/3 || m.B != 2.5/3 || m.Delta.Lo != 0.25 || m.Delta.Hi != 0.25 {
		t.Errorf("match ndcg: %+v, want 3 shared queries, gain [0.25, 0.25]", m)
	}
	if s := got["match short ndcg"]; s.Delta.N != 2 || s.A != 0.375 || s.B != 0.625 {
		t.Errorf("match short ndcg: %+v", s)
	}
	if r := got["relate mrr"]; r.Delta != (Interval{N: 1}) {
		t.Errorf("relate mrr: %+v, want no change", r)
	}

	var buf strings.Builder
	if err := WriteComparison(&buf, "A.json", "B.json", cs, DefaultBootstrap()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if strings.Join(strings.Fields(lines[0]), " ") != "measure n A.json B.json delta 95% interval" ||
		strings.Join(strings.Fields(lines[1]), " ") != "match ndcg 3 0.5833 0.8333 +0.2500 [+0.2500, +0.2500]" ||
		strings.Contains(buf.String(), " \n") {
		t.Errorf("WriteComparison:\n%s", buf.String())
	}
}

func TestIntervals(t *testing.T) {
	r := perRow("A", map[string]float64{"q1": 0.5, "q2": 0.5, "q3": 0.5}, map[string]string{"q1": "short"}, nil)
	es := Intervals(r, DefaultBootstrap())
	if len(es) != 8 || es[0].Measure != "match ndcg" || es[4].Measure != "match short ndcg" {
		t.Fatalf("Intervals: %+v", es)
	}
	if es[0].Interval != (Interval{Mean: 0.5, Lo: 0.5, Hi: 0.5, N: 3}) || es[4].N != 1 {
		t.Errorf("Intervals: %+v", es)
	}
	// A kind that every query has adds nothing and is left out.
	r.QueryKind = map[string]string{"q1": "rerank", "q2": "rerank", "q3": "rerank"}
	if es := Intervals(r, DefaultBootstrap()); len(es) != 4 {
		t.Errorf("one kind for all: %d estimates, want 4", len(es))
	}
}

// WriteJSON output reads back with ReadRows, per-query scores and all, and
// JSON without them is refused with a message that names the file.
func TestReadRows(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	r := perRow("caselink", map[string]float64{"q1": 1 / 3.0}, map[string]string{"q1": "short"}, map[string]float64{"X": 0.5})
	f, _ := os.Create(path)
	if err := WriteJSON(f, []Row{r}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rows, err := ReadRows(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].PerQuery["q1"].NDCG != 0.333333 || rows[0].QueryKind["q1"] != "short" ||
		rows[0].PerSubject["X"].NDCG != 0.5 {
		t.Errorf("read back %+v", rows)
	}

	os.WriteFile(path, []byte(`[{"name": "old", "match": {"ndcg": 0.5}}]`), 0o644)
	if _, err := ReadRows(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `"old"`) {
		t.Errorf("old JSON: err = %v", err)
	}
	os.WriteFile(path, []byte(`{"name": 1}`), 0o644)
	if _, err := ReadRows(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("not an array: err = %v", err)
	}
}
