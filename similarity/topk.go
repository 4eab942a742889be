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

// sortPairs orders pairs most similar first, ties by the ids of A then B.
func sortPairs(ix *Index, p []Pair) {
	slices.SortFunc(p, func(a, b Pair) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		if c := strings.Compare(ix.cases[a.A].ID, ix.cases[b.A].ID); c != 0 {
			return c
		}
		return strings.Compare(ix.cases[a.B].ID, ix.cases[b.B].ID)
	})
}

// RoundScore rounds a score to the 4 decimals caselink prints and serves:
// enough to rank by, and stable to print.
func RoundScore(x float64) float64 { return math.Round(x*1e4) / 1e4 }
