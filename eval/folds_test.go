package eval

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// cvMatrix returns a matrix of 5 groups ("g0" … "g4") of 10 items each:
// the default scores 0.1…0.55 varied by item, and each named variant adds
// gain(group, item) to it.
func cvMatrix(variants map[string]func(g, i int) float64) Matrix {
	m := Matrix{Variants: []string{"default"}}
	names := make([]string, 0, len(variants))
	for name := range variants {
		names = append(names, name)
	}
	slices.Sort(names)
	m.Variants = append(m.Variants, names...)
	m.Scores = make([][]float64, len(m.Variants))
	for g := range 5 {
		for i := range 10 {
			m.Items = append(m.Items, fmt.Sprintf("match:q%d-%d", g, i))
			m.Groups = append(m.Groups, fmt.Sprintf("g%d", g))
			base := 0.1 + 0.05*float64((g*3+i)%10)
			m.Scores[0] = append(m.Scores[0], base)
			for v, name := range names {
				m.Scores[v+1] = append(m.Scores[v+1], base+variants[name](g, i))
			}
		}
	}
	return m
}

func TestCrossValidateBetterEverywhere(t *testing.T) {
	m := cvMatrix(map[string]func(g, i int) float64{
		"better": func(g, i int) float64 { return 0.04 + 0.01*float64(i%3) },
		"worse":  func(g, i int) float64 { return -0.05 },
		"mixed":  func(g, i int) float64 { return 0.2 * float64(i%2*2-1) },
	})
	cv, err := CrossValidate(m, 5, DefaultBootstrap())
	if err != nil {
		t.Fatal(err)
	}
	if len(cv.Folds) != 5 {
		t.Fatalf("%d folds, want 5", len(cv.Folds))
	}
	for f, fd := range cv.Folds {
		if fd.Name != "better" {
			t.Errorf("fold %d chose %q, want \"better\"", f+1, fd.Name)
		}
		if fd.Items != 10 || len(fd.Groups) != 1 {
			t.Errorf("fold %d holds %d items of %v, want one group of 10", f+1, fd.Items, fd.Groups)
		}
	}
	want := stat.Mean(m.Scores[slices.Index(m.Variants, "better")], nil)
	if math.Abs(cv.HeldOut.Mean-want) > 1e-12 {
		t.Errorf("held-out mean %.4f, want better's %.4f", cv.HeldOut.Mean, want)
	}
	if cv.Delta.Lo <= 0 {
		t.Errorf("held-out gain %+v, want an interval above 0", cv.Delta)
	}
	// One task (match): its figures are the overall ones.
	if len(cv.Tasks) != 1 || cv.Tasks[0].Task != "match" || cv.Tasks[0].HeldOut.Mean != cv.HeldOut.Mean ||
		cv.Tasks[0].Default.N != 50 {
		t.Errorf("tasks %+v", cv.Tasks)
	}
}

// A variant that is much better on one group and a little worse on all
// others looks best on the whole set, but is chosen only where that group
// trains it and then loses on every held-out fold.
func TestCrossValidateOneGroupLosesHeldOut(t *testing.T) {
	m := cvMatrix(map[string]func(g, i int) float64{
		"spike": func(g, i int) float64 {
			if g == 0 {
				return 0.4
			}
			return -0.02
		},
	})
	b := DefaultBootstrap()
	ranked, err := m.Rank(b)
	if err != nil {
		t.Fatal(err)
	}
	if ranked[0].Name != "spike" {
		t.Fatalf("on the whole set %q ranks first, want spike (the trap)", ranked[0].Name)
	}
	cv, err := CrossValidate(m, 5, b)
	if err != nil {
		t.Fatal(err)
	}
	for f, fd := range cv.Folds {
		want := "spike"
		if slices.Contains(fd.Groups, "g0") {
			want = "default"
		}
		if fd.Name != want {
			t.Errorf("fold %d (%v) chose %q, want %q", f+1, fd.Groups, fd.Name, want)
		}
	}
	if cv.HeldOut.Mean >= cv.Default.Mean {
		t.Errorf("held out %.4f, default %.4f: the one-group variant should lose", cv.HeldOut.Mean, cv.Default.Mean)
	}
	if cv.Delta.Hi >= 0 {
		t.Errorf("held-out difference %+v, want an interval below 0", cv.Delta)
	}
	again, _ := CrossValidate(m, 5, b)
	if fmt.Sprint(again) != fmt.Sprint(cv) {
		t.Error("a second run gave a different result")
	}
}

