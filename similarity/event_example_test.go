package similarity_test

import (
	"fmt"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// A post-mortem and the one-line status notice of the same incident: the
// notice is the same organisation's, the same day, and almost wholly inside
// the post-mortem, so the same-event evidence lifts the pair's dupes score
// far above its similarity. (In a library of four cases every shared term
// is rare.)
func ExampleIndex_EventEvidence() {
	mk := func(id, org, date, text string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: org, Date: date}
		c.Summary.EN = text
		return c
	}
	ix, err := similarity.BuildCases([]*caselib.Case{
		mk("PM-1", "Initech Inc", "2023-03-14", "A firmware update rebooted two of the three Zorblax ledger nodes in eu-north-7 at once. "+
			"The last node refused writes without quorum, payments queued and checkout answered 503 for 47 minutes. "+
			"Operators restored quorum by hand and replayed the queue; rollouts now wait for each node to rejoin."),
		mk("ST-1", "Initech", "2023-03-14", "Zorblax ledger in eu-north-7 lost quorum; payments are queued."),
		mk("OT-1", "Hooli", "2023-03-14", "Search answered slowly after a cache flush."),
		mk("OT-2", "Hooli", "2022-11-02", "A certificate expired on the search load balancer."),
	}, similarity.DefaultConfig())
	if err != nil {
		panic(err)
	}
	pm, _ := ix.Lookup("PM-1")
	st, _ := ix.Lookup("ST-1")
	e := ix.EventEvidence(pm, st)
	fmt.Println(e.Why())
	fmt.Printf("similarity %.2f, dupes score %.2f\n", ix.CaseSimilarity(pm, st), ix.DupeScore(pm, st))
	// Output:
	// [same org: initech same day contained: 86% rare: eu-north-7 rare: ledger rare: payments rare: queued rare: quorum rare: Zorblax]
	// similarity 0.38, dupes score 0.99
}
