package eval

import (
	"testing"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// TestCoarseTagsGitBugs checks that tags every case shares, or that split a
// library into a few broad parts, do not drown the text: GitBugs train with
// each report's priority as a component tag and one domain tag on every
// report must find duplicates as well as without them. (Before tags were
// weighed by their lift, relate MRR fell from 0.600 to 0.377.)
func TestCoarseTagsGitBugs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds GitBugs twice")
	}
	var s judgedSet
	for _, x := range judgedSets() {
		if x.name == "gitbugs-train" {
			s = x
		}
	}
	cases, _, rel, ok := s.load(t)
	if !ok {
		t.Skip("GitBugs data absent")
	}
	score := func(cases []*caselib.Case) Metrics {
		ix, err := similarity.BuildCases(cases, similarity.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		row, _ := Run(ix, nil, rel, s.k)
		return *row.Relate
	}
	plain := score(cases)
	coarse := make([]*caselib.Case, len(cases))
	for i, c := range cases {
		cc := *c
		sev := c.Severity
		if sev == "" {
			sev = "none"
		}
		cc.Components = []string{"priority-" + sev}
		cc.Domain = []string{"hadoop"}
		coarse[i] = &cc
	}
	tagged := score(coarse)
	t.Logf("relate MRR: plain %.4f, with coarse tags %.4f", plain.MRR, tagged.MRR)
	if tagged.MRR < plain.MRR-0.01 {
		t.Errorf("relate MRR with coarse tags %.4f, want at least the plain library's %.4f - 0.01", tagged.MRR, plain.MRR)
	}
	if tagged.MRR < 0.59 {
		t.Errorf("relate MRR with coarse tags %.4f, want >= 0.59", tagged.MRR)
	}
}
