package curate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// clusterIndex is an index of the cases named, dated as given ("" for
// none); Clusters only needs their ids and dates.
func clusterIndex(t *testing.T, dated map[string]string) *similarity.Index {
	t.Helper()
	var cases []*caselib.Case
	for _, id := range []string{"PM", "N1", "N2", "N3", "Q1", "Q2", "S", "R"} {
		c := &caselib.Case{ID: id, Date: dated[id]}
		c.Title.EN = "record " + id
		cases = append(cases, c)
	}
	ix, err := similarity.BuildCases(cases, similarity.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func clusterString(ix *similarity.Index, cs []DupeCluster) string {
	var out []string
	for _, c := range cs {
		var ids []string
		for _, x := range c.Cases {
			ids = append(ids, ix.Case(x).ID)
		}
		s := fmt.Sprintf("%d:%s/%d", c.N, strings.Join(ids, ","), len(c.Pairs))
		if len(c.Links) > 0 {
			s += fmt.Sprintf("+%d", len(c.Links))
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// A post-mortem and its notices are one cluster, the post-mortem first; a
// second event of the same days is another, though one weak pair links a
// notice of each; a summary linked to events weeks apart joins one of them
// only.
func TestClusters(t *testing.T) {
	ix := clusterIndex(t, map[string]string{"PM": "2024-01-10", "N1": "2024-01-10", "N2": "2024-01-11", "N3": "2024-01-10",
		"Q1": "2024-01-10", "Q2": "2024-01-10", "R": "2024-03-01"})
	at := func(id string) int { d, _ := ix.Lookup(id); return d }
	pair := func(a, b string, s float64) DupePair {
		return DupePair{Pair: similarity.Pair{A: at(a), B: at(b), Score: s}}
	}
	ps := []DupePair{
		pair("PM", "N1", 0.95), pair("PM", "N2", 0.9), pair("PM", "N3", 0.85), pair("N1", "N2", 0.6),
		pair("Q1", "Q2", 0.8),
		pair("N3", "Q1", 0.5), // weak: one pair of the eight between the two events
		pair("S", "PM", 0.7),  // an undated summary
		pair("S", "R", 0.75),  // … also like an event seven weeks later
	}
	got := clusterString(ix, Clusters(ix, ps))
	// S joins R (its stronger pair); S~PM would then join R's cluster to
	// PM's, seven weeks apart: it stays a link of both, as N3~Q1 does.
	want := "1:PM,N1,N2,N3/4+2 2:Q1,Q2/1+1 3:R,S/1+1"
	if got != want {
		t.Errorf("clusters %s, want %s", got, want)
	}
	ds := ClusterDecisions(ix, Clusters(ix, ps)[0], caselib.Duplicate, "2024-02-01")
	if len(ds) != 4 || ds[0].A != "PM" || ds[0].B != "N1" || ds[0].Verdict != caselib.Duplicate {
		t.Errorf("decisions on the first cluster %+v, want one per pair, PM~N1 first", ds)
	}
}
