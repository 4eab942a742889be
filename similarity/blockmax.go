package similarity

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// Block-max MaxScore: the traversal of a search, document at a time over
// windows of cases.
//
// Each key's postings are cut into blocks of blockSize, and for every block
// the index keeps the largest weight in it (weights.bmax). A paste search
// walks the cases in windows of defaultWindow cases. In each window a term can
// add at most its weight times the largest block maximum of its postings in
// the window, and nothing when it has no posting there. The terms are taken
// in ascending order of their global bound per posting (costOrder); those
// taken before their window bounds sum to the bar (the k-th best score so
// far) are non-essential there: a case that only they touch cannot reach
// the top k. The terms of one word in the
// text views are taken together, bounded by the smaller of their window
// bounds summed and the word's bound in the window (wordwindows.go). The
// essential terms' postings are accumulated into a window-sized
// accumulator; each case they touch is then
// completed from the non-essential terms, last taken first, reading their
// postings by galloping and stopping as soon as what is left cannot lift the
// case to the bar. A window whose bounds sum to less than the bar is skipped
// whole. A common word weighs little in a paste and most windows of a rare
// word hold none of its postings, so most postings of common words are
// never read. The answer is exact: what is skipped could not reach the bar.

// blockSize is the number of postings a block maximum covers.
const blockSize = 64

// buildBlocks sets bstart, the first block of each key.
func (ix *Index) buildBlocks() {
	nkeys := len(ix.pstart) - 1
	ix.bstart = make([]uint32, nkeys+1)
	for k := range nkeys {
		n := ix.pstart[k+1] - ix.pstart[k]
		ix.bstart[k+1] = ix.bstart[k] + uint32((n+blockSize-1)/blockSize)
	}
}

// blockMax returns the largest of vals in every block of every key.
func (ix *Index) blockMax(vals []float32) []float32 {
	nkeys := len(ix.pstart) - 1
	out := make([]float32, ix.bstart[nkeys])
	for k := range nkeys {
		lo, hi := ix.pstart[k], ix.pstart[k+1]
		b := ix.bstart[k]
		for j := lo; j < hi; j += blockSize {
			e := min(hi, j+blockSize)
			var m float32
			for p := j; p < e; p++ {
				m = max(m, vals[p])
			}
			out[b] = m
			b++
		}
	}
	return out
}

// cursor is one query term's place in its postings during a block-max run.
type cursor struct {
	key      uint32
	w        float32 // the term's query weight
	wd       float64 // the same, for bounds
	pos, end int     // next posting, end of the postings (absolute)
	base     int     // first posting of the key
	bbase    uint32  // first block of the key
	ub       float64 // bound of the term in the current window
}

// seek moves c to its first posting of a case ≥ d (galloping).
func (c *cursor) seek(pdoc []uint32, d uint32) {
	if c.pos >= c.end || pdoc[c.pos] >= d {
		return
	}
	lo, step := c.pos, 1
	hi := lo + 1
	for hi < c.end && pdoc[hi] < d {
		lo = hi
		hi += step
		step *= 2
	}
	hi = min(hi, c.end)
	// pdoc[lo] < d, and pdoc[hi] ≥ d or hi is the end: the first ≥ d is in
	// (lo, hi]. (A plain loop: slices.BinarySearch costs twice as much.)
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if pdoc[m] < d {
			lo = m
		} else {
			hi = m
		}
	}
	c.pos = hi
}

// windowBound is the most c can add in the window [lo, hi): its weight
// times the largest block maximum of its postings there.
func (c *cursor) windowBound(pdoc []uint32, bmax []float32, lo, hi uint32) float64 {
	c.seek(pdoc, lo)
	if c.pos >= c.end || pdoc[c.pos] >= hi {
		return 0
	}
	rel := c.pos - c.base
	b := c.bbase + uint32(rel/blockSize)
	m := bmax[b]
	// Further blocks whose first posting is still in the window.
	for next := c.base + (rel/blockSize+1)*blockSize; next < c.end && pdoc[next] < hi; next += blockSize {
		b++
		m = max(m, bmax[b])
	}
	return c.wd * float64(m)
}

