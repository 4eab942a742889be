package similarity

import "slices"

// Pair is two cases that may describe the same incident.
type Pair struct {
	A, B int // positions in the index, ordered so that A's id < B's id
	// Score is the dupes score of the pair ([Index.DupeScore]), in [0, 1].
	Score float64
	// Similarity is the case-to-case similarity of the pair, as relate
	// scores it.
	Similarity float64
	// Event is the pair's same-event evidence; Event.Score is 0 when there
	// is none.
	Event EventEvidence
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
		return ix.dupesOf(sc, d, k, threshold, q)
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
			ev := ix.evidence(x, y, true)
			if s := combine(sim*ix.pairFactor(ix.dupePrior, x, y), ev.Score); s >= threshold {
				pairs = append(pairs, Pair{A: x, B: y, Score: s, Similarity: sim, Event: ev})
			}
		}
	}
	sortPairs(ix, pairs)
	return pairs
}

// combine joins the text score t and the same-event score e as a noisy-or,
// 1 − (1 − t)(1 − e): either alone can make a pair a probable duplicate,
// both together more so, and the result is never below t.
func combine(t, e float64) float64 {
	if e <= 0 {
		return t
	}
	return min(1, 1-(1-t)*(1-e))
}

// DupeScore is the score dupes ranks a pair of cases by. Its text part is
// their case-to-case similarity ([Index.CaseSimilarity]) times the date
// prior, 1 − w + w·exp(−Δ/τ) with w = Config.DupeDate, τ = Config.DupeDays
// and Δ the days between the two cases' dates: two reports of one incident
// are written days apart, two similar incidents often years apart. Its
// same-event part ([Index.EventEvidence]) counts for cases of one
// organisation dated days apart, when the shorter text is found inside the
// longer one. The two are joined as 1 − (1 − text)(1 − event), in [0, 1].
// a and b are positions in the index.
func (ix *Index) DupeScore(a, b int) float64 {
	t := ix.CaseSimilarity(a, b) * ix.pairFactor(ix.dupePrior, a, b)
	return combine(t, ix.evidence(a, b, false).Score)
}

// EventEvidence returns the same-event evidence of the cases at positions a
// and b, as [Index.DupeScore] counts it.
func (ix *Index) EventEvidence(a, b int) EventEvidence { return ix.evidence(a, b, true) }

// DupesOf returns the k cases most probably duplicates of the case at
// position doc, by [Index.DupeScore], scoring at least minScore (and above
// 0), best first, ties by case id. It is what [Index.Duplicates] pairs each
// case with.
func (ix *Index) DupesOf(doc, k int, minScore float64) []Hit {
	sc := ix.getScorer()
	defer ix.putScorer(sc)
	hits, _ := ix.dupesOf(sc, doc, ix.clampK(k), minScore, nil)
	return hits
}

// dupesOf is DupesOf with the scorer and query buffer of a worker. The text
// part is found by the pruned search; the same-event part is 0 outside the
// case's block (same organisation, dates days apart), and the dupes score
// is never below the text part, so the k best are among the text search's k
// best and the block, each scored in full: the result is exact.
func (ix *Index) dupesOf(sc *scorer, doc, k int, minScore float64, q []qterm) ([]Hit, []qterm) {
	hits, q := ix.nearest(sc, doc, k, minScore, q, ix.dupePrior)
	blk := ix.block(doc, nil)
	if len(blk) == 0 {
		return hits, q
	}
	// score is DupeScore(doc, x), the case's query vector q built once.
	score := func(x int) float64 {
		t := ix.exact(q, x, ix.rel) * ix.pairFactor(ix.dupePrior, doc, x)
		return combine(t, ix.evidence(doc, x, false).Score)
	}
	for i := range hits {
		if _, in := slices.BinarySearch(blk, int32(hits[i].Doc)); in {
			hits[i].Score = score(hits[i].Doc)
			hits[i].First = hits[i].Score
		}
	}
	for _, x := range blk {
		if slices.ContainsFunc(hits, func(h Hit) bool { return h.Doc == int(x) }) {
			continue
		}
		if s := score(int(x)); s > 0 && s >= minScore {
			id := ix.cases[x].ID
			hits = append(hits, Hit{Doc: int(x), ID: id, Score: s, First: s})
		}
	}
	sortHits(hits)
	return hits[:min(k, len(hits))], q
}