func TestRankByLowerBound(t *testing.T) {
	// "risky" has the higher mean gain, "steady" the higher lower bound.
	m := cvMatrix(map[string]func(g, i int) float64{
		"risky":  func(g, i int) float64 { return []float64{0.4, -0.2}[i%2] },
		"steady": func(g, i int) float64 { return 0.05 },
		"worse":  func(g, i int) float64 { return -0.01 },
	})
	ranked, err := m.Rank(DefaultBootstrap())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range ranked {
		names = append(names, r.Name)
	}
	if want := []string{"steady", "risky", "default", "worse"}; !slices.Equal(names, want) {
		t.Errorf("ranked %v, want %v", names, want)
	}
	if ranked[1].Delta.Mean <= ranked[0].Delta.Mean {
		t.Errorf("risky's mean gain %.4f should exceed steady's %.4f", ranked[1].Delta.Mean, ranked[0].Delta.Mean)
	}
	var buf strings.Builder
	if err := WriteRanked(&buf, ranked, DefaultBootstrap()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "steady   ") || !strings.Contains(buf.String(), "+0.0500  [+0.0500, +0.0500]") {
		t.Errorf("WriteRanked:\n%s", buf.String())
	}
}

func TestAssignFolds(t *testing.T) {
	groups := []string{"a", "a", "a", "a", "b", "b", "c", "c", "c", "d", "e"}
	got, err := AssignFolds(groups, 3)
	if err != nil {
		t.Fatal(err)
	}
	// a (4) → 0, c (3) → 1, b (2) → 2, d → 2, e → 1.
	want := []int{0, 0, 0, 0, 2, 2, 1, 1, 1, 2, 1}
	if !slices.Equal(got, want) {
		t.Errorf("folds %v, want %v", got, want)
	}
	if _, err := AssignFolds(groups, 6); err == nil || !strings.Contains(err.Error(), "only 5 groups") {
		t.Errorf("6 folds of 5 groups: err = %v", err)
	}
	if _, err := AssignFolds(groups, 1); err == nil {
		t.Error("1 fold: no error")
	}
}

func TestThemeGroups(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "themes.json")
	os.WriteFile(path, []byte(`{"dns": {"description": "d", "cases": ["A1", "A2"]},
		"disk": {"description": "x", "cases": ["B1"]}, "power": {"cases": ["C1"]}}`), 0o644)
	th, err := ReadThemes(path)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q    Query
		want string
	}{
		{Query{ID: "q1", Relevant: map[string]int{"B1": 1, "A2": 2}}, "theme:dns"},
		// The grade-2 case has no theme: the best-graded case that has one.
		{Query{ID: "q2", Relevant: map[string]int{"Z9": 2, "C1": 1, "B1": 1}}, "theme:disk"},
		{Query{ID: "q3", Relevant: map[string]int{"Z9": 2, "B1": 0}}, "query:q3"},
		{Query{ID: "q4", Relevant: map[string]int{}}, "query:q4"},
	}
	for _, tt := range tests {
		if got := th.QueryGroup(tt.q); got != tt.want {
			t.Errorf("QueryGroup(%s) = %q, want %q", tt.q.ID, got, tt.want)
		}
	}
	if got := th.SubjectGroup("C1"); got != "theme:power" {
		t.Errorf("SubjectGroup(C1) = %q", got)
	}
	if got := th.SubjectGroup("Z9"); got != "case:Z9" {
		t.Errorf("SubjectGroup(Z9) = %q", got)
	}
	var none Themes
	if got := none.QueryGroup(tests[0].q); got != "query:q1" {
		t.Errorf("without themes: %q", got)
	}

	os.WriteFile(path, []byte(`{"dns": {"cases": ["A1", ""]}}`), 0o644)
	if _, err := ReadThemes(path); err == nil || !strings.Contains(err.Error(), `theme "dns": empty case id`) {
		t.Errorf("empty case id: err = %v", err)
	}
	os.WriteFile(path, []byte(`["A1"]`), 0o644)
	if _, err := ReadThemes(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("not an object: err = %v", err)
	}
}