// runBlocks is the block-max traversal of the paste search s (see the top
// of this file), filling p.top.
func (p *pass) runBlocks(s *search) {
	ix, sc := p.ix, p.sc
	from, to := uint32(s.from), uint32(s.to)
	if s.to == 0 {
		to = uint32(len(ix.cases))
	}
	// Cursors in the cost order, so that the non-essential terms are a
	// prefix.
	curs := sc.curs[:0]
	for i, t := range p.order {
		if lo, hi := p.spans[i].lo, p.spans[i].hi; lo < hi {
			curs = append(curs, cursor{key: t.key, w: t.w, wd: float64(t.w), pos: lo, end: hi,
				base: ix.pstart[t.key], bbase: ix.bstart[t.key]})
		}
	}
	windowSize := ix.opts.window()
	if len(sc.wacc) < windowSize {
		sc.wacc = make([]float32, windowSize)
		sc.wbits = make([]uint64, windowSize/64)
	}
	if len(sc.dense) < len(ix.pstart)-1 {
		sc.dense = make([]float32, len(ix.pstart)-1)
	}
	w := blockWindow{p: p, s: s, curs: curs, cum: slices.Grow(sc.cum[:0], len(curs))[:len(curs)], theta: p.theta}
	if windowSize == wordWindow && len(ix.wb.start) > 0 {
		w.groups = p.groupWords(curs, sc.groups[:0])
	} else {
		p.costOrder(curs)
	}
	step := uint32(windowSize)
	for lo := from; lo < to; {
		// Windows on a grid from case 0, whatever part of the library the
		// search covers, so that each lies in one window of the word bounds.
		hi := min(to, (lo/step+1)*step)
		if s.live != nil {
			w.theta = max(w.theta, s.live.load())
		}
		w.run(lo, hi)
		s.live.raise(w.theta)
		lo = hi
	}
	p.theta = w.theta
	sc.curs, sc.cum, sc.groups = curs[:0], w.cum[:0], w.groups[:0]
}

// costOrder sorts curs in ascending order of their global bound per
// posting in the search's range (ties by key). Which terms are
// non-essential is a choice: any whose bounds sum to less than the bar
// will do, and each one left out is a list of postings not read in full.
// Taking them smallest bound first, as MaxScore does, leaves the rare terms
// of little weight out and reads the common words, whose long postings
// each weigh little but add up past the bar; taking first the terms that
// cost most for what they can add leaves out the common words, whose
// postings are then read only for the cases the others touched (sweep,
// complete; eval/notes/long-pastes.md, "Cost order").
func (p *pass) costOrder(curs []cursor) {
	for i := range curs {
		c := &curs[i]
		c.ub = c.wd * float64(p.wt.pmax[c.key]) / float64(c.end-c.pos)
	}
	slices.SortFunc(curs, func(a, b cursor) int {
		return cmp.Or(cmp.Compare(a.ub, b.ub), cmp.Compare(a.key, b.key))
	})
}

// blockWindow is the state of runBlocks carried from window to window.
type blockWindow struct {
	p     *pass
	s     *search
	curs  []cursor  // in the cost order, or a word at a time (groups)
	cum   []float64 // cum[i]: the window bounds of curs[:i+1], summed
	theta float64   // the bar
	// groups are the words of curs, in its order, when the index has word
	// bounds for the window size (wordwindows.go): then a cut falls
	// between words, and cum counts a word up to its word bound.
	groups []wordGroup
}

