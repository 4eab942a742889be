package similarity

import (
	"cmp"
	"math"
	"slices"
)

// Query is a pasted text to match against the library.
type Query struct {
	Text     string   // what the on-call engineer sees: alert lines, errors, a message
	K        int      // how many hits to return (at least 1)
	MinScore float64  // drop hits scoring below this
	Exclude  []string // case ids never to return
	// Candidates, when set, are the only cases ranked (re-rank mode), and
	// all of them come back (up to K, above MinScore): ties, and candidates
	// sharing nothing with the paste, keep the order given here.
	Candidates []string
	Filter     Filter
}

// Result is the answer to a [Query]: the hits, best first, and what the
// second stage did, which [Index.ExplainMatch] needs to explain a hit.
type Result struct {
	Hits []Hit
	// Expanded holds the position of the best first-pass hit, which the
	// second stage re-ranked by (empty when it did not run), and
	// ExpandedWeight that hit's first-pass score: a case's second-stage
	// score is ExpandedWeight[0]·sim(case, Expanded[0]).
	Expanded       []int
	ExpandedWeight []float64
	// ExpandWeight is the weight e the second stage got for this query
	// (Config.Expand; 0 when it did not run): a hit's score is (1−e) times
	// its paste score plus e times its second-stage score.
	ExpandWeight float64

	paste  paste
	likeID string // case id of Expanded[0]
}

// Split says how much of a hit's score came from the paste itself and how
// much from the second stage, as the similarity of the hit to the best hit
// (like, that hit's case id; "" when the second stage did not move it).
// The two parts sum to the hit's score. The best hit's score is its own
// paste score, so it is all paste.
func (r *Result) Split(h Hit) (paste, neighbour float64, like string) {
	if r.ExpandWeight == 0 || len(r.Expanded) == 0 || h.Doc == r.Expanded[0] {
		return h.Score, 0, ""
	}
	paste = (1 - r.ExpandWeight) * h.First
	return paste, max(h.Score-paste, 0), r.likeID
}

// paste is an analyzed pasted text as a query vector.
type paste struct {
	q       []qterm           // sorted by key
	surface map[uint32]string // canonical id → the paste's own spelling
	tags    []uint32          // inferred tags, canonical ids

	typos map[uint32]typoFix // canonical id → how a misspelt word was read as it
}

// analyzePaste turns text into a query vector spread over the text views
// with the Config.Query weights, plus the inferred tags.
//
// Each term weighs (1 + ln tf)·idf, divided by the sum over the paste, so
// that a weight is the term's share of the paste; terms the library has never
// seen count in the sum, so a paste that is mostly unknown words scores low.
// A case's text views hold saturated term frequencies (see saturate), so a
// paste's score against a view is BM25 divided by the paste's best possible
// BM25 score, and lies in [0, 1].
//
// An inferred tag weighs what its evidence weighs: the share of the paste
// that its words carry. A tag inferred from one common word of a long paste
// counts for little; a paste that is nothing but "OOMKilled" gives
// symptom:oom-killed its whole weight.
func (ix *Index) analyzePaste(text string) paste {
	p := paste{surface: make(map[uint32]string)}
	terms := ix.an.Analyze(text)
	p.typos = ix.fixTypos(terms)
	tf := make(map[string]int, len(terms))
	for _, t := range terms {
		tf[t.Text]++
	}
	n := len(ix.cases)
	var norm float64
	weight := make(map[string]float64, len(tf)) // analyzed term → its weight
	for term, c := range tf {
		w := 1 + math.Log(float64(c))
		if canon := ix.canonOf(term); canon == 0 {
			w *= idf(n, 0)
		} else {
			w *= float64(ix.idf[canon-1])
			if f, ok := p.typos[canon-1]; ok {
				w *= typoWeight[f.edits]
			}
		}
		weight[term] = w
		norm += w
	}
	if norm == 0 {
		return p
	}
	for term, w := range weight {
		weight[term] = w / norm
	}
	for _, t := range terms {
		if c := ix.canonOf(t.Text); c != 0 {
			if _, ok := p.surface[c-1]; !ok {
				p.surface[c-1] = t.Surface
			}
		}
	}
	for term, w := range weight {
		canon := ix.canonOf(term)
		if canon == 0 {
			continue
		}
		for v := range textViews {
			if qw := ix.pasteViews[v]; qw > 0 {
				p.q = append(p.q, qterm{ix.key(canon-1, View(v)), float32(qw * w)})
			}
		}
	}
	if ix.cfg.InferTags && ix.pasteViews[Tags] > 0 {
		var tags []qterm
		var t2 float64
		for _, r := range ix.inferTags(weight) {
			var e float64
			for _, x := range r.words {
				e += weight[x]
			}
			tags = append(tags, qterm{ix.key(r.canon, Tags), float32(e)})
			p.tags = append(p.tags, r.canon)
			t2 += e * e
		}
		// Several tags may rest on the same words: the tag part never
		// weighs more than the paste itself.
		scale := ix.pasteViews[Tags] / max(1, math.Sqrt(t2))
		for _, t := range tags {
			p.q = append(p.q, qterm{t.key, float32(scale * float64(t.w))})
		}
	}
	slices.SortFunc(p.q, func(a, b qterm) int { return cmp.Compare(a.key, b.key) })
	return p
}

