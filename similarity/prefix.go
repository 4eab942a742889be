package similarity

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/caselink/caselink/similarity/par"
)

// The prefix path of AllRelated: an all-pairs similarity search with prefix
// filtering (after Bayardo, Ma and Srikant 2007, "Scaling up all pairs
// similarity search"), for libraries where every case has near copies and
// so a high k-th best score.
//
// Each case b first gets a floor: a lower bound of its k-th best score
// (the exact scores of the cases in its rarest terms' postings, as the
// rare-term bars of pairbars.go, and minScore). It is then indexed on its
// prefix only: its terms but the most common ones, which are left out as
// long as what they can add to b's score with any case stays under the
// floor. A pair that reaches b's floor must then share one of b's prefix
// terms. Every case a searches the prefix index with its whole vector, and
// each case b it touches, when the pair may reach either floor, is scored
// exactly from both sides (the scores are symmetric, up to rounding) and
// offered to both cases' top k. A pair in a's top k reaches a's floor, so
// b's search touches a; one in b's top k is found by a's search: every
// case's top k is found, exactly, whichever worker ran first.
//
// The long postings of common words, which a search of the whole index
// reads for every case, hold only the few cases whose floor is low.

// usePrefix says whether AllRelated takes the prefix path for k.
func (ix *Index) usePrefix(k int) bool {
	if k < 1 || k > prefixMaxK || ix.opts.prefix < 0 {
		return false
	}
	return ix.opts.prefix > 0 || len(ix.cases) >= prefixMinCases
}

// prefixMinCases is the library size from which AllRelated takes the
// prefix path (eval/notes/relate-million.md).
const prefixMinCases = 1 << 62

// prefixMaxK is the largest k the prefix path serves: each case keeps its
// top k in place, k entries a case.
const prefixMaxK = 64

// pairTops holds every case's top k while the prefix path runs: k slots a
// case, best first, ties by case id, each case's behind its own lock (a
// pair is offered to both its cases, from any worker).
type pairTops struct {
	ix    *Index
	k     int
	score []float64
	doc   []uint32
	n     []int32
	mu    []sync.Mutex
	// floor is each case's lower bound of its k-th best score (minScore at
	// least), bar the bar a new pair must clear to enter its top k: the
	// floor, raised to the k-th kept once k are (float64 bits).
	floor []float64
	cs    []caseState
}

// caseState is what a search of the prefix index reads of each case it
// touches, kept together so that a touch costs one cache miss: the case's
// bar (float64 bits), the bound sfx of what its suffix adds to any score,
// the suffix's norm sn and the rank cut where its prefix begins (see
// prefixIndex.rank).
type caseState struct {
	bar     atomic.Uint64
	sfx, sn float32
	cut     uint32
}

func newPairTops(ix *Index, k int) *pairTops {
	n := len(ix.cases)
	return &pairTops{ix: ix, k: k, score: make([]float64, n*k), doc: make([]uint32, n*k),
		n: make([]int32, n), mu: make([]sync.Mutex, n), floor: make([]float64, n), cs: make([]caseState, n)}
}

// barOf returns case c's bar.
func (t *pairTops) barOf(c int) float64 { return math.Float64frombits(t.cs[c].bar.Load()) }

// offer offers case d with score s (exact, as c's own search would score
// it) to case c's top k; a case already kept is not kept twice.
func (t *pairTops) offer(c int, d uint32, s float64) {
	ids := t.ix.ids
	better := func(s float64, d uint32, s2 float64, d2 uint32) bool {
		if s != s2 {
			return s > s2
		}
		return ids[d] < ids[d2]
	}
	t.mu[c].Lock()
	defer t.mu[c].Unlock()
	k, n := t.k, int(t.n[c])
	sc, dc := t.score[c*k:(c+1)*k], t.doc[c*k:(c+1)*k]
	if n == k && !better(s, d, sc[k-1], dc[k-1]) || slices.Contains(dc[:n], d) {
		return
	}
	i := n
	if n == k {
		i = k - 1
	} else {
		t.n[c]++
	}
	for ; i > 0 && better(s, d, sc[i-1], dc[i-1]); i-- {
		sc[i], dc[i] = sc[i-1], dc[i-1]
	}
	sc[i], dc[i] = s, d
	if int(t.n[c]) == k {
		// The k-th kept is a lower bound of the k-th best; the margin keeps
		// pairs that tie it in the running.
		t.cs[c].bar.Store(math.Float64bits(max(t.floor[c], sc[k-1]*(1-1e-6))))
	}
}

