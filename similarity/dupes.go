package similarity

// Pair is two cases that may describe the same incident.
type Pair struct {
	A, B int // positions in the index, ordered so that A's id < B's id
	// Score is the dupes score of the pair: Similarity discounted by the
	// date prior (Config.DupeDate), in [0, 1].
	Score float64
	// Similarity is the case-to-case similarity of the pair, as relate
	// scores it.
	Similarity float64
}

// Duplicates returns the pairs of cases whose dupes score ([Index.DupeScore])
// is at least threshold, most probable first, ties by the ids of A then B.
// Each case is paired with at most its k most probable duplicates (k ≤ 0
// means 10). progress is as for [Index.AllRelated].
func (ix *Index) Duplicates(threshold float64, k int, progress func(done int)) []Pair {
	if k <= 0 {
		k = 10
	}
	k = ix.clampK(k)
	all := ix.forEachCase(progress, func(sc *scorer, d int, q []qterm) ([]Hit, []qterm) {
		return ix.nearest(sc, d, k, threshold, q, ix.dupePrior)
	})
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
			// Scored again in one order, so that a pair found from both
			// sides gets one score.
			sim := ix.CaseSimilarity(x, y)
			if s := sim * ix.pairFactor(ix.dupePrior, x, y); s >= threshold {
				pairs = append(pairs, Pair{A: x, B: y, Score: s, Similarity: sim})
			}
		}
	}
	sortPairs(ix, pairs)
	return pairs
}

// DupeScore is the score dupes ranks a pair of cases by: their case-to-case
// similarity ([Index.CaseSimilarity]) times the date prior, 1 − w + w·exp(−Δ/τ)
// with w = Config.DupeDate, τ = Config.DupeDays and Δ the days between the
// two cases' dates. Two reports of one incident are written days apart, two
// similar incidents often years apart; the prior tells them apart where the
// text cannot. a and b are positions in the index.
func (ix *Index) DupeScore(a, b int) float64 {
	return ix.CaseSimilarity(a, b) * ix.pairFactor(ix.dupePrior, a, b)
}

// DupesOf returns the k cases most probably duplicates of the case at
// position doc, by [Index.DupeScore], scoring at least minScore, best first,
// ties by case id. It is what [Index.Duplicates] pairs each case with.
func (ix *Index) DupesOf(doc, k int, minScore float64) []Hit {
	return ix.nearestOf(doc, ix.clampK(k), minScore, ix.dupePrior)
}