// run scores the cases of the window [lo, hi) that can reach the bar.
func (w *blockWindow) run(lo, hi uint32) {
	p, curs, cum := w.p, w.curs, w.cum
	ix, sc, wt := p.ix, p.sc, p.wt
	pdoc, vnorm, bmax := ix.pdoc, wt.vnorm, wt.bmax
	acc, bitset, dense := sc.wacc, sc.wbits, sc.dense
	// Window bounds, and the cut ne between the non-essential terms
	// curs[:ne] and the essential ones.
	var sum float64
	ne := len(curs)
	for i := range curs {
		c := &curs[i]
		c.ub = c.windowBound(pdoc, bmax, lo, hi)
		sum += c.ub
		cum[i] = sum
		if ne == len(curs) && sum >= w.theta-slack && w.groups == nil {
			ne = i
		}
	}
	if w.groups != nil {
		ne = w.cut(lo)
	}
	if ne == len(curs) {
		return // no case of the window can reach the bar
	}
	w.accumulate(lo, hi, ne)
	active, neBound, b := w.nonEssential(ne)
	rest, screened := ne, false // curs[:rest] are still to be added to each case
	if active > 0 && ix.opts.sweep() >= 0 {
		var left int
		rest, left = w.sweep(lo, hi, ne, active)
		// The norm bound holds for a sum over the essential terms alone:
		// once sweep has added a term, its screens stand in for it.
		screened, active = left < active, left
	}
	for wi, word := range bitset[:(hi-lo+63)/64] {
		if word == 0 {
			continue
		}
		bitset[wi] = 0
		for word != 0 {
			x := uint32(wi*64 + bits.TrailingZeros64(word))
			word &= word - 1
			a := acc[x]
			acc[x] = 0
			doc := lo + x
			score := float64(a)
			if !screened && active > 0 && !b.reaches(w.theta-slack-score, neBound, score, vnorm[doc]) {
				continue
			}
			if w.s.accept != nil && !w.s.accept(int(doc)) {
				continue
			}
			if active > 0 {
				if vl := ix.vstart[doc+1] - ix.vstart[doc]; vl < active {
					score += ix.dotDense(dense, int(doc), wt)
				} else {
					score = w.complete(doc, a, rest)
				}
			}
			if score < w.theta-slack {
				continue
			}
			p.top.push(Hit{Doc: int(doc), ID: ix.ids[doc], Score: score})
			if p.top.full() {
				w.theta = max(w.theta, p.top.worst().Score*(1-1e-6))
			}
		}
	}
	for i := range ne {
		dense[curs[i].key] = 0
	}
	if screened {
		clear(acc[:hi-lo]) // the sums of the cases sweep dropped
	}
}

// sweep adds the non-essential terms curs[:ne] to the cases of the window
// [lo, hi) that the essential terms touched, a term at a time, last taken
// first (the most bound per posting), while the cases left are many:
// reading a term's postings in the window in order costs less than seeking
// them case by case (with a
// long paste the essential terms touch half the cases of a window, and
// nearly all of them fall under the bar once the first non-essential term
// or two are added). After every second term it adds, and after curs[0],
// it drops the cases that the terms left (their window bounds summed)
// cannot lift to the bar: what is left is what complete would have kept
// after the same terms. A case under the bar after one term is under it
// after the next too, so screening every other term drops the same cases a
// term later and saves a pass over the many still in at the start; for the
// same reason the touched cases are not screened before the first term
// (their norm bound, which reads each case's norm, cost more than it
// dropped; run applies it when sweep adds no term). It returns rest, the
// number of terms curs[:rest] not added (their weights still in sc.dense),
// and how many of them have postings in the window.
func (w *blockWindow) sweep(lo, hi uint32, ne, active int) (rest, left int) {
	p, curs, cum := w.p, w.curs, w.cum
	pdoc, vals := p.ix.pdoc, p.wt.pval
	acc, bitset, dense := p.sc.wacc, p.sc.wbits[:(hi-lo+63)/64], p.sc.dense
	bar, cost := w.theta-slack, p.ix.opts.sweep()
	// n is the number of cases still in after the last screen: between
	// screens it counts some that the next screen drops.
	n := 0
	for _, word := range bitset {
		n += bits.OnesCount64(word)
	}
	added := 0
	for i := ne - 1; i >= 0 && n > 0; i-- {
		c := &curs[i]
		if c.ub == 0 {
			continue
		}
		end := *c
		end.seek(pdoc, hi)
		if n*cost < end.pos-c.pos {
			return i + 1, active
		}
		for j := c.pos; j < end.pos; j++ {
			x := pdoc[j] - lo
			if bitset[x>>6]&(1<<(x&63)) != 0 {
				acc[x] += c.w * vals[j]
			}
		}
		c.pos = end.pos
		dense[c.key] = 0
		active--
		if added++; added%2 == 1 && i > 0 {
			continue
		}
		need := bar
		if i > 0 {
			need -= cum[i-1]
		}
		n = 0
		for wi, word := range bitset {
			keep := word
			for word != 0 {
				x := uint32(wi*64 + bits.TrailingZeros64(word))
				word &= word - 1
				// Most cases fall here, at random: no branch.
				keep &^= uint64(b2i(float64(acc[x]) < need)) << (x & 63)
			}
			bitset[wi] = keep
			n += bits.OnesCount64(keep)
		}
	}
	// The sums of the cases dropped are left in acc: run clears the window's.
	if n == 0 {
		return 0, 0
	}
	return 0, active
}

