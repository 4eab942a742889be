package similarity

import (
	"math"
	"time"
)

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
			if s := sim * ix.dateFactor(x, y); s >= threshold {
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
	return ix.CaseSimilarity(a, b) * ix.dateFactor(a, b)
}

// DupesOf returns the k cases most probably duplicates of the case at
// position doc, by [Index.DupeScore], scoring at least minScore, best first,
// ties by case id. It is what [Index.Duplicates] pairs each case with.
func (ix *Index) DupesOf(doc, k int, minScore float64) []Hit {
	sc := ix.getScorer()
	defer ix.putScorer(sc)
	hits, _ := ix.dupesOf(sc, doc, k, minScore, nil)
	return hits
}

// dupesOf searches the nearest cases by similarity, deeper until the last
// one found scores below the k-th dupes score: the date prior never raises
// a score, so no case further down can reach the top k. The result is exact.
func (ix *Index) dupesOf(sc *scorer, doc, k int, minScore float64, q []qterm) ([]Hit, []qterm) {
	k = max(k, 1)
	q = ix.caseQuery(doc, ix.rel, q[:0])
	for depth := 4 * k; ; depth *= 4 {
		near := ix.run(sc, &search{q: q, prof: ix.rel, k: depth, minScore: minScore,
			accept: func(x int) bool { return x != doc }})
		hits := make([]Hit, 0, len(near))
		for _, h := range near {
			h.Score *= ix.dateFactor(doc, h.Doc)
			h.First = h.Score
			if h.Score >= minScore {
				hits = append(hits, h)
			}
		}
		sortHits(hits)
		if len(near) < depth || (len(hits) >= k && near[len(near)-1].Score < hits[k-1].Score) {
			if len(hits) > k {
				hits = hits[:k]
			}
			return hits, q
		}
	}
}

// dateFactor is the date prior of the pair (a, b), in [1 − DupeDate, 1]; 1
// when the prior is off or either case has no date.
func (ix *Index) dateFactor(a, b int) float64 {
	w, tau := ix.cfg.DupeDate, ix.cfg.DupeDays
	if w <= 0 || tau <= 0 {
		return 1
	}
	da, ok := dayNumber(ix.cases[a].Date)
	db, ok2 := dayNumber(ix.cases[b].Date)
	if !ok || !ok2 {
		return 1
	}
	w = min(w, 1)
	return 1 - w + w*math.Exp(-math.Abs(float64(da-db))/tau)
}

// dayNumber returns the day of a date that starts with YYYY-MM-DD (a time
// may follow) as a count of days, for differences between dates; ok is
// false for anything else. It does not allocate.
func dayNumber(s string) (day int, ok bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' || (len(s) > 10 && s[10] != 'T' && s[10] != ' ') {
		return 0, false
	}
	num := func(t string) (int, bool) {
		n := 0
		for i := 0; i < len(t); i++ {
			c := t[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(s[:4])
	m, ok2 := num(s[5:7])
	d, ok3 := num(s[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, false
	}
	return int(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400), true
}
