package curate

import (
	"slices"
	"testing"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		before, after, add, remove []string
	}{
		{nil, nil, nil, nil},
		{[]string{"A"}, []string{"A", "B"}, []string{"B"}, nil},
		{[]string{"A", "C"}, []string{"B"}, []string{"B"}, []string{"A", "C"}},
	} {
		add, remove := Diff(tc.before, tc.after)
		if !slices.Equal(add, tc.add) || !slices.Equal(remove, tc.remove) {
			t.Errorf("Diff(%v, %v) = %v, %v; want %v, %v", tc.before, tc.after, add, remove, tc.add, tc.remove)
		}
	}
}

func testIndex(t *testing.T) *similarity.Index {
	t.Helper()
	mk := func(id, title string, related ...string) *caselib.Case {
		return &caselib.Case{ID: id, Title: caselib.Text{EN: title}, Related: related}
	}
	ix, err := similarity.BuildCases([]*caselib.Case{
		mk("A", "postgres pool exhausted", "C"),
		mk("B", "postgres pool saturated"),
		mk("C", "bgp route leak", "A"),
	}, similarity.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func hit(ix *similarity.Index, id string) similarity.Hit {
	d, _ := ix.Lookup(id)
	return similarity.Hit{Doc: d, ID: id}
}

func TestProposeLinks(t *testing.T) {
	ix := testIndex(t)
	found := [][]similarity.Hit{{hit(ix, "B")}, {hit(ix, "A")}, nil}
	for _, tc := range []struct {
		name string
		p    LinkPolicy
		want [][]string
		add  int
		rem  int
	}{
		{"keep", LinkPolicy{}, [][]string{{"C", "B"}, {"A"}, {"A"}}, 2, 0},
		{"replace", LinkPolicy{Replace: true}, [][]string{{"B"}, {"A"}, nil}, 2, 2},
		{"symmetric", LinkPolicy{Symmetric: true}, [][]string{{"C", "B"}, {"A"}, {"A"}}, 2, 0},
		// Only B: B gets A, A gets the back-link B; C is left alone.
		{"only", LinkPolicy{Only: []int{1}}, [][]string{{"C", "B"}, {"A"}, {"A"}}, 2, 0},
		// Only B with replace: A's own links are not B's to replace.
		{"only replace", LinkPolicy{Only: []int{1}, Replace: true}, [][]string{{"C", "B"}, {"A"}, {"A"}}, 2, 0},
	} {
		plan := ProposeLinks(ix, found, tc.p)
		if !slices.EqualFunc(plan.Next, tc.want, slices.Equal) {
			t.Errorf("%s: Next = %v, want %v", tc.name, plan.Next, tc.want)
		}
		if a, r := plan.Counts(ix); a != tc.add || r != tc.rem {
			t.Errorf("%s: Counts = %d, %d; want %d, %d", tc.name, a, r, tc.add, tc.rem)
		}
		// Planned from the cases alone (relate --write, the index let go).
		alone := CaseList(ix.Cases())
		if p := ProposeLinks(alone, found, tc.p); !slices.EqualFunc(p.Next, plan.Next, slices.Equal) {
			t.Errorf("%s: from the cases alone, Next = %v, want %v", tc.name, p.Next, plan.Next)
		}
	}
}

func TestCheckLinks(t *testing.T) {
	a := &caselib.Case{ID: "A", Related: []string{"B", "A", "NO", "B"}}
	b := &caselib.Case{ID: "B", Related: []string{"A"}}
	byID := map[string]*caselib.Case{"A": a, "B": b}
	got := CheckLinks([]*caselib.Case{a, b}, func(id string) *caselib.Case { return byID[id] })
	var kinds []string
	for _, p := range got {
		kinds = append(kinds, p.Case.ID+":"+p.Link+":"+p.Kind)
	}
	want := []string{"A:A:self", "A:NO:dangling", "A:B:repeated"}
	if !slices.Equal(kinds, want) {
		t.Errorf("CheckLinks = %v, want %v", kinds, want)
	}
}
