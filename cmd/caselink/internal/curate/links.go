package curate

import (
	"slices"
	"sync"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
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

// Cases are the cases a plan is made for, in the index's order: the
// index itself, or the library's cases alone (CaseList) once the search is
// done and the index let go.
type Cases interface {
	Len() int
	Case(i int) *caselib.Case
	ID(i int) string
	Lookup(id string) (int, bool)
}

// CaseList returns cases, in the order of the index built from them, as
// Cases: relate --write plans its links from them after letting the index
// go.
func CaseList(cases []*caselib.Case) Cases { return &caseList{cases: cases} }

type caseList struct {
	cases []*caselib.Case
	once  sync.Once
	byID  map[string]int // made on the first Lookup (--symmetric, --only)
}

func (l *caseList) Len() int                 { return len(l.cases) }
func (l *caseList) Case(i int) *caselib.Case { return l.cases[i] }
func (l *caseList) ID(i int) string          { return l.cases[i].ID }

func (l *caseList) Lookup(id string) (int, bool) {
	l.once.Do(func() {
		l.byID = make(map[string]int, len(l.cases))
		for i, c := range l.cases {
			l.byID[c.ID] = i
		}
	})
	i, ok := l.byID[id]
	return i, ok
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
func ProposeLinks(ix Cases, found [][]similarity.Hit, p LinkPolicy) Plan {
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
func (p Plan) Changed(ix Cases) map[string][]string {
	out := map[string][]string{}
	for d, ids := range p.Next {
		if cs := ix.Case(d); !slices.Equal(ids, cs.Related) {
			out[cs.ID] = ids
		}
	}
	return out
}

// Counts returns how many links the plan adds and removes over the library.
func (p Plan) Counts(ix Cases) (add, remove int) {
	for d, ids := range p.Next {
		a, r := Diff(ix.Case(d).Related, ids)
		add += len(a)
		remove += len(r)
	}
	return add, remove
}
