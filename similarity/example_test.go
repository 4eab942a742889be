package similarity_test

import (
	"fmt"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// seedIndex indexes the four embedded seed cases (package seeds), as
// caselink does when it is given no library.
func seedIndex() *similarity.Index {
	lib, err := caselib.LoadSeeds()
	if err != nil {
		panic(err)
	}
	ix, err := similarity.BuildCases(lib.Cases, similarity.DefaultConfig())
	if err != nil {
		panic(err)
	}
	return ix
}

// Build indexes documents: the text of each view and the tags of a case.
// Documents makes them from cases; a caller may change a document (here, to
// leave out a case's tags) before building.
func ExampleBuild() {
	lib, err := caselib.LoadSeeds()
	if err != nil {
		panic(err)
	}
	docs := similarity.Documents(lib.Cases)
	fmt.Println(docs[0].Case.ID, docs[0].Tags[:3])

	for i := range docs {
		docs[i].Tags = nil
	}
	ix, err := similarity.Build(docs, similarity.DefaultConfig())
	if err != nil {
		panic(err)
	}
	fmt.Println(ix.Len(), "cases")
	// Output:
	// IL-0100 [component:cache component:database component:node-pool]
	// 4 cases
}

// Match ranks the library's cases by how well they fit a paste, best first.
func ExampleIndex_Match() {
	ix := seedIndex()
	res := ix.Match(similarity.Query{
		Text: "loki distributor pods OOMKilled during a rollout, write path stalled",
		K:    3,
	})
	for _, h := range res.Hits {
		fmt.Printf("%s %.2f %s\n", h.ID, h.Score, h.Stage)
	}
	// The explanation names what the paste and a case share.
	fmt.Println(ix.ExplainMatch(res, res.Hits[0]).Why(3))
	// Output:
	// IL-0191 0.10 query
	// IL-0194 0.01 query
	// IL-0100 0.01 query
	// [symptom:oom-killed distributor rollout]
}

// Related lists the cases most like a case of the library: for the
// kube-apiserver restart that overloaded etcd, the other Kubernetes outage
// first.
func ExampleIndex_Related() {
	ix := seedIndex()
	d, _ := ix.Lookup("IL-0194")
	for _, h := range ix.Related(d, 3, 0) {
		fmt.Printf("%s %.2f\n", h.ID, h.Score)
	}
	// Output:
	// IL-0100 0.12
	// IL-0191 0.03
	// IL-0371 0.01
}

// Duplicates lists the pairs of cases that may describe the same incident:
// similar, and close in time. The seeds are four different incidents, so
// only a low threshold lists a pair.
func ExampleIndex_Duplicates() {
	ix := seedIndex()
	for _, p := range ix.Duplicates(0.05, 5, nil) {
		fmt.Printf("%s %s %.2f (similarity %.2f)\n", ix.Case(p.A).ID, ix.Case(p.B).ID, p.Score, p.Similarity)
	}
	fmt.Println(len(ix.Duplicates(0.5, 5, nil)), "pairs at 0.5")
	// Output:
	// IL-0100 IL-0194 0.06 (similarity 0.16)
	// IL-0191 IL-0371 0.05 (similarity 0.09)
	// 0 pairs at 0.5
}