// NewMatrix weighs the tasks so that a variant's weighted mean is the
// Objective of its row, and groups a case's relate and dupes lists together.
func TestNewMatrix(t *testing.T) {
	qs := []Query{{ID: "q1", Relevant: map[string]int{"A1": 2}}, {ID: "q2", Relevant: map[string]int{"B1": 2}},
		{ID: "q3", Relevant: map[string]int{"Z9": 2}}}
	row := func(name string, q, r, d []float64) Row {
		out := Row{Name: name, PerQuery: map[string]Metrics{}, PerSubject: map[string]Metrics{}, DupesPerSubject: map[string]Metrics{}}
		var qm, rm, dm []Metrics
		for i, x := range q {
			out.PerQuery[qs[i].ID] = Metrics{NDCG: x, N: 1}
			qm = append(qm, Metrics{NDCG: x, N: 1})
		}
		for i := range r {
			id := []string{"A1", "B1"}[i]
			out.PerSubject[id] = Metrics{NDCG: r[i], N: 1}
			out.DupesPerSubject[id] = Metrics{NDCG: d[i], N: 1}
			rm, dm = append(rm, Metrics{NDCG: r[i]}), append(dm, Metrics{NDCG: d[i]})
		}
		mm, rr, dd := Mean(qm), Mean(rm), Mean(dm)
		out.Match, out.Relate, out.Dupes = &mm, &rr, &dd
		return out
	}
	rows := []Row{row("default", []float64{1, 0.5, 0}, []float64{0.25, 0.75}, []float64{1, 0}),
		row("other", []float64{0.2, 0.4, 0.6}, []float64{1, 1}, []float64{0.5, 0.5})}
	th := Themes{"dns": {Cases: []string{"A1"}}}
	m, err := NewMatrix(rows, qs, th)
	if err != nil {
		t.Fatal(err)
	}
	wantItems := []string{"match:q1", "match:q2", "match:q3", "relate:A1", "relate:B1", "dupes:A1", "dupes:B1"}
	if !slices.Equal(m.Items, wantItems) {
		t.Errorf("items %v, want %v", m.Items, wantItems)
	}
	wantGroups := []string{"theme:dns", "query:q2", "query:q3", "theme:dns", "case:B1", "theme:dns", "case:B1"}
	if !slices.Equal(m.Groups, wantGroups) {
		t.Errorf("groups %v, want %v", m.Groups, wantGroups)
	}
	for v, r := range rows {
		if got, want := stat.Mean(m.Scores[v], m.Weights), Objective(r); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: weighted mean %.6f, Objective %.6f", r.Name, got, want)
		}
	}
	// Match and relate only: each weighs half.
	mr, err := m.Only("match", "relate")
	if err != nil {
		t.Fatal(err)
	}
	if len(mr.Items) != 5 || mr.Weights[0] != 1.0/6 || mr.Weights[4] != 1.0/4 || mr.Scores[1][3] != 1 {
		t.Errorf("Only(match, relate): %+v", mr)
	}
	if _, err := m.Only("match", "bogus"); err == nil || !strings.Contains(err.Error(), `"bogus"`) {
		t.Errorf("unknown task: err = %v", err)
	}
	rows[1].PerQuery["q9"] = Metrics{}
	if _, err := NewMatrix(rows, qs, nil); err == nil || !strings.Contains(err.Error(), `"q9"`) {
		t.Errorf("unknown query: err = %v", err)
	}
}
