package curate

import (
	"fmt"
	"testing"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// copies returns an index of four copies of one write-up and a stranger:
// six probable duplicate pairs.
func copies(t *testing.T) *similarity.Index {
	t.Helper()
	var cases []*caselib.Case
	for _, id := range []string{"A", "B", "C", "D"} {
		c := &caselib.Case{ID: id, Date: "2024-01-10"}
		c.Title.EN = "Checkout returns 502 after the load balancer certificate expired"
		c.Summary.EN = "The TLS certificate on the public load balancer expired; handshakes failed."
		cases = append(cases, c)
	}
	x := &caselib.Case{ID: "X", Date: "2024-01-10"}
	x.Title.EN = "DNS resolution failed in one region"
	cases = append(cases, x)
	ix, err := similarity.BuildCases(cases, similarity.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func pairs(ix *similarity.Index, p DupesPage) string {
	s := fmt.Sprintf("%d:", p.Total)
	for _, x := range p.Pairs {
		s += fmt.Sprintf(" %s~%s", ix.Case(x.A).ID, ix.Case(x.B).ID)
		if x.Verdict != "" {
			s += "=" + string(x.Verdict)
		}
	}
	return s
}

func TestListDupes(t *testing.T) {
	ix := copies(t)
	q := DupesQuery{Threshold: 0.5}
	if got := pairs(ix, ListDupes(ix, nil, q, nil)); got != "6: A~B A~C A~D B~C B~D C~D" {
		t.Fatalf("no decisions: %s", got)
	}
	ds := []caselib.Decision{{A: "B", B: "A", Verdict: caselib.NotDuplicate}, {A: "A", B: "C", Verdict: caselib.Duplicate}}
	if got := pairs(ix, ListDupes(ix, ds, q, nil)); got != "5: A~C=duplicate A~D B~C B~D C~D" {
		t.Errorf("dismissed A~B, confirmed A~C: %s", got)
	}
	q.Pending = true
	if got := pairs(ix, ListDupes(ix, ds, q, nil)); got != "4: A~D B~C B~D C~D" {
		t.Errorf("pending only: %s", got)
	}
	q.Offset, q.Limit = 1, 2
	if got := pairs(ix, ListDupes(ix, ds, q, nil)); got != "4: B~C B~D" {
		t.Errorf("offset 1 limit 2: %s", got)
	}
	q.Offset = 10
	if got := pairs(ix, ListDupes(ix, ds, q, nil)); got != "4:" {
		t.Errorf("offset past the end: %s", got)
	}
}

func TestCheckDupesQuery(t *testing.T) {
	for _, q := range []DupesQuery{{Threshold: -0.1}, {Threshold: 1.5}, {Offset: -1}, {Limit: -2}} {
		if err := CheckDupesQuery(q); err == nil {
			t.Errorf("CheckDupesQuery(%+v) accepted", q)
		}
	}
	if err := CheckDupesQuery(DupesQuery{Threshold: 0.4, Offset: 3, Limit: 10}); err != nil {
		t.Error(err)
	}
}

// Page over the pairs of a lower threshold gives the list at the higher
// one, so a server may keep one list and serve every threshold above it.
func TestPageOfALowerThreshold(t *testing.T) {
	ix := copies(t)
	low := ix.Duplicates(0, DupesPerCase, nil)
	for _, th := range []float64{0, 0.2, 0.5, 0.9, 1} {
		q := DupesQuery{Threshold: th}
		if got, want := pairs(ix, Page(ix, low, nil, q)), pairs(ix, ListDupes(ix, nil, q, nil)); got != want {
			t.Errorf("threshold %v: page of the lower list %s, list %s", th, got, want)
		}
	}
}
