package eval

import (
	"fmt"
	"maps"
	"slices"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/par"
)

// Rankings are what a run produced: query id → case ids best first (match),
// and case id → case ids best first (relate, and dupes).
type Rankings struct {
	Match  map[string][]string
	Relate map[string][]string
	Dupes  map[string][]string
}

// Run measures an index on a judged set: every query is matched (re-ranking
// only its candidates when it has them), and every judged subject of related
// is related and searched for duplicates (by the dupes score), each to depth
// k. Either qs or related may be empty.
//
// Every list the engine returns is checked with [CheckRanking] before it is
// scored: a case listed twice would be counted twice and could push a
// measure above 1. Such a list is a bug in the engine, and Run panics on it.
func Run(ix *similarity.Index, qs []Query, related Judgments, k int) (Row, Rankings) {
	rk := Rankings{Match: map[string][]string{}, Relate: map[string][]string{}, Dupes: map[string][]string{}}
	row := Row{}
	if len(qs) > 0 {
		lists := make([][]string, len(qs))
		par.Each(len(qs), func(i int) {
			q := qs[i]
			res := ix.Match(similarity.Query{Text: q.Text, K: k, Candidates: q.Candidates})
			for _, h := range res.Hits {
				lists[i] = append(lists[i], h.ID)
			}
		})
		for i, q := range qs {
			mustRank("match", q.ID, lists[i])
			rk.Match[q.ID] = lists[i]
		}
		m, byKind := ScoreQueries(qs, rk.Match, k)
		row.Match, row.ByKind = &m, byKind
		row.PerQuery, row.QueryKind = ScoreEach(qs, rk.Match, k), queryKinds(qs)
	}
	if len(related) > 0 {
		subjects := related.Subjects()
		lists := make([][]string, len(subjects))
		dupes := make([][]string, len(subjects))
		present := make([]bool, len(subjects))
		par.Each(len(subjects), func(i int) {
			d, ok := ix.Lookup(subjects[i])
			if !ok {
				return
			}
			present[i] = true
			for _, h := range ix.Related(d, k, 0) {
				lists[i] = append(lists[i], h.ID)
			}
			for _, h := range ix.DupesOf(d, k, 0) {
				dupes[i] = append(dupes[i], h.ID)
			}
		})
		for i, s := range subjects {
			if present[i] {
				mustRank("relate", s, lists[i])
				mustRank("dupes", s, dupes[i])
				rk.Relate[s] = lists[i]
				rk.Dupes[s] = dupes[i]
			}
		}
		m := ScoreRelate(related, rk.Relate, k)
		row.Relate = &m
		dm := ScoreRelate(related, rk.Dupes, k)
		row.Dupes = &dm
		row.PerSubject = ScoreEachRelate(related, rk.Relate, k)
		row.DupesPerSubject = ScoreEachRelate(related, rk.Dupes, k)
	}
	return row, rk
}

// mustRank panics when the engine's list for a query or case fails
// CheckRanking.
func mustRank(task, id string, ranked []string) {
	if err := CheckRanking(ranked); err != nil {
		panic(fmt.Sprintf("eval: the engine's %s list for %q: %v", task, id, err))
	}
}

// CheckSet reports judged ids that the library does not have: a judged set
// that names missing cases measures nothing useful.
func CheckSet(ix *similarity.Index, qs []Query, related Judgments) error {
	missing := map[string]bool{}
	note := func(id string) {
		if _, ok := ix.Lookup(id); !ok {
			missing[id] = true
		}
	}
	for _, q := range qs {
		for id := range q.Relevant {
			note(id)
		}
	}
	for a, m := range related {
		note(a)
		for b := range m {
			note(b)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	ids := slices.Sorted(maps.Keys(missing))
	return fmt.Errorf("%d judged case id(s) are not in the library, e.g. %s", len(ids), ids[0])
}
