package eval

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"

	"github.com/caselink/caselink/similarity"
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
func Run(ix *similarity.Index, qs []Query, related Judgments, k int) (Row, Rankings) {
	rk := Rankings{Match: map[string][]string{}, Relate: map[string][]string{}, Dupes: map[string][]string{}}
	row := Row{}
	if len(qs) > 0 {
		lists := make([][]string, len(qs))
		parallelDo(len(qs), func(i int) {
			q := qs[i]
			res := ix.Match(similarity.Query{Text: q.Text, K: k, Candidates: q.Candidates})
			for _, h := range res.Hits {
				lists[i] = append(lists[i], h.ID)
			}
		})
		for i, q := range qs {
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
		parallelDo(len(subjects), func(i int) {
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

// parallelDo calls f(0) … f(n-1) on all cores.
func parallelDo(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
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
