package similarity_test

import (
	"fmt"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// A post-mortem and the one-line status notice of the same incident: the
// notice is the same organisation's, the same day, and almost wholly inside
// the post-mortem, so the same-event evidence lifts the pair's dupes score
// far above its similarity. The evidence is the words of the incident the
// two share (the organisation's name and what every record says do not
// count), listed as the post-mortem writes them.
func ExampleIndex_EventEvidence() {
	mk := func(id, org, date, text string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: org, Date: date}
		c.Summary.EN = text
		return c
	}
	cases := []*caselib.Case{
		mk("PM-1", "Initech Inc", "2023-03-14", "A firmware update rebooted two of the three Zorblax ledger nodes in eu-north-7 at once. "+
			"The last node refused writes without quorum, payments queued and checkout answered 503 for 47 minutes. "+
			"Operators restored quorum by hand and replayed the queue; rollouts now wait for each node to rejoin."),
		mk("ST-1", "Initech", "2023-03-14", "Zorblax ledger in eu-north-7 lost quorum; payments are queued."),
		mk("OT-1", "Hooli", "2023-03-14", "Search answered slowly after a cache flush."),
		mk("OT-2", "Hooli", "2022-11-02", "A certificate expired on the search load balancer."),
	}
	// The rest of the library: other organisations' notices, so that a
	// word of two records is rare.
	for i := range 200 {
		cases = append(cases, mk(fmt.Sprintf("BG-%03d", i), fmt.Sprintf("Org %d", i%40), fmt.Sprintf("2021-%02d-%02d", 1+i%12, 1+i%28),
			fmt.Sprintf("Requests to service %d failed for some customers; we are investigating.", i)))
	}
	ix, err := similarity.BuildCases(cases, similarity.DefaultConfig())
	if err != nil {
		panic(err)
	}
	pm, _ := ix.Lookup("PM-1")
	st, _ := ix.Lookup("ST-1")
	e := ix.EventEvidence(pm, st)
	fmt.Println(e.Why())
	fmt.Printf("similarity %.2f, dupes score %.2f\n", ix.CaseSimilarity(pm, st), ix.DupeScore(pm, st))
	// Output:
	// [same org: initech same day specific: eu-north-7 specific: ledger specific: payments specific: queued specific: quorum specific: Zorblax]
	// similarity 0.45, dupes score 0.94
}
