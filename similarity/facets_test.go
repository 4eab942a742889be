package similarity

import (
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// TestScored checks the count of cases a paste scores above 0: every case
// sharing a word with it, whatever k, within the filter.
func TestScored(t *testing.T) {
	lib, err := caselib.LoadSeeds()
	if err != nil {
		t.Fatal(err)
	}
	ix, err := BuildCases(lib.Cases, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Text: "pods", K: 1}
	all := ix.Match(Query{Text: "pods", K: 10})
	n1 := ix.Scored(ix.Match(q), q)
	if n := ix.Scored(all, Query{Text: "pods", K: 10}); n1 < 2 || n1 > len(all.Hits) || n != len(all.Hits) {
		t.Errorf("Scored = %d with k 1, %d with k 10: want the cases sharing a word past k 1, and all %d hits", n1, n, len(all.Hits))
	}
	q.Filter = Filter{Orgs: []string{"Grafana Labs"}}
	if n := ix.Scored(ix.Match(q), q); n != 1 {
		t.Errorf("Scored within one organisation = %d, want 1", n)
	}
	q = Query{Text: "zzqx", K: 1}
	if n := ix.Scored(ix.Match(q), q); n != 0 {
		t.Errorf("Scored of an unknown word = %d", n)
	}
	if ix.Org(0) != lib.Cases[0].Org || len(ix.Domains(0)) != len(lib.Cases[0].Domain) {
		t.Errorf("Org, Domains of case 0: %q %v", ix.Org(0), ix.Domains(0))
	}
}
