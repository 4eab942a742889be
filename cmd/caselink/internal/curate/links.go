package curate

import (
	"slices"

	"github.com/caselink/caselink/similarity"
)

// LinkPolicy says how relate merges the links it found with the ones a
// case already has.
type LinkPolicy struct {
	// Replace drops a subject case's current links (else they are kept,
	// first, and the new ones appended).
	Replace bool
	// Symmetric gives every link a→b of a subject case its back-link b→a.
	Symmetric bool
	// Only, when not nil, names the subject cases by position: only they
	// get new links, and each link they get is made two-way (a back-link in
	// the related case), so one new case is linked in both directions
	// without touching the rest of the library. Nil means every case.
	Only []int
}

// Plan is what relate would do to every case's related list.
type Plan struct {
	// Next[d] is the related list case d would have (a copy of its current
	// list when relate does not change it).
	Next [][]string
	// Subject[d] reports whether case d was searched for links (every case
	// unless LinkPolicy.Only).
	Subject []bool
}

// ProposeLinks returns the plan for the index's cases given found[d], the
// links found for each subject case d, most similar first (found of other
// cases is ignored).
func ProposeLinks(ix *similarity.Index, found [][]similarity.Hit, p LinkPolicy) Plan {
	n := ix.Len()
	plan := Plan{Next: make([][]string, n), Subject: make([]bool, n)}
	if p.Only == nil {
		for d := range plan.Subject {
			plan.Subject[d] = true
		}
	} else {
		for _, d := range p.Only {
			plan.Subject[d] = true
		}
	}
	for d := range n {
		cur := ix.Case(d).Related
		if !plan.Subject[d] {
			plan.Next[d] = slices.Clone(cur)
			continue
		}
		var ids []string
		if !p.Replace {
			ids = slices.Clone(cur)
		}
		for _, h := range found[d] {
			if !slices.Contains(ids, h.ID) {
				ids = append(ids, h.ID)
			}
		}
		plan.Next[d] = ids
	}
	if p.Symmetric || p.Only != nil {
		for d := range n {
			if !plan.Subject[d] {
				continue
			}
			id := ix.ID(d)
			for _, other := range plan.Next[d] {
				if o, ok := ix.Lookup(other); ok && o != d && !slices.Contains(plan.Next[o], id) {
					plan.Next[o] = append(plan.Next[o], id)
				}
			}
		}
	}
	return plan
}

// Diff returns the links of after that before lacks (add) and the links of
// before that after lacks (remove), each in its list's order.
func Diff(before, after []string) (add, remove []string) {
	for _, id := range after {
		if !slices.Contains(before, id) {
			add = append(add, id)
		}
	}
	for _, id := range before {
		if !slices.Contains(after, id) {
			remove = append(remove, id)
		}
	}
	return add, remove
}

// Changed returns, by case id, the related list of every case whose list
// the plan changes: what the writer is given.
func (p Plan) Changed(ix *similarity.Index) map[string][]string {
	out := map[string][]string{}
	for d, ids := range p.Next {
		if cs := ix.Case(d); !slices.Equal(ids, cs.Related) {
			out[cs.ID] = ids
		}
	}
	return out
}

// Counts returns how many links the plan adds and removes over the library.
func (p Plan) Counts(ix *similarity.Index) (add, remove int) {
	for d, ids := range p.Next {
		a, r := Diff(ix.Case(d).Related, ids)
		add += len(a)
		remove += len(r)
	}
	return add, remove
}