// canonOf returns the canonical id + 1 of an analyzed term, 0 when unused.
func (ix *Index) canonOf(term string) uint32 {
	r, ok := ix.voc.ids[term]
	if !ok || int(r) >= len(ix.canon) {
		return 0
	}
	return ix.canon[r]
}

// accept returns the case filter of a query, nil when it keeps every case.
func (ix *Index) accept(exclude []string, f Filter) func(int) bool {
	if len(exclude) == 0 && f.IsZero() {
		return nil
	}
	ex := make(map[int]bool, len(exclude))
	for _, id := range exclude {
		if d, ok := ix.byID[id]; ok {
			ex[d] = true
		}
	}
	return func(d int) bool { return !ex[d] && ix.Keeps(f, d) }
}

// Match ranks the cases of the library against a pasted text. Hits are best
// first, ties by case id; scores are in [0, 1].
func (ix *Index) Match(q Query) *Result {
	k := ix.clampK(max(q.K, 1))
	res := &Result{paste: ix.analyzePaste(q.Text)}
	accept := ix.accept(q.Exclude, q.Filter)
	expand := ix.cfg.Expand > 0 && (q.Candidates == nil || ix.cfg.RerankExpand)
	pool := k
	if expand {
		pool = max(k, ix.cfg.ExpandPool)
	}
	var first []Hit
	if q.Candidates != nil {
		first = ix.rerank(res.paste.q, q.Candidates, accept)
	} else {
		minScore := q.MinScore
		if expand {
			minScore = 0
		}
		first = ix.search(&search{q: res.paste.q, k: pool, minScore: minScore, accept: accept})
	}
	hits := first
	if expand && len(first) > 0 {
		hits = ix.expand(res, first, k, pool, accept, q.Candidates != nil)
	}
	if q.Candidates != nil {
		// A re-rank returns every candidate it was given: the list is itself
		// a ranking, so ties, candidates sharing nothing with the paste
		// among them, keep the order they were given in.
		order := make(map[int]int, len(q.Candidates))
		for i, id := range q.Candidates {
			if d, ok := ix.byID[id]; ok {
				if _, dup := order[d]; !dup {
					order[d] = i
				}
			}
		}
		slices.SortFunc(hits, func(a, b Hit) int {
			if a.Score != b.Score {
				return cmp.Compare(b.Score, a.Score)
			}
			return cmp.Compare(order[a.Doc], order[b.Doc])
		})
		hits = slices.DeleteFunc(hits, func(h Hit) bool { return h.Score < q.MinScore })
	} else {
		hits = slices.DeleteFunc(hits, func(h Hit) bool { return h.Score < q.MinScore || h.Score <= 0 })
		hits = ix.capOrgs(hits, q.Text)
	}
	if len(hits) > k {
		hits = hits[:k]
	}
	res.Hits = hits
	return res
}

// rerank scores only the candidate cases (unknown ids are skipped).
func (ix *Index) rerank(q []qterm, candidates []string, accept func(int) bool) []Hit {
	var hits []Hit
	seen := make(map[int]bool, len(candidates))
	for _, id := range candidates {
		d, ok := ix.byID[id]
		if !ok || seen[d] || (accept != nil && !accept(d)) {
			continue
		}
		seen[d] = true
		s := ix.exact(q, d, nil)
		hits = append(hits, Hit{Doc: d, ID: id, Score: s, First: s, Stage: "query"})
	}
	sortHits(hits)
	return hits
}

// expand is the second stage of match: it re-ranks the first-pass hits, and
// the best hit's nearest neighbours, by a blend of their paste score and
// their similarity to the best hit's full case vector (tags included), with
// a weight that depends on how sure the first pass is (expandWeight).
func (ix *Index) expand(res *Result, first []Hit, k, pool int, accept func(int) bool, rerankOnly bool) []Hit {
	e := ix.cfg.Expand
	best := first[0]
	if e <= 0 || best.Score <= 0 {
		return first
	}
	srcQ := ix.caseQuery(best.Doc, ix.exp, nil)
	sims := make([]float64, len(first))
	sim := func(i int) {
		sims[i] = ix.exact(srcQ, first[i].Doc, ix.exp)
	}
	if len(first) > 1 {
		sim(1) // the rival's, which expandWeight needs
	}
	if e = ix.cfg.expandWeight(first, sims); e <= 0 {
		return first
	}
	for i := 2; i < len(first); i++ {
		sim(i)
	}
	sims[0] = 1
	res.ExpandWeight = e
	// A case's similarity to the best hit counts in proportion to how well
	// that hit matched the paste: s(best)·sim(case, best) estimates the
	// case's similarity to the paste through the best hit, so the best hit
	// keeps its own score and a weak first pass lends little.
	res.Expanded = []int{best.Doc}
	res.likeID = best.ID
	res.ExpandedWeight = []float64{best.Score}
	final := func(h *Hit, sim float64) {
		if h.Doc == best.Doc {
			return // the best hit keeps its own paste score
		}
		h.Score = min(max((1-e)*h.First+e*best.Score*sim, 0), 1)
	}
	out := make([]Hit, len(first), len(first)+pool)
	seen := make(map[int]bool, len(first)+pool)
	for i, h := range first {
		h.Stage = "query"
		final(&h, sims[i])
		out[i] = h
		seen[h.Doc] = true
	}
	if !rerankOnly {
		// A neighbour joins the list only if its final score reaches the
		// k-th of the first-pass hits': one below could still be shown,
		// lifted into the top by the org cap (orgcap.go), and whether it is
		// must not depend on how far down the search below looked.
		fk := kthScore(out, k)
		if minSim := ix.neighbourBar(res, fk, first, pool); minSim <= 1 {
			near := ix.search(&search{q: srcQ, prof: ix.exp, k: pool, minScore: minSim, accept: accept})
			for _, h := range near {
				if !seen[h.Doc] {
					s := ix.exact(res.paste.q, h.Doc, nil)
					x := Hit{Doc: h.Doc, ID: h.ID, Score: s, First: s, Stage: "expand"}
					final(&x, ix.exact(srcQ, h.Doc, ix.exp))
					if x.Score >= fk {
						out = append(out, x)
					}
				}
			}
		}
	}
	sortHits(out)
	return out
}