// hits returns case c's top k as hits.
func (t *pairTops) hits(c int) []Hit {
	n := int(t.n[c])
	if n == 0 {
		return nil
	}
	h := make([]Hit, n)
	for i := range h {
		d, s := int(t.doc[c*t.k+i]), t.score[c*t.k+i]
		h[i] = Hit{Doc: d, ID: t.ix.ids[d], Score: s, First: s}
	}
	return h
}

// pairExact returns the exact scores of the pair (a, b) as each side's
// search gives them, without the date prior: exact(caseQuery(a), b) and
// exact(caseQuery(b), a) under relate's profile, summed in the same order
// with the same roundings, so that they are equal to the last bit.
func (ix *Index) pairExact(a, b int) (ab, ba float64) {
	p := ix.rel
	fa, fb := float64(p.scale[a]), float64(p.scale[b])
	i, ha := ix.vstart[a], ix.vstart[a+1]
	j, hb := ix.vstart[b], ix.vstart[b+1]
	keys := ix.vkey
	var sab, sba float64
	for i < ha && j < hb {
		ka, kb := keys[i], keys[j]
		switch {
		case ka < kb:
			i++
		case ka > kb:
			j++
		default:
			if w := p.views[keyView(ka)]; w != 0 {
				xa, xb := p.w.at(ka, i), p.w.at(kb, j)
				sab += float64(float32(w*float64(xa)*fa)) * float64(xb)
				sba += float64(float32(w*float64(xb)*fb)) * float64(xa)
			}
			i++
			j++
		}
	}
	return min(max(sab*fb, 0), 1), min(max(sba*fa, 0), 1)
}

// prefixIndex is the index of the cases' prefixes: key k lists the cases
// pdoc[pstart[k]:pstart[k+1]] that have k in their prefix, with their
// weight times their scale in pval; sfx bounds what each case's unindexed
// terms can add to its score with any case.
type prefixIndex struct {
	pstart []int
	pdoc   []uint32
	pval   []float32
	// pgap is, by posting, what the rest of a search's vector must be able
	// to add for the posting's case to be worth a first touch: its floor
	// less its suffix bound.
	pgap []float32
	// rank orders the keys by the length of their postings, longest
	// first, ties by key: a case's suffix is its terms of rank under its
	// cut (caseState).
	rank []uint32
	// maxU is, by key, the largest weight a case has under the profile
	// with √(view weight) on its side.
	maxU []float64
}

// floors sets each case's floor, and seeds its top k, from the exact scores
// of the cases in its rarest terms' postings (see rareNear).
func (ix *Index) floors(t *pairTops, minScore float64) {
	k := t.k
	type scratch struct {
		q    []qterm
		keys []qterm
		c    []uint32
		cnt  []uint8
	}
	ws := make([]scratch, par.Workers(len(ix.cases), 64))
	par.For(len(ix.cases), 64, func(w, lo, hi int) {
		b := &ws[w]
		for d := lo; d < hi; d++ {
			s := ix.nearSearch(d, k, minScore, b.q, ix.relPrior)
			b.q = s.q
			if b.cnt == nil {
				b.cnt = make([]uint8, len(ix.cases))
			}
			b.keys, b.c = ix.floorCands(s.q, d, b.keys[:0], b.c[:0], b.cnt)
			for _, c := range b.c {
				x := int(c)
				v := ix.relExact(d, x)
				if s.dated != nil {
					v *= s.dated.factor(x)
				}
				if v >= minScore && v > 0 {
					t.offer(d, uint32(x), v)
				}
			}
			t.floor[d] = minScore
			if int(t.n[d]) == k {
				t.floor[d] = max(minScore, t.score[d*k+k-1]*(1-1e-6))
			}
			t.cs[d].bar.Store(math.Float64bits(t.floor[d]))
		}
	})
}

// Bounds of floorCands: it reads the postings of a case's rarest terms,
// shortest first, none longer than floorPostings, until it has read
// floorRead, and scores the floorScored cases found most often.
const (
	floorPostings = 4096
	floorRead     = 2048
	floorScored   = 64
)

