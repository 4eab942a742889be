package similarity

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// liveBar is the bar shared by the parts of a split search (searchParts):
// the largest lower bound of the k-th best score that any part has found so
// far. Each part's own bar is a lower bound of the k-th best of the whole
// search too, since its cases are some of all: so every part may prune
// with the best bar found anywhere, from the moment it is found, instead of
// only with its own, which rises from the k-th best of half the cases. The
// answer does not depend on when a part sees it: pruning by any lower bound
// keeps every case of the top k. A nil liveBar (a search in one piece)
// holds 0 and ignores raises.
type liveBar struct {
	bits atomic.Uint64
	// The exact scores the parts' case-to-case searches computed for their
	// bars (exactKth), the k best of them: with both parts' probes, their
	// k-th best is a bar for the whole search that neither part's own
	// probes give.
	mu    sync.Mutex
	exact topHeap
}

// load returns the bar.
func (b *liveBar) load() float64 {
	if b == nil {
		return 0
	}
	return math.Float64frombits(b.bits.Load())
}

// raise lifts the bar to x if x is above it.
func (b *liveBar) raise(x float64) {
	if b == nil {
		return
	}
	for {
		old := b.bits.Load()
		if math.Float64frombits(old) >= x || b.bits.CompareAndSwap(old, math.Float64bits(x)) {
			return
		}
	}
}

// syncBar takes the shared bar when it is above the pass's own, and shares
// the pass's own when it is above.
func (p *pass) syncBar() {
	if p.live == nil {
		return
	}
	if b := p.live.load(); b > p.theta {
		p.theta = b
	} else if p.theta > b {
		p.live.raise(p.theta)
	}
}

// offerExact adds the exact scores of the cases docs (their positions;
// scores[i] is docs[i]'s) to those the parts have offered, and returns the
// k-th best of all of them (0 when fewer than k): a lower bound of the k-th
// best score of the search. A case offered again (a part probes again) is
// counted once.
func (b *liveBar) offerExact(k int, docs []uint32, scores []float64) float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	h := &b.exact
	if h.h == nil {
		h.k, h.h = k, make([]Hit, 0, k)
	}
	for i, d := range docs {
		x := Hit{Doc: int(d), Score: scores[i]}
		if h.full() && !better(&x, h.worst()) {
			continue
		}
		if slices.ContainsFunc(h.h, func(y Hit) bool { return y.Doc == x.Doc }) {
			continue
		}
		h.push(x)
	}
	if !h.full() {
		return 0
	}
	return h.worst().Score
}
