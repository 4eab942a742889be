package similarity

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Hit is one similar case.
type Hit struct {
	Doc   int     // position of the case in the index
	ID    string  // case id
	Score float64 // similarity in [0, 1]
	// First is the first-pass score of a match hit re-ranked by the second
	// stage; equal to Score otherwise.
	First float64
	// Stage says where a match hit came from: "query" (the first pass) or
	// "expand" (brought in by the second stage as a neighbour of the best hit).
	Stage string
}

// better reports whether hit a ranks before hit b: higher score first, ties
// by case id.
func better(a, b *Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.ID < b.ID
}

// sortHits orders hits best first, ties by case id.
func sortHits(h []Hit) {
	slices.SortFunc(h, func(a, b Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// clampK limits a requested number of hits to the size of the library, so
// that a huge k neither allocates for hits that cannot exist nor overflows
// (k + a margin) inside the search. Every public entry point that takes a k
// clamps it.
func (ix *Index) clampK(k int) int { return min(k, len(ix.cases)) }

// topHeap keeps the k best hits seen so far; its root is the worst of them.
// It is the engine's one bounded heap: the top k of a search, and the k-th
// best partial score (kthLowerBound, whose hits carry only a score). It is
// written for Hit rather than as a generic heap with the order as a type
// parameter: Go calls a type parameter's method through a dictionary, not
// inline, and that form measured several times slower per push.
type topHeap struct {
	k int
	h []Hit
}

func (t *topHeap) worst() *Hit { return &t.h[0] }

// full reports whether the heap holds k hits.
func (t *topHeap) full() bool { return len(t.h) >= t.k }

// push offers a hit; it is kept when it ranks among the k best.
func (t *topHeap) push(x Hit) {
	if t.k <= 0 {
		return
	}
	if len(t.h) < t.k {
		t.h = append(t.h, x)
		t.up(len(t.h) - 1)
		return
	}
	if !better(&x, &t.h[0]) {
		return
	}
	t.h[0] = x
	t.down(0)
}

func (t *topHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !better(&t.h[p], &t.h[i]) {
			break
		}
		t.h[p], t.h[i] = t.h[i], t.h[p]
		i = p
	}
}

func (t *topHeap) down(i int) {
	n := len(t.h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		w := l
		if r := l + 1; r < n && better(&t.h[l], &t.h[r]) {
			w = r
		}
		if !better(&t.h[i], &t.h[w]) {
			return
		}
		t.h[i], t.h[w] = t.h[w], t.h[i]
		i = w
	}
}

// sortPairs orders pairs most similar first, ties by the ids of A then B.
func sortPairs(ix *Index, p []Pair) {
	slices.SortFunc(p, func(a, b Pair) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		if c := strings.Compare(ix.ids[a.A], ix.ids[b.A]); c != 0 {
			return c
		}
		return strings.Compare(ix.ids[a.B], ix.ids[b.B])
	})
}

// RoundScore rounds a score to the 4 decimals caselink prints and serves:
// enough to rank by, and stable to print.
func RoundScore(x float64) float64 { return math.Round(x*1e4) / 1e4 }