// kthScore returns the k-th best score of hits (0 when there are fewer).
func kthScore(hits []Hit, k int) float64 {
	if len(hits) < k {
		return 0
	}
	s := make([]float64, len(hits))
	for i, h := range hits {
		s[i] = h.Score
	}
	slices.Sort(s)
	return s[len(s)-k]
}

// expandWeight returns the weight e of the second stage for a first pass
// whose hits have similarities sims to the best one: Config.Expand, scaled
// by how sure the first pass is that its best hit is the one to lean on.
// The second hit is its rival in proportion to how unlike the best it is,
// s2·(1 − sim(best, second)): a best hit that stands ExpandGap times above
// its rival gets the whole weight, one that scores alike with a different
// case gets none (the first pass has not told which of the two is right,
// and leaning the list on a wrong one would drag it), and one whose close
// second is a case like itself keeps the whole weight, since both point the
// same way.
func (c Config) expandWeight(first []Hit, sims []float64) float64 {
	e := c.Expand
	if c.ExpandGap <= 1 || len(first) < 2 {
		return e
	}
	rival := first[1].Score * (1 - sims[1])
	if rival <= 0 {
		return e
	}
	sure := (first[0].Score/rival - 1) / (c.ExpandGap - 1)
	return e * min(1, max(0, sure))
}

// neighbourBar returns the least similarity to the best hit that a case
// outside the first pass needs to reach the final score fk of the k-th
// best first-pass hit: its own first-pass score is at most the pool's last,
// and its similarity to the best hit at most 1. Searching for neighbours
// above it finds every neighbour that can join the list, with far less
// pruning work than searching for all of them.
func (ix *Index) neighbourBar(res *Result, fk float64, first []Hit, pool int) float64 {
	if ix.opts.noNeighbourBar || fk <= 0 {
		return 0
	}
	var outside float64 // first-pass score bound of the cases not in first
	if len(first) >= pool {
		outside = first[len(first)-1].Score
	}
	e := res.ExpandWeight
	bar := (fk - (1-e)*outside) / (e * res.ExpandedWeight[0])
	return max(0, bar-slack)
}

// Related returns the k cases most similar to the case at position doc
// (itself excluded), best first, ties by case id. The score is the
// case-to-case similarity (for a record written as a title and a body,
// read across views too: Config.CrossViews) times the mild date prior of
// relate (Config.RelateDate), which favours cases of the same weeks.
func (ix *Index) Related(doc, k int, minScore float64) []Hit {
	sc := ix.getScorer()
	defer ix.putScorer(sc)
	hits, _ := ix.nearest(sc, doc, ix.clampK(k), minScore, nil, ix.relPrior, true)
	return hits
}

// nearest returns the k cases nearest the case at position doc by
// case-to-case score (relate's when relate is true, see nearSearch) times
// the date prior (nil for none), reusing q's storage for the case's query,
// which it returns for the next call.
func (ix *Index) nearest(sc *scorer, doc, k int, minScore float64, q []qterm, prior *datePrior, relate bool) ([]Hit, []qterm) {
	s := ix.nearSearch(doc, k, minScore, q, prior, relate)
	return ix.run(sc, &s), s.q
}

// nearSearch is the search nearest runs for the case at position doc, its
// query built in q's storage: relate's (relQuery) when relate is true, else
// the plain case-to-case query (caseQuery) of dupes, whose text part is the
// cosine alone.
func (ix *Index) nearSearch(doc, k int, minScore float64, q []qterm, prior *datePrior, relate bool) search {
	if relate {
		q = ix.relQuery(doc, q[:0])
	} else {
		q = ix.caseQuery(doc, ix.rel, q[:0])
	}
	return search{q: q, prof: ix.rel, k: k, minScore: minScore,
		dated: ix.datedFrom(prior, doc), accept: func(d int) bool { return d != doc }}
}
