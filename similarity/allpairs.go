package similarity

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// AllRelated returns, for every case in library order, its k most similar
// other cases scoring at least minScore, best first, ties by case id. The
// work is spread over all cores; the result does not depend on how many
// there are. progress, when not nil, is called now and then with the number
// of cases done so far (from several goroutines, never concurrently).
func (ix *Index) AllRelated(k int, minScore float64, progress func(done int)) [][]Hit {
	n := len(ix.cases)
	out := make([][]Hit, n)
	var next, done atomic.Int64
	var mu sync.Mutex
	const chunk = 64
	workers := min(runtime.GOMAXPROCS(0), max(1, n/chunk))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := ix.getScorer()
			defer ix.putScorer(sc)
			var q []qterm
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n {
					return
				}
				hi := min(n, lo+chunk)
				for d := lo; d < hi; d++ {
					q = ix.caseQuery(d, ix.rel, q[:0])
					out[d] = ix.run(sc, &search{q: q, prof: ix.rel, k: k, minScore: minScore,
						accept: func(x int) bool { return x != d }})
				}
				if progress != nil {
					c := int(done.Add(int64(hi - lo)))
					mu.Lock()
					progress(c)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// Pair is two cases that may describe the same incident.
type Pair struct {
	A, B  int     // positions in the index, ordered so that A's id < B's id
	Score float64 // case-to-case similarity
}

// Duplicates returns the pairs of cases scoring at least threshold with each
// other, most similar first, ties by the ids of A then B. Each case is paired
// with at most its k nearest neighbours (k ≤ 0 means 10).
func (ix *Index) Duplicates(threshold float64, k int, progress func(done int)) []Pair {
	if k <= 0 {
		k = 10
	}
	all := ix.AllRelated(k, threshold, progress)
	seen := make(map[[2]int]bool)
	var pairs []Pair
	for a, hits := range all {
		for _, h := range hits {
			x, y := a, h.Doc
			if ix.cases[y].ID < ix.cases[x].ID {
				x, y = y, x
			}
			if seen[[2]int{x, y}] {
				continue
			}
			seen[[2]int{x, y}] = true
			if s := ix.CaseSimilarity(x, y); s >= threshold {
				pairs = append(pairs, Pair{A: x, B: y, Score: s})
			}
		}
	}
	sortPairs(ix, pairs)
	return pairs
}