// floorCands appends to c the cases most likely to be d's near copies,
// those found most often in the postings of its rarest terms (q's), d left
// out, at most floorScored of them; keys is scratch, and cnt, by case,
// is zero before and after.
func (ix *Index) floorCands(q []qterm, d int, keys []qterm, c []uint32, cnt []uint8) ([]qterm, []uint32) {
	length := func(t qterm) int { return ix.pstart[t.key+1] - ix.pstart[t.key] }
	keys = append(keys, q...)
	slices.SortFunc(keys, func(a, b qterm) int {
		if c := cmp.Compare(length(a), length(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	read := 0
	var hist [256]int
	for _, t := range keys {
		if read >= floorRead || length(t) > floorPostings {
			break
		}
		docs := ix.pdoc[ix.pstart[t.key]:ix.pstart[t.key+1]]
		read += len(docs)
		for _, x := range docs {
			if cnt[x] == 0 {
				c = append(c, x)
			}
			if cnt[x] < 255 {
				cnt[x]++
			}
		}
	}
	cnt[d] = 0
	for _, x := range c {
		hist[cnt[x]]++
	}
	// The least count kept: the cases found more often than it, and those
	// found as often in the order found, up to floorScored.
	least, above := 1, 0
	for m := 255; m >= 1; m-- {
		if above+hist[m] >= floorScored {
			least = m
			break
		}
		above += hist[m]
	}
	room := floorScored - above
	keep := c[:0]
	for _, x := range c {
		m := int(cnt[x])
		cnt[x] = 0
		if m > least || m == least && room > 0 {
			if m == least {
				room--
			}
			keep = append(keep, x)
		}
	}
	return keys, keep
}

// relExact is exact(caseQuery(a), b) under relate's profile, without the
// date prior, summed in the same order with the same roundings.
func (ix *Index) relExact(a, b int) float64 {
	p := ix.rel
	fa := float64(p.scale[a])
	i, ha := ix.vstart[a], ix.vstart[a+1]
	j, hb := ix.vstart[b], ix.vstart[b+1]
	keys := ix.vkey
	var s float64
	for i < ha && j < hb {
		ka, kb := keys[i], keys[j]
		switch {
		case ka < kb:
			i++
		case ka > kb:
			j++
		default:
			if w := p.views[keyView(ka)]; w != 0 {
				s += float64(float32(w*float64(p.w.at(ka, i))*fa)) * float64(p.w.at(kb, j))
			}
			i++
			j++
		}
	}
	return min(max(s*float64(p.scale[b]), 0), 1)
}

// prefixSlack absorbs the rounding of the suffix bounds and of the prefix
// index's float32 sums.
const prefixSlack = 1e-5

// buildPrefix indexes every case on its prefix: its terms in order of
// their postings' length, longest first, are left out while the bound of
// what those left out can add to a score stays under the case's floor.
// That bound is the smaller of Cauchy–Schwarz (their norm under the
// profile, times the largest case norm) and the sum of their weights times
// the largest weight any case has for each.
func (ix *Index) buildPrefix(t *pairTops) *prefixIndex {
	p := ix.rel
	n := len(ix.cases)
	nkeys := len(ix.pstart) - 1
	maxU := make([]float64, nkeys)
	for key := range maxU {
		maxU[key] = math.Sqrt(p.views[keyView(uint32(key))]) * float64(p.pmax[key]) * (1 + 1e-6)
	}
	px := &prefixIndex{maxU: maxU}
	floor := t.floor
	plen := func(k uint32) int { return ix.pstart[k+1] - ix.pstart[k] }
	byRank := make([]uint32, nkeys)
	for k := range byRank {
		byRank[k] = uint32(k)
	}
	slices.SortFunc(byRank, func(a, b uint32) int {
		if c := cmp.Compare(plen(b), plen(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	px.rank = make([]uint32, nkeys)
	for r, k := range byRank {
		px.rank[k] = uint32(r)
	}
	rank := px.rank
	// in marks the entries of vkey in their case's prefix.
	in := make([]bool, len(ix.vkey))
	par.For(n, 256, func(_, lo, hi int) {
		var order []int
		for d := lo; d < hi; d++ {
			order = order[:0]
			for j := ix.vstart[d]; j < ix.vstart[d+1]; j++ {
				if p.views[keyView(ix.vkey[j])] != 0 {
					order = append(order, j)
				}
			}
			slices.SortFunc(order, func(a, b int) int { return cmp.Compare(rank[ix.vkey[a]], rank[ix.vkey[b]]) })
			need := floor[d]*prefixBeta - prefixSlack
			f := float64(p.scale[d])
			var n2, sum, bound, sn float64
			i := 0
			for ; i < len(order) && need > 0; i++ {
				j := order[i]
				k := ix.vkey[j]
				u := math.Sqrt(p.views[keyView(k)]) * float64(p.w.at(k, j)) * f
				n2 += u * u
				sum += u * maxU[k]
				b := min(math.Sqrt(n2)*p.umax, sum) * (1 + 1e-6)
				if b >= need {
					break
				}
				bound, sn = b, n2
			}
			for _, j := range order[i:] {
				in[j] = true
			}
			cs := &t.cs[d]
			cs.sfx = float32(bound * (1 + 1e-6))
			cs.sn = float32(math.Sqrt(sn) * (1 + 1e-6))
			cs.cut = math.MaxUint32
			if i < len(order) {
				cs.cut = rank[ix.vkey[order[i]]]
			}
		}
	})
	px.pstart = make([]int, nkeys+1)
	for j, k := range ix.vkey {
		if in[j] {
			px.pstart[k+1]++
		}
	}
	for k := range nkeys {
		px.pstart[k+1] += px.pstart[k]
	}
	total := px.pstart[nkeys]
	px.pdoc, px.pval, px.pgap = make([]uint32, total), make([]float32, total), make([]float32, total)
	fill := slices.Clone(px.pstart[:nkeys])
	for d := range n {
		f := float64(p.scale[d])
		for j := ix.vstart[d]; j < ix.vstart[d+1]; j++ {
			if !in[j] {
				continue
			}
			k := ix.vkey[j]
			px.pdoc[fill[k]] = uint32(d)
			px.pval[fill[k]] = float32(float64(p.w.at(k, j)) * f)
			px.pgap[fill[k]] = float32((floor[d] - float64(t.cs[d].sfx) - prefixSlack) * (1 - 1e-6))
			fill[k]++
		}
	}
	return px
}

// prefixStats counts, when not nil, what the prefix path's searches did
// (tests and measurements).
var prefixQueries int

var prefixBeta = 1.0

var prefixStats *struct {
	touched, scored, prefix, read atomic.Int64
	phase                         [3]time.Duration
}

// allRelatedPrefix is AllRelated by the prefix path (see the top of this
// file); k ≤ prefixMaxK.
func (ix *Index) allRelatedPrefix(k int, minScore float64, progress func(done int)) [][]Hit {
	t0 := time.Now()
	t := newPairTops(ix, k)
	ix.floors(t, minScore)
	t1 := time.Now()
	px := ix.buildPrefix(t)
	if prefixStats != nil {
		prefixStats.prefix.Add(int64(len(px.pdoc)))
		prefixStats.phase[0] = t1.Sub(t0)
		prefixStats.phase[1] = time.Since(t1)
		defer func(t2 time.Time) { prefixStats.phase[2] = time.Since(t2) }(time.Now())
	}
	n := len(ix.cases)
	nq := n
	if prefixQueries > 0 {
		nq = min(n, prefixQueries)
	}
	const chunk = 64
	type scratch struct {
		acc     []float32
		touched []uint32
		q       []qterm
		order   []qterm
		rem     []float64
		ranks   []uint32
		cum     []float64
	}
	ws := make([]scratch, par.Workers(n, chunk))
	var done atomic.Int64
	var mu sync.Mutex
	prior := ix.relPrior
	par.For(nq, chunk, func(w, lo, hi int) {
		b := &ws[w]
		if b.acc == nil {
			b.acc = make([]float32, n)
		}
		for a := lo; a < hi; a++ {
			b.q = ix.caseQuery(a, ix.rel, b.q[:0])
			touched := b.touched[:0]
			b.order, b.rem = px.order(ix, b.q, b.order[:0], b.rem[:0])
			b.ranks, b.cum = px.rankNorms(ix, b.q, b.ranks[:0], b.cum[:0])
			acc := b.acc
			for i, qt := range b.order {
				lo, hi := px.pstart[qt.key], px.pstart[qt.key+1]
				r, w := float32(b.rem[i]), qt.w
				gap := px.pgap[lo:hi]
				vals := px.pval[lo:hi]
				for j, d := range px.pdoc[lo:hi] {
					if acc[d] != 0 {
						acc[d] += w * vals[j]
					} else if r >= gap[j] {
						acc[d] = w * vals[j]
						touched = append(touched, d)
					}
				}
			}
			scored := 0
			for _, d := range touched {
				x := int(d)
				ub := float64(b.acc[d]) + prefixSlack
				b.acc[d] = 0
				cs := &t.cs[x]
				bx := math.Float64frombits(cs.bar.Load())
				if x == a || ub+float64(cs.sfx) < bx {
					continue
				}
				// What x's suffix adds is at most its norm times the norm of
				// the query's part over the same ranks.
				c, _ := slices.BinarySearch(b.ranks, cs.cut)
				if ub+float64(cs.sn)*math.Sqrt(b.cum[c])*(1+1e-6) < bx {
					continue
				}
				scored++
				sab, sba := ix.pairExact(a, x)
				if prior != nil {
					f := prior.between(ix.day[a], ix.day[x])
					sab, sba = sab*f, sba*f
				}
				if sab >= minScore && sab > 0 && sab >= t.barOf(a) {
					t.offer(a, d, sab)
				}
				if sba >= minScore && sba > 0 && sba >= t.barOf(x) {
					t.offer(x, uint32(a), sba)
				}
			}
			if prefixStats != nil {
				prefixStats.touched.Add(int64(len(touched)))
				for _, qt := range b.q {
					prefixStats.read.Add(int64(px.pstart[qt.key+1] - px.pstart[qt.key]))
				}
				prefixStats.scored.Add(int64(scored))
			}
			b.touched = touched[:0]
		}
		if progress != nil {
			c := int(done.Add(int64(hi - lo)))
			mu.Lock()
			progress(c)
			mu.Unlock()
		}
	})
	out := make([][]Hit, n)
	for c := range out {
		out[c] = t.hits(c)
	}
	return out
}

// order returns q's terms rarest first (shortest postings, ties by key),
// and rem[i], a bound of what the terms order[i:] can add to a score with
// any case: a case first touched at order[i] shares no prefix term with
// the query before it.
func (px *prefixIndex) order(ix *Index, q, order []qterm, rem []float64) ([]qterm, []float64) {
	p := ix.rel
	plen := func(k uint32) int { return ix.pstart[k+1] - ix.pstart[k] }
	order = append(order, q...)
	slices.SortFunc(order, func(a, b qterm) int {
		if c := cmp.Compare(plen(a.key), plen(b.key)); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	rem = slices.Grow(rem, len(order))[:len(order)]
	var n2, sum float64
	for i := len(order) - 1; i >= 0; i-- {
		t := order[i]
		u := float64(t.w) / math.Sqrt(p.views[keyView(t.key)])
		n2 += u * u
		sum += u * px.maxU[t.key]
		rem[i] = min(math.Sqrt(n2)*p.umax, sum)*(1+1e-5) + prefixSlack
	}
	return order, rem
}

// rankNorms returns the ranks of q's terms, ascending, and cum[i], the
// squared norm under the profile of q's terms of rank under ranks[i]
// (cum[len(ranks)]: all of them).
func (px *prefixIndex) rankNorms(ix *Index, q []qterm, ranks []uint32, cum []float64) ([]uint32, []float64) {
	p := ix.rel
	type ru struct {
		r  uint32
		u2 float64
	}
	buf := make([]ru, 0, 64)
	for _, t := range q {
		u := float64(t.w) / math.Sqrt(p.views[keyView(t.key)])
		buf = append(buf, ru{px.rank[t.key], u * u})
	}
	slices.SortFunc(buf, func(a, b ru) int { return cmp.Compare(a.r, b.r) })
	cum = append(cum, 0)
	for _, x := range buf {
		ranks = append(ranks, x.r)
		cum = append(cum, cum[len(cum)-1]+x.u2)
	}
	return ranks, cum
}
