package similarity

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// pairBars is what an all-pairs run (AllRelated) has learnt so far that can
// start a case's search with a high bar. Case-to-case scores are symmetric
// (the same profile on both sides, and the date prior depends only on the
// gap), so when case i finds j among its best, the cases near i are likely
// near j too: j's search first scores those exactly, and the k-th best of
// them is a lower bound of j's k-th best, which the search starts with as
// its bar instead of the score floor. A case that no search has found yet
// takes its bar from the cases sharing its heaviest terms instead, its likely
// nearest neighbours (heavyNear). The bound holds whatever was found
// before and in whichever order the workers ran, so the answer is the
// exact top k however the work was split.
type pairBars struct {
	ix *Index
	// found holds each case's hits once its search is done (nil before).
	found []atomic.Pointer[[]Hit]
	// partner is, for each case, the case that found it with the highest
	// score so far, packed as float32 score bits << 32 | position + 1
	// (0: none yet), so that the best is kept with one compare-and-swap.
	partner []atomic.Uint64
	bufs    sync.Pool // *pairBarBuf, a worker's scratch
}

// pairBarBuf is the scratch of one bar: the candidates' positions and
// scores, and the keys and postings heavyNear reads.
type pairBarBuf struct {
	cands  []int
	scores []float64
	keys   []qterm
	docs   [2][]uint32
}

func (ix *Index) newPairBars() *pairBars {
	n := len(ix.cases)
	return &pairBars{ix: ix, found: make([]atomic.Pointer[[]Hit], n), partner: make([]atomic.Uint64, n)}
}

// publish records the hits of case d's search, for the searches after it.
func (pb *pairBars) publish(d int, hits []Hit) {
	pb.found[d].Store(&hits)
	for _, h := range hits {
		if h.Score <= 0 {
			continue
		}
		key := uint64(math.Float32bits(float32(h.Score)))<<32 | uint64(d+1)
		p := &pb.partner[h.Doc]
		for old := p.Load(); key > old && !p.CompareAndSwap(old, key); old = p.Load() {
		}
	}
}

// bar returns a lower bound of the k-th best score of case d's search s,
// from the cases near its best partner (the partner, its hits and theirs),
// or, when no search before found d, from the cases that share its heaviest
// terms (heavyNear), each scored from its vector with sc's dense query
// weights; 0 when fewer than k of them are known.
func (pb *pairBars) bar(sc *scorer, s *search, d int) float64 {
	b, _ := pb.bufs.Get().(*pairBarBuf)
	if b == nil {
		b = new(pairBarBuf)
	}
	defer pb.bufs.Put(b)
	if p := pb.partner[d].Load(); p != 0 {
		b.cands = pb.near(int(uint32(p))-1, d, b.cands[:0])
	} else {
		pb.heavyNear(s, d, b)
	}
	return pb.kth(sc, s, b)
}

// kth returns the k-th best score of s among b's candidates (distinct
// cases), lowered by a margin; 0 when fewer than k of them are accepted.
// The scores are float32 dot products of the candidates' vectors with the
// query spread densely, cheaper than the merge of two sorted vectors that
// Index.exact is (a heavy-term bar scores hundreds of cases); the margin
// keeps the bound below the exact scores the search ends with.
func (pb *pairBars) kth(sc *scorer, s *search, b *pairBarBuf) float64 {
	if len(b.cands) < s.k {
		return 0
	}
	ix := pb.ix
	scores := b.scores[:0]
	sc.spread(ix, s.q)
	for _, x := range b.cands {
		if s.accept != nil && !s.accept(x) {
			continue
		}
		v := ix.dotDense(sc.dense, x, s.prof.w) * float64(s.prof.scale[x])
		if s.dated != nil {
			v *= s.dated.factor(x)
		}
		// A float32 sum of non-negative products is within a relative
		// 1e-5 of the exact one for vectors of a few hundred terms.
		scores = append(scores, min(v, 1)*(1-1e-4))
	}
	sc.unspread(s.q)
	b.scores = scores
	if len(scores) < s.k {
		return 0
	}
	slices.SortFunc(scores, func(a, b float64) int { return cmp.Compare(b, a) })
	return scores[s.k-1]
}

