package similarity

import (
	"slices"

	"github.com/caselink/caselink/similarity/par"
)

// Pair is two cases that may describe the same incident.
type Pair struct {
	A, B int // positions in the index, ordered so that A's id < B's id
	// Score is the dupes score of the pair ([Index.DupeScore]), in [0, 1].
	Score float64
	// Similarity is the case-to-case similarity of the pair, as relate
	// scores it.
	Similarity float64
	// Event is the score of the pair's same-event evidence, 0 when there
	// is none. The evidence itself is [Index.EventEvidence]: a library of
	// many near copies has millions of pairs, and only those shown need it.
	Event float64
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
	// Built here, not by the first worker: an index opened without its
	// cases reads them all for it, and a case it cannot read panics, which
	// a caller can recover on its own goroutine only.
	ix.events()
	// Each case's duplicates are kept as positions alone until every case
	// has its list: at a million cases, most of them near copies, the hits
	// themselves would hold gigabytes.
	all := forEachCase(ix, progress, func(sc *scorer, d int, q []qterm) ([]int32, []qterm) {
		hits, q := ix.dupesOf(sc, d, k, threshold, q)
		if len(hits) == 0 {
			return nil, q
		}
		docs := make([]int32, len(hits))
		for i, h := range hits {
			docs[i] = int32(h.Doc)
		}
		return docs, q
	})
	// Each pair is scored again in one order, so that a pair found from
	// both sides gets one score; on all cores, in chunks of cases whose
	// pairs are joined in order (the sort below fixes the order anyway).
	const chunk = 256
	parts := make([][]Pair, (len(all)+chunk-1)/chunk)
	par.For(len(all), chunk, func(_, lo, hi int) {
		var out []Pair
		for a := lo; a < hi; a++ {
			for _, b32 := range all[a] {
				b := int(b32)
				// A pair found from both sides is taken from the side of
				// the case whose id comes first.
				if ix.ids[b] < ix.ids[a] && slices.Contains(all[b], int32(a)) {
					continue
				}
				x, y := a, b
				if ix.ids[y] < ix.ids[x] {
					x, y = y, x
				}
				sim := ix.CaseSimilarity(x, y)
				ev := ix.evidence(x, y, false).Score
				if s := combine(ix.dupeText(x, y, sim), ev); s >= threshold {
					out = append(out, Pair{A: x, B: y, Score: s, Similarity: sim, Event: ev})
				}
			}
		}
		parts[lo/chunk] = out
	})
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	pairs := make([]Pair, 0, n)
	for i, p := range parts {
		pairs = append(pairs, p...)
		parts[i] = nil
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
//
// Two records of one organisation dated on different days keep half their
// text part (eventRepeat): a status page's notices are written from one
// template, and the same words another day are a repeat of the incident,
// not the same one.
func (ix *Index) DupeScore(a, b int) float64 {
	return combine(ix.dupeText(a, b, ix.CaseSimilarity(a, b)), ix.evidence(a, b, false).Score)
}

// dupeText is the text part of the dupes score of the cases at a and b of
// case-to-case similarity sim: sim times the date prior and the repeat
// factor.
func (ix *Index) dupeText(a, b int, sim float64) float64 {
	return sim * ix.pairFactor(ix.dupePrior, a, b) * ix.laterFactor(a, b)
}

// laterFactor is what dupeText keeps beyond the date prior of the two
// cases' dates, which the text search applies: the repeat factor, times,
// for an undated case whose incident cannot be of the other case's day
// (apart, event.go), the date prior of that distance.
func (ix *Index) laterFactor(a, b int) float64 {
	d := ix.apart(a, b)
	f := ix.repeatFactor(a, b, d)
	if d > 0 && ix.dupePrior != nil && (ix.day[a] == noDay || ix.day[b] == noDay) {
		f *= ix.dupePrior.tab[min(d, len(ix.dupePrior.tab)-1)]
	}
	return f
}

// repeatFactor is eventRepeat for two cases of one organisation (not a weak
// one) d > 0 days apart (apart: dated on different days, or one written up
// before the other's date); else 1.
func (ix *Index) repeatFactor(a, b, d int) float64 {
	if d <= 0 || ix.sharedOrg(a, b) < 0 {
		return 1
	}
	return eventRepeat
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
// case's block (same organisation, dates days apart), so the k best are
// among the text search's best and the block, each scored in full. The
// repeat factor lowers some of the text search's hits: while the k-th best
// score is below the last text score the search returned, a case it did
// not return might beat it, and the search is run again for four times as
// many. The result is exact.
func (ix *Index) dupesOf(sc *scorer, doc, k int, minScore float64, q []qterm) ([]Hit, []qterm) {
	blk := ix.block(doc, nil)
	var hits []Hit
	for want := k; ; want = min(4*want, len(ix.cases)) {
		hits, q = ix.nearest(sc, doc, want, minScore, q, ix.dupePrior, false)
		full := len(hits) == want && want < len(ix.cases)-1
		last := 0.0
		if len(hits) > 0 {
			last = hits[len(hits)-1].Score
		}
		hits = ix.rescoreDupes(doc, hits, blk, minScore, q)
		if !full || (len(hits) >= k && hits[k-1].Score > last) {
			break
		}
	}
	// A copy: after a search for many more than k, the hits' array is that
	// search's, and a caller that keeps the list (DupesOf's, or one of
	// every case) would keep its whole tail alive with it.
	return slices.Clone(hits[:min(k, len(hits))]), q
}

// rescoreDupes turns the text search's hits for the case at doc into dupes
// scores (the repeat factor, the same-event evidence), adds the cases of
// its block, and sorts them. q is the case's query vector.
func (ix *Index) rescoreDupes(doc int, hits []Hit, blk []int32, minScore float64, q []qterm) []Hit {
	out := hits[:0]
	for _, h := range hits {
		if _, in := slices.BinarySearch(blk, int32(h.Doc)); in {
			continue // scored in full below
		}
		if r := ix.laterFactor(doc, h.Doc); r != 1 {
			h.Score *= r
			h.First = h.Score
			if h.Score < minScore || h.Score <= 0 {
				continue
			}
		}
		out = append(out, h)
	}
	for _, x := range blk {
		t := ix.dupeText(doc, int(x), ix.exact(q, int(x), ix.rel))
		if s := combine(t, ix.evidence(doc, int(x), false).Score); s > 0 && s >= minScore {
			out = append(out, Hit{Doc: int(x), ID: ix.ids[x], Score: s, First: s})
		}
	}
	sortHits(out)
	return out
}

// ExplainDupe explains the case-to-case score of the cases at positions a
// and b, the cosine dupes reads ([Index.CaseSimilarity]; relate's
// [Index.ExplainPair] also reads a title against a body), with each term
// spelled as case a writes it (a term of the library spelled otherwise
// elsewhere is given in a's words, not in those of the first case the
// library saw it in).
func (ix *Index) ExplainDupe(a, b int) Explanation {
	var ex Explanation
	ix.addShared(&ex, ix.caseQuery(a, ix.rel, nil), b, ix.rel, 1, "")
	ex.Query = ex.Score
	ix.labelParts(&ex, 0, a, nil, nil)
	ex.finish()
	return ex
}
