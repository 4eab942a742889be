package tuned

import (
	"fmt"
	"testing"

	"github.com/caselink/caselink/eval"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// coarseLibrary returns 7 groups of 3 cases whose text tells the group,
// each case tagged with a priority it shares with one case of every other
// group and none of its own: the tag view misleads relate.
func coarseLibrary() []*caselib.Case {
	words := [][]string{{"kafka", "broker", "partition", "rebalance"}, {"certificate", "expired", "tls", "handshake"},
		{"dns", "resolver", "nxdomain", "zone"}, {"disk", "inode", "volume", "full"}, {"memory", "heap", "leak", "oom"},
		{"replica", "lag", "postgres", "failover"}, {"ingress", "nginx", "upstream", "timeout"}}
	var cases []*caselib.Case
	for g, ws := range words {
		for i := range 3 {
			c := &caselib.Case{ID: fmt.Sprintf("T-%d%d", g, i), Components: []string{"priority-" + string(rune('a'+i))}, Domain: []string{"platform"}}
			c.Title.EN = ws[i] + " " + ws[(i+1)%4] + " problem: the service returned errors to customers"
			c.Summary.EN = "Requests failed during the night; the team looked at the " + ws[i] + " and restarted it."
			if i == 0 {
				c.Related = []string{fmt.Sprintf("T-%d1", g), fmt.Sprintf("T-%d2", g)}
			}
			cases = append(cases, c)
		}
	}
	return cases
}

// TestTuneLearnsFromLinksAndDecisions: links, confirmed duplicates and
// dismissed pairs each make lists of their own, and the tuned weights drop
// the misleading tag view with a held-out gain whose interval is above 0.
func TestTuneLearnsFromLinksAndDecisions(t *testing.T) {
	cases := coarseLibrary()
	var ds []caselib.Decision
	for g := range 7 {
		ds = append(ds, caselib.Decision{A: fmt.Sprintf("T-%d1", g), B: fmt.Sprintf("T-%d2", g), Verdict: caselib.Duplicate},
			// the stranger of the same priority that the tag view pulls close
			caselib.Decision{A: fmt.Sprintf("T-%d0", g), B: fmt.Sprintf("T-%d0", (g+1)%7), Verdict: caselib.NotDuplicate})
	}
	s := Curated(cases, nil, ds)
	if s.Links != 21 || s.Duplicates != 7 || s.NotDuplicates != 7 {
		t.Fatalf("signal %+v", s)
	}
	res, err := Tune(cases, similarity.DefaultConfig(), s, Options{Folds: 5, K: 5, Bootstrap: eval.DefaultBootstrap()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Items["relate"] != 21 || res.Items["dupes"] != 14 || res.Items["dismissed"] != 7 {
		t.Errorf("lists %v, want 21 relate, 14 dupes, 7 dismissed", res.Items)
	}
	if res.Chosen.Values["tags"] != 0 || res.CV.Delta.Lo <= 0 {
		t.Errorf("chosen %q (tags %v), held-out gain %+v", res.ChosenName, res.Chosen.Values["tags"], res.CV.Delta)
	}
	if len(res.CV.Tasks) != 3 {
		t.Errorf("cross-validation tasks %+v, want relate, dupes, dismissed", res.CV.Tasks)
	}
	// The same library whose links relate wrote has nothing to learn from.
	machine := map[Link]bool{}
	for _, c := range cases {
		for _, to := range c.Related {
			machine[Link{c.ID, to}] = true
		}
	}
	if _, err := Tune(cases, similarity.DefaultConfig(), Curated(cases, machine, nil), Options{Folds: 5, K: 5}); err == nil {
		t.Error("Tune learned from links relate wrote")
	}
}

// The weight of a title meeting a body changes only the lists of records
// written as a title and a body: tune tries it off and at the default only
// when such a record's list is scored.
func TestCrossViewsTriedOnlyWhereItCounts(t *testing.T) {
	curated := &caselib.Case{ID: "PM-1", Remediation: []caselib.Text{{EN: "Rolled the config back."}}}
	notice := &caselib.Case{ID: "NOTE-1"}
	cases := []*caselib.Case{curated, notice}
	base := similarity.DefaultConfig()
	scored := func(ids ...string) eval.Judgments {
		j := eval.Judgments{}
		for _, id := range ids {
			j.Add(id, "X", 1, true)
		}
		return j
	}
	for _, tc := range []struct {
		name   string
		scored eval.Judgments
		want   []float64
	}{
		{"curated subjects only", scored("PM-1"), []float64{base.CrossViews}},
		{"a notice's list scored", scored("PM-1", "NOTE-1"), []float64{base.CrossViews, 0}},
		{"every case (Candidates)", nil, []float64{base.CrossViews, 0}},
	} {
		if got := crossViewsTried(cases, base, tc.scored); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: tried %v, want %v", tc.name, got, tc.want)
		}
	}
	off := base
	off.CrossViews = 0
	if got := crossViewsTried(cases, off, nil); fmt.Sprint(got) != fmt.Sprint([]float64{0, base.CrossViews}) {
		t.Errorf("from off: tried %v, want off then the default %v", got, base.CrossViews)
	}
}