// near appends to c the partner i, its hits and their hits, each once,
// leaving out d.
func (pb *pairBars) near(i, d int, c []int) []int {
	c = append(c, i)
	hi := pb.found[i].Load()
	if hi == nil {
		return c
	}
	for _, h := range *hi {
		c = append(c, h.Doc)
		if hj := pb.found[h.Doc].Load(); hj != nil {
			for _, h2 := range *hj {
				c = append(c, h2.Doc)
			}
		}
	}
	slices.Sort(c)
	c = slices.Compact(c)
	return slices.DeleteFunc(c, func(x int) bool { return x == d })
}

// Bounds of heavyNear's look-up: it scores at most heavyCands candidates,
// narrows them by a term only while at least heavyMin remain, and passes
// over the terms of more than heavyPostings postings (the common words,
// whose postings would cost more to read than the search they shorten).
// A candidate's score is a dot product of some fifty terms, far less than
// the tens of thousands of postings a search from the score floor reads at
// a million cases (eval/notes/relate-million.md).
const (
	heavyCands    = 512
	heavyMin      = 64
	heavyPostings = 1 << 16
)

// heavyNear sets b.cands to the candidates of a case d that no search has
// found yet, from the postings of its terms, heaviest first (largest weight
// in s's query): while they are fewer than heavyMin (or k+1), the next
// term's cases are added; while they are more than heavyCands, they are
// narrowed to those also in the next term's postings, unless that would
// leave too few; at most heavyCands (or k+1; the first of them) are kept,
// d left out. A case's nearest neighbours share the terms that weigh most
// in it. Its rarest terms, which the bar used to read first, are as often
// its own words (a typo, an id, an edit of a near copy) that a few
// unrelated cases happen to use, and gave a bar far under the k-th best.
func (pb *pairBars) heavyNear(s *search, d int, b *pairBarBuf) {
	ix := pb.ix
	keys := append(b.keys[:0], s.q...)
	slices.SortFunc(keys, func(x, y qterm) int {
		return cmp.Or(cmp.Compare(y.w, x.w), cmp.Compare(x.key, y.key))
	})
	least := max(heavyMin, s.k+1)
	most := max(heavyCands, least)
	// cur is a term's postings or a merge of them in one of b.docs, the
	// other taking the next merge.
	var cur []uint32
	next := 0
	for _, t := range keys {
		post := ix.pdoc[ix.pstart[t.key]:ix.pstart[t.key+1]]
		if len(post) > heavyPostings {
			continue
		}
		switch {
		case cur == nil:
			cur = post
		case len(cur) < least:
			cur = union(cur, post, b.docs[next][:0])
			b.docs[next], next = cur, 1-next
		default:
			both := intersect(cur, post, b.docs[next][:0])
			b.docs[next] = both
			if len(both) >= least {
				cur, next = both, 1-next
			}
		}
		if len(cur) >= least && len(cur) <= most {
			break
		}
	}
	c := b.cands[:0]
	for _, x := range cur[:min(len(cur), most)] {
		if int(x) != d {
			c = append(c, int(x))
		}
	}
	b.keys, b.cands = keys, c
}

// union appends to dst the cases in a or b (each ascending, each once) and
// returns it.
func union(a, b, dst []uint32) []uint32 {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			dst = append(dst, a[i])
			i++
		case a[i] > b[j]:
			dst = append(dst, b[j])
			j++
		default:
			dst = append(dst, a[i])
			i++
			j++
		}
	}
	dst = append(dst, a[i:]...)
	return append(dst, b[j:]...)
}

// intersect appends to dst the cases in both a and b (each ascending) and
// returns it.
func intersect(a, b, dst []uint32) []uint32 {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			dst = append(dst, a[i])
			i++
			j++
		}
	}
	return dst
}
