// Package par is caselink's one worker pool: it spreads a loop over [0, n)
// across the cores in chunks. Building an index, all-pairs searches, the
// eval runner and batch matching all use it, so how work is split, how many
// goroutines run and how a worker keeps its own scratch space is decided in
// one place.
//
// Nothing here knows about cases or scores; results are the caller's, stored
// by position, so they never depend on how many cores there are.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers returns how many workers [For] starts for n items in chunks of
// chunk: one per core (GOMAXPROCS), but no more than there are chunks, and
// at least 1. Callers that keep scratch space per worker size it with this.
func Workers(n, chunk int) int {
	chunk = max(chunk, 1)
	return max(1, min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk))
}

// For calls f(w, lo, hi) for consecutive chunks [lo, hi) of [0, n), each of
// chunk items (the last may be shorter), and returns when all are done.
// Chunks are handed out in order to [Workers](n, chunk) goroutines as they
// become free, so uneven chunks balance; w (0 ≤ w < Workers(n, chunk)) names
// the worker that runs a chunk: calls with the same w never overlap, so
// f may use scratch space indexed by w without locks. With one worker, f
// runs on the calling goroutine.
func For(n, chunk int, f func(w, lo, hi int)) {
	chunk = max(chunk, 1)
	workers := Workers(n, chunk)
	if workers == 1 {
		for lo := 0; lo < n; lo += chunk {
			f(0, lo, min(n, lo+chunk))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				f(w, lo, min(n, lo+chunk))
			}
		}()
	}
	wg.Wait()
}

// Each calls f(i) for every i in [0, n) on all cores, one item at a time:
// for items that each take long (a query, a judged set).
func Each(n int, f func(i int)) {
	For(n, 1, func(_, i, _ int) { f(i) })
}
