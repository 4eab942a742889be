package curate

import (
	"fmt"
	"math"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// DupesPerCase is how many probable duplicates each case is paired with at
// most.
const DupesPerCase = 10

// DupesQuery says which probable duplicates to list.
type DupesQuery struct {
	// Threshold is the lowest dupes score listed, in [0, 1].
	Threshold float64
	// Pending lists only the pairs without a decision; otherwise the
	// confirmed duplicates are listed too (dismissed pairs never are).
	Pending bool
	// Offset skips that many pairs of the list; Limit keeps at most that
	// many after them (0: all).
	Offset, Limit int
}

// DupePair is one listed pair of probable duplicates.
type DupePair struct {
	similarity.Pair
	// Verdict is the pair's decision: empty when undecided, Duplicate when
	// a curator confirmed it.
	Verdict caselib.Verdict
}

// DupesPage is one page of the list of probable duplicates.
type DupesPage struct {
	Pairs []DupePair
	// Total is how many pairs the whole list has, before Offset and Limit.
	Total int
}

// ListDupes lists the probable duplicates of ix (see
// [similarity.Index.Duplicates]) that decisions leave to show, as [Page]
// does. progress is as for Duplicates.
func ListDupes(ix *similarity.Index, decisions []caselib.Decision, q DupesQuery, progress func(done int)) DupesPage {
	return Page(ix, ix.Duplicates(q.Threshold, DupesPerCase, progress), decisions, q)
}

// Page cuts the page q asks for from pairs, the probable duplicates of ix
// at q.Threshold or any lower threshold (pairs scoring under q.Threshold
// are skipped, which gives the list at q.Threshold: each case's best
// duplicates above a threshold are the first of its best ones above a
// lower one). Pairs dismissed as not duplicates are left out, confirmed
// ones are marked (or left out too when q.Pending).
func Page(ix *similarity.Index, pairs []similarity.Pair, decisions []caselib.Decision, q DupesQuery) DupesPage {
	verdicts := caselib.Verdicts(decisions)
	page := DupesPage{Pairs: []DupePair{}}
	for _, p := range pairs {
		if p.Score < q.Threshold {
			continue
		}
		v := verdicts[caselib.PairKey(ix.ID(p.A), ix.ID(p.B))]
		if v == caselib.NotDuplicate || (q.Pending && v != "") {
			continue
		}
		page.Total++
		if page.Total <= q.Offset || (q.Limit > 0 && len(page.Pairs) >= q.Limit) {
			continue
		}
		page.Pairs = append(page.Pairs, DupePair{Pair: p, Verdict: v})
	}
	return page
}

// CheckDupesQuery returns an error naming the field of q that is out of
// range: a threshold outside [0, 1], a negative offset or limit.
func CheckDupesQuery(q DupesQuery) error {
	switch {
	case math.IsNaN(q.Threshold) || q.Threshold < 0 || q.Threshold > 1:
		return fmt.Errorf("threshold %v: want a number from 0 to 1", q.Threshold)
	case q.Offset < 0:
		return fmt.Errorf("offset %d: want 0 or more", q.Offset)
	case q.Limit < 0:
		return fmt.Errorf("limit %d: want 0 or more (0: all)", q.Limit)
	}
	return nil
}
