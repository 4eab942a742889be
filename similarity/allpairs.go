package similarity

import (
	"sync"
	"sync/atomic"

	"github.com/caselink/caselink/similarity/par"
)

// AllRelated returns, for every case in library order, its k most similar
// other cases scoring at least minScore, best first, ties by case id, scored
// as by [Index.Related]. The
// work is spread over all cores; the result does not depend on how many
// there are. progress, when not nil, is called now and then with the number
// of cases done so far (from several goroutines, never concurrently).
func (ix *Index) AllRelated(k int, minScore float64, progress func(done int)) [][]Hit {
	k = ix.clampK(k)
	pb := ix.newPairBars()
	return forEachCase(ix, progress, func(sc *scorer, d int, q []qterm) ([]Hit, []qterm) {
		s := ix.nearSearch(d, k, minScore, q, ix.relPrior, true)
		if !ix.opts.noPairBars {
			s.bar = pb.bar(sc, &s, d)
		}
		hits := ix.run(sc, &s)
		pb.publish(d, hits)
		return hits, s.q
	})
}

// forEachCase calls one for every case on all cores, each worker with its
// own scorer and query buffer, and returns what it made of each case in
// library order.
func forEachCase[T any](ix *Index, progress func(done int), one func(sc *scorer, d int, q []qterm) (T, []qterm)) []T {
	n := len(ix.cases)
	out := make([]T, n)
	const chunk = 64
	type scratch struct {
		sc *scorer
		q  []qterm
	}
	ws := make([]scratch, par.Workers(n, chunk))
	var done atomic.Int64
	var mu sync.Mutex
	par.For(n, chunk, func(w, lo, hi int) {
		s := &ws[w]
		if s.sc == nil {
			s.sc = ix.getScorer()
		}
		for d := lo; d < hi; d++ {
			out[d], s.q = one(s.sc, d, s.q)
		}
		if progress != nil {
			c := int(done.Add(int64(hi - lo)))
			mu.Lock()
			progress(c)
			mu.Unlock()
		}
	})
	for _, s := range ws {
		if s.sc != nil {
			ix.putScorer(s.sc)
		}
	}
	return out
}