// nonEssential spreads the weights of the non-essential terms curs[:ne]
// with postings in the window in sc.dense and returns how many they are and
// their bounds for a case: the smaller of their window bounds summed and, by
// Cauchy–Schwarz, their norm times the case's part over them (see
// normBound; the other part is the essential terms'). A case whose vector
// is shorter than they are many is completed from its vector instead of by
// seeking their postings.
func (w *blockWindow) nonEssential(ne int) (active int, sum float64, b normBound) {
	curs, dense := w.curs, w.p.sc.dense
	var n2, e2 float64
	for i := range curs {
		c := &curs[i]
		switch {
		case c.ub == 0:
		case i < ne:
			active++
			dense[c.key] = c.w
			n2 += c.wd * c.wd
		default:
			e2 += c.wd * c.wd
		}
	}
	if ne > 0 {
		sum = w.cum[ne-1]
	}
	b = normBound{n2: n2 * (1 + 1e-5)}
	if e2 > 0 {
		b.inv = 1 / e2
	}
	return active, sum, b
}

// normBound is the Cauchy–Schwarz bound of what some terms can add to a
// score: at most their norm times that of the case's part over them, which
// is at most √(‖case‖² − (a/‖the others‖)²) when the other terms gave a.
type normBound struct {
	n2  float64 // the terms' norm, squared (rounded up)
	inv float64 // 1/‖the others‖² (0 when they weigh nothing)
}

// reaches reports whether need (what a case lacks to reach the bar) is
// within the smaller of sum (the terms' bounds summed) and the norm bound,
// for a case of norm norm whose sum over the other terms is a.
func (b normBound) reaches(need, sum, a float64, norm float32) bool {
	return b.reachesPart(need, sum, a, norm, math.MaxFloat64)
}

// reachesPart is reaches for a case whose part over the terms is known
// besides to be at most √part2 long (a level norm, levels.go).
func (b normBound) reachesPart(need, sum, a float64, norm float32, part2 float64) bool {
	if need <= 0 {
		return true
	}
	if need > sum {
		return false
	}
	x := float64(norm) * float64(norm)
	if r := a - slack; r > 0 {
		x -= r * r * b.inv
	}
	return need*need <= b.n2*min(x, part2)
}

// accumulate adds the postings of the essential terms curs[ne:] in the
// window [lo, hi) into the window's accumulator, marking the cases touched.
func (w *blockWindow) accumulate(lo, hi uint32, ne int) {
	pdoc, vals := w.p.ix.pdoc, w.p.wt.pval
	acc, bitset := w.p.sc.wacc, w.p.sc.wbits
	for i := ne; i < len(w.curs); i++ {
		c := &w.curs[i]
		if c.ub == 0 {
			continue
		}
		j := c.pos
		for ; j < c.end && pdoc[j] < hi; j++ {
			x := pdoc[j] - lo
			acc[x] += c.w * vals[j]
			bitset[x>>6] |= 1 << (x & 63)
		}
		c.pos = j
	}
}

// complete adds to a, case doc's sum over the essential terms, what the
// non-essential terms curs[:ne] give it, last taken first, seeking their
// postings; it returns −1 as soon as what is left cannot lift the case to
// the bar.
func (w *blockWindow) complete(doc uint32, a float32, ne int) float64 {
	pdoc, vals := w.p.ix.pdoc, w.p.wt.pval
	for i := ne - 1; i >= 0; i-- {
		if float64(a)+w.cum[i] < w.theta-slack {
			return -1
		}
		c := &w.curs[i]
		if c.ub == 0 {
			continue
		}
		c.seek(pdoc, doc)
		if c.pos < c.end && pdoc[c.pos] == doc {
			a += c.w * vals[c.pos]
		}
	}
	return float64(a)
}

// pasteBlocks says whether a search takes the block-max traversal: pastes
// do. Case-to-case searches (relate, dupes, the second stage of match) keep
// the term-at-a-time MaxScore one: their queries are whole case vectors,
// whose window bounds add up far above the bar, so nearly every term is
// essential in every window and the global cut of MaxScore, with the norm
// bounds, reads less. The longest pastes (a log paste of more than 128
// keys) took MaxScore too, until sweep made their many essential terms
// cheap (eval/notes/long-pastes.md). (Tests and benchmarks compare the two
// with searchOptions.blocks.)
func pasteBlocks(s *search) bool { return s.prof == nil }
