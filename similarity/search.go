package similarity

import (
	"cmp"
	"math"
	"math/bits"
	"runtime"
	"slices"

	"github.com/caselink/caselink/similarity/par"
)

// qterm is one weighted key of a query vector.
type qterm struct {
	key uint32
	w   float32
}

// scorer is the scratch space of one search: a dense accumulator over all
// cases and the list of cases it touched. Scorers are pooled per index.
type scorer struct {
	acc     []float32
	touched []uint32
	tbits   []uint64 // a bit per case: inOrder's scratch, all zero between uses
	sifted  []uint32 // the touched cases that screen looks at further
	order   []qterm
	rem     []float64
	usum    []float64
	kth     []Hit
	tail    []qterm
	cands   []cand
	dense   []float32 // tail weights by key, for completing candidates
	mark    []bool    // candidates, by case, while their sums are finished
	// The block-max traversal's: cursors, their cumulated window bounds,
	// their words, a window's accumulator and the set of its cases touched.
	curs   []cursor
	cum    []float64
	groups []wordGroup
	wacc   []float32
	wbits  []uint64
	// The part of each term's postings in the search's range, by the
	// pass's order, and the fewest postings of a term from each on.
	spans []span
	tmin  []int
	// probeBar's cases and their scores.
	probes      []uint32
	probeScores []float64
}

// spread writes the weights of terms q into dense by key (grown to the
// index's terms), so that a case's vector can be dotted with them
// (dotDense); unspread zeroes them again for the next use.
func (sc *scorer) spread(ix *Index, q []qterm) {
	if len(sc.dense) < len(ix.pstart)-1 {
		sc.dense = make([]float32, len(ix.pstart)-1)
	}
	for _, t := range q {
		sc.dense[t.key] = t.w
	}
}

func (sc *scorer) unspread(q []qterm) {
	for _, t := range q {
		sc.dense[t.key] = 0
	}
}

// cand is a case still in the running after the first phase of a search.
type cand struct {
	doc  uint32
	sc   float32 // its scale under the profile (1 for a paste)
	lb   float64 // its score so far (a lower bound)
	dfac float64 // its date prior's factor (1 without one)
}

// f is what multiplies c's sum in the accumulator to give its score.
func (c cand) f() float64 { return float64(c.sc) * c.dfac }

// extraHits are kept beyond k while searching, so that recomputing the final
// scores exactly (which can move them by a rounding error) cannot push a
// true top-k case out.
const extraHits = 2

func (ix *Index) getScorer() *scorer {
	if s, ok := ix.scorers.Get().(*scorer); ok && len(s.acc) == len(ix.cases) {
		return s
	}
	return &scorer{acc: make([]float32, len(ix.cases))}
}

func (ix *Index) putScorer(s *scorer) { ix.scorers.Put(s) }

// search is one exact top-k request against the postings.
type search struct {
	q        []qterm  // sorted by key
	prof     *profile // case-to-case scores: multiply each case's sum by its scale; nil for a paste
	k        int
	minScore float64
	accept   func(doc int) bool // nil accepts every case
	// dated, when not nil, multiplies each case's score by a date prior's
	// factor (at most 1), in bounds and final scores alike.
	dated *dated
	// from, to restrict the search to the cases at positions [from, to);
	// to == 0 means all cases. Searches of disjoint ranges run in parallel.
	from, to int
	// bar, when above minScore, is a lower bound of the k-th best score
	// known before the search starts: relate's, from pairs already scored
	// (see pairbars.go), or a paste's (see probeBar). The search starts with it
	// as its bar; it changes no answer.
	bar float64
	// live, when not nil, is the bar shared with the other parts of a split
	// search (see liveBar).
	live *liveBar
}

// span is the part [lo, hi) of a term's postings in the search's range of
// cases.
type span struct{ lo, hi int }

// span returns the part of key k's postings that falls in the search's range
// of cases (postings are sorted by case). A split search finds it by two
// binary searches, so a pass finds it once per term (pass.spans).
func (ix *Index) span(k uint32, s *search) (lo, hi int) {
	lo, hi = ix.pstart[k], ix.pstart[k+1]
	if s.to == 0 {
		return lo, hi
	}
	docs := ix.pdoc[lo:hi]
	a, _ := slices.BinarySearch(docs, uint32(s.from))
	b, _ := slices.BinarySearch(docs, uint32(s.to))
	return lo + a, lo + b
}

// slack absorbs float32 rounding in the pruning bounds, so pruning never
// drops a case that could tie the k-th best.
const slack = 1e-5

// run returns the k best cases for s, best first, ties by case id. Scores are
// exact: terms are accumulated largest upper bound (per posting, for a
// case's vector) first, and once the terms left cannot lift an unseen case
// to the k-th best score, they are added only to the cases that can still
// make it (MaxScore-style pruning).
//
// A run has named phases, each a method of pass: order the terms by the most
// they can add (weighting), accumulate postings until the cut (traversal),
// screen the touched cases through the filter and the date prior into the
// top k or the candidates (collection), refine the candidates by reading the
// terms after the cut for them only, complete the rest from their vectors,
// and rescore the winners exactly.
func (ix *Index) run(sc *scorer, s *search) []Hit {
	if s.k <= 0 || len(s.q) == 0 {
		return nil
	}
	// The scorer's buffers are handed to the pass whichever traversal runs, so
	// that release gives them back: a block-max run (a paste) used to leave
	// them nil, and the next case-to-case search of the scorer regrew them
	// from nothing, and the garbage collector collected them (eval/notes/second-stage-and-relate-speed.md).
	p := pass{ix: ix, sc: sc, wt: ix.weightsFor(s.prof), tail: sc.tail[:0], touched: sc.touched[:0],
		cands: sc.cands[:0], top: topHeap{k: s.k + extraHits}, live: s.live}
	p.orderTerms(s)
	if ix.opts.useBlocks(s) {
		p.runBlocks(s)
		hits := p.top.h
		p.release()
		return ix.rescore(s, hits)
	}
	p.accumulate(s)
	p.screen(s)
	if p.cut < len(p.order) {
		p.refine(s)
		if p.cut < len(p.order) && len(p.cands) > 0 {
			p.fillTail()
			p.completeByVectors(s.k)
		}
	}
	hits := p.top.h
	p.release()
	return ix.rescore(s, hits)
}

// pass is the state of one run, shared by its phases. (The search itself is
// passed to each phase, not kept here: a pass hands its buffers back to the
// scorer, and escape analysis would then move the search to the heap.)
type pass struct {
	ix *Index
	sc *scorer
	wt *weights

	order []qterm   // the query's terms, in the order orderTerms reads them
	spans []span    // spans[i]: the part of order[i]'s postings in the search's range
	rem   []float64 // rem[i] bounds what the terms order[i:] can add to a score
	// The Cauchy–Schwarz bound (see reaches): a score is the inner product
	// of u, the query's weights divided by √view (a paste's as they are),
	// with the case's vector under the profile, whose norm is unorm[case]
	// (umax at most). usum[i] is ‖u‖² over order[i:] (usum[n+1+i] over
	// order[:i]); without it (a query term in a view weighted 0) the bound
	// is not used.
	usum   []float64
	unorm  []float32
	umax   float64
	cauchy bool
	// The norm bound of the terms after the cut, against those before it;
	// set by setCut.
	nb normBound
	// bounds are the profile's case bounds (nil for a paste), tmin[i] the
	// fewest postings of a key of order[i:], and lvl the level of the
	// keys after the cut (tailLevel; −1: none), whose norms (levels.go)
	// bound what they can add.
	bounds []caseBound
	tmin   []int
	lvl    int
	left   int      // postings in the search's range not yet read
	cut    int      // order[:cut] are accumulated for every case; order[cut:] is the tail
	theta  float64  // the bar a case must clear: minScore, raised as the k-th best rises
	live   *liveBar // the bar of the other parts of a split search (nil: none)

	touched []uint32 // cases with a partial sum in sc.acc
	tail    []qterm  // order[cut:] sorted by key, their weights spread in sc.dense
	cands   []cand   // cases that may still make the top k once their sums are complete
	top     topHeap
}

// orderTerms sorts the query's terms by their upper bound (weight × largest
// posting; for a case-to-case search, per posting), largest first, ties by
// key, and sums the bounds of each suffix.
func (p *pass) orderTerms(s *search) {
	ix := p.ix
	maxw := p.wt.pmax
	if s.prof != nil {
		maxw = s.prof.pmax
	}
	order := append(p.sc.order[:0], s.q...)
	ub := func(t qterm) float64 { return float64(t.w) * float64(maxw[t.key]) }
	key := ub
	if s.prof != nil {
		// A case's whole vector as the query: most of its terms must be
		// read before the terms left cannot lift an unseen case to the bar.
		// Read first those that add the most per posting, so that what is
		// left is the long postings of common words, which the tail then
		// adds only to the candidates (any order gives the same answer).
		key = func(t qterm) float64 { return ub(t) / float64(1+ix.pstart[t.key+1]-ix.pstart[t.key]) }
	}
	slices.SortFunc(order, func(a, b qterm) int {
		if c := cmp.Compare(key(b), key(a)); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	rem := slices.Grow(p.sc.rem[:0], len(order)+1)[:len(order)+1]
	spans := slices.Grow(p.sc.spans[:0], len(order))[:len(order)]
	rem[len(order)] = 0
	for i := len(order) - 1; i >= 0; i-- {
		rem[i] = rem[i+1] + ub(order[i])
		lo, hi := ix.span(order[i].key, s)
		spans[i] = span{lo, hi}
		p.left += hi - lo
	}
	p.order, p.spans, p.rem, p.cut, p.theta = order, spans, rem, len(order), max(s.minScore, s.bar)
	p.lvl = -1
	if s.prof != nil && !ix.opts.noLevels {
		p.bounds = s.prof.bounds
		tmin := slices.Grow(p.sc.tmin[:0], len(order)+1)[:len(order)+1]
		tmin[len(order)] = math.MaxInt
		for i := len(order) - 1; i >= 0; i-- {
			k := order[i].key
			tmin[i] = min(tmin[i+1], ix.pstart[k+1]-ix.pstart[k])
		}
		p.tmin = tmin
	}
	p.normSums(s)
}

// normSums fills usum for the terms in order (see pass.usum).
func (p *pass) normSums(s *search) {
	n := len(p.order)
	usum := slices.Grow(p.sc.usum[:0], 2*n+2)[:2*n+2]
	p.usum, p.cauchy = usum, true
	if s.prof != nil {
		p.unorm, p.umax = s.prof.unorm, s.prof.umax
	} else {
		// The block-max traversal is the paste's; here only for tests and
		// comparisons, it keeps the cut of the sums of bounds.
		p.unorm, p.umax = p.wt.vnorm, math.Inf(1)
	}
	u2 := func(t qterm) float64 {
		x := float64(t.w) * float64(t.w)
		if s.prof == nil {
			return x
		}
		v := s.prof.views[keyView(t.key)]
		if v <= 0 {
			p.cauchy = false
			return 0
		}
		return x / v
	}
	usum[n], usum[n+1] = 0, 0
	for i := n - 1; i >= 0; i-- {
		usum[i] = usum[i+1] + u2(p.order[i])
	}
	for i, t := range p.order {
		usum[n+2+i] = usum[n+1+i] + u2(t)
	}
}

// setCut moves the cut to i.
func (p *pass) setCut(i int) {
	p.cut = i
	p.lvl = -1
	if p.tmin != nil && i < len(p.order) {
		p.lvl = tailLevel(p.tmin[i], len(p.bounds))
	}
	if !p.cauchy || i == len(p.order) {
		return
	}
	p.nb = normBound{n2: p.usum[i] * (1 + 1e-5)}
	if r := p.usum[len(p.order)+1+i]; r > 0 {
		p.nb.inv = 1 / r
	}
}

// unseen bounds the score of a case that none of order[:i] touches.
func (p *pass) unseen(i int) float64 {
	if !p.cauchy {
		return p.rem[i]
	}
	return min(p.rem[i], math.Sqrt(p.usum[i])*p.umax*(1+1e-6))
}

// accumulate adds the terms' postings into the accumulator, in order, until
// the terms left cannot lift a case that none has touched to the bar: that
// is the cut. Long postings are where the cut is tried, and where the bar is
// raised to the k-th best partial sum when that is worth a pass.
func (p *pass) accumulate(s *search) {
	ix := p.ix
	lastRem, lastTouched := math.Inf(1), 0
	acc, touched := p.sc.acc, p.touched[:0]
	sorted := 0 // len(touched) when inOrder last ran
	for i, t := range p.order {
		lo, hi := p.spans[i].lo, p.spans[i].hi
		if i > 0 && hi-lo >= 64 {
			p.syncBar()
			u := p.unseen(i)
			if u < p.theta-slack {
				p.setCut(i)
				break
			}
			// Raising the bar costs a pass over the cases touched so far;
			// it is worth it only when much more is left to read, and
			// once the bounds of the terms left fell well below those at
			// the last raise, or the cases touched doubled since it. (A
			// long case has many rare terms that each add little: with a
			// low starting bar, the bounds fall slowly while tens of
			// thousands of cases are touched, and its near copies, which
			// its first terms had not met, pile up unseen by the bar;
			// eval/notes/relate-million.md.)
			grown := len(touched) >= max(ix.opts.raiseAt(), 2*lastTouched)
			if (p.rem[i] < 0.4*lastRem || grown) && len(touched) >= s.k && p.left > 2*len(touched) {
				lastRem, lastTouched, sorted = p.rem[i], len(touched), len(touched)
				p.inOrder(s, touched)
				if s.prof != nil && !ix.opts.noExactBar {
					// The exact scores of the cases with the largest
					// partial sums are at least their partial sums:
					// the k-th best partial sum (kthLowerBound) would
					// add nothing but a second pass.
					p.theta = max(p.theta, p.touchedBar(s, touched))
				} else {
					p.theta = max(p.theta, ix.kthLowerBound(p.sc, touched, s))
				}
				p.syncBar()
				if u < p.theta-slack {
					p.setCut(i)
					break
				}
			}
		}
		p.left -= hi - lo
		touched = addPostings(acc, touched, ix.pdoc[lo:hi], p.wt.postings(t.key)[lo:hi], t.w)
	}
	p.touched = touched
	if len(touched) != sorted { // else the cut came right after a raise, which sorted them
		p.inOrder(s, touched)
	}
}

// inOrder sorts the touched cases by case (sortTouched) in a large
// library. Screening reads each touched case's partial sum and bounds,
// arrays the size of the library: at a million cases, in the order of first
// touch those are random reads that miss the caches, and in case order they
// are a forward stream (eval/notes/relate-million.md).
func (p *pass) inOrder(s *search, touched []uint32) {
	if !p.ix.opts.ordered(len(p.ix.cases)) {
		return
	}
	to := s.to
	if to == 0 {
		to = len(p.ix.cases)
	}
	p.sc.sortTouched(touched, len(p.ix.cases), s.from, to)
}

// sortTouched sorts touched, distinct cases of a library of n in [from,
// to), in place through a bitset of a bit per case, and reports whether it
// did: it costs a pass over the bitset's words in the range, so a set of
// fewer than 64 cases, or of fewer than one for every 16 words, is left as
// it is.
func (sc *scorer) sortTouched(touched []uint32, n, from, to int) bool {
	lo, hi := from>>6, (to+63)>>6
	if len(touched) < 64 || len(touched)*16 < hi-lo {
		return false
	}
	if len(sc.tbits) < (n+63)>>6 {
		sc.tbits = make([]uint64, (n+63)>>6)
	}
	set := sc.tbits
	for _, d := range touched {
		set[d>>6] |= 1 << (d & 63)
	}
	i := 0
	for wi := lo; wi < hi; wi++ {
		w := set[wi]
		if w == 0 {
			continue
		}
		set[wi] = 0
		for w != 0 {
			touched[i] = uint32(wi<<6 + bits.TrailingZeros64(w))
			i++
			w &= w - 1
		}
	}
	return true
}

// addPostings adds w times each posting's weight to its case's sum in acc
// and appends the cases it touches first to touched. The first touch is
// counted without a branch: whether a case was touched before is a coin
// toss the processor mispredicts, once per posting.
func addPostings(acc []float32, touched, docs []uint32, vals []float32, w float32) []uint32 {
	n := len(touched)
	touched = slices.Grow(touched, len(docs))[:n+len(docs)]
	buf := touched[n:]
	vals = vals[:len(docs)]
	m := 0
	for j, d := range docs {
		a := acc[d]
		buf[m] = d
		m += b2i(a == 0)
		acc[d] = a + w*vals[j]
	}
	return touched[:n+m]
}

// b2i is 1 for true, 0 for false, compiled without a branch.
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}

// screen passes each touched case through the search's filter and scales
// its partial sum (by the profile's case scale and the date prior). Without
// a cut the sums are final and go straight to the top k; with one, the cases
// whose bound can still reach the bar become candidates.
func (p *pass) screen(s *search) {
	ix, acc := p.ix, p.sc.acc
	all := p.cut == len(p.order)
	cands := p.cands[:0]
	var bounds []caseBound
	if s.prof != nil {
		bounds = s.prof.bounds
	}
	bound := func(d uint32) caseBound {
		switch {
		case bounds != nil:
			return bounds[d]
		case all:
			return caseBound{scale: 1}
		}
		return caseBound{scale: 1, unorm: p.unorm[d]}
	}
	for _, d := range p.sift(bounds, all) {
		doc := int(d)
		b := bound(d)
		sc := b.scale
		a := float64(acc[d]) * float64(sc)
		if s.accept != nil && !s.accept(doc) {
			continue
		}
		dfac := 1.0
		if s.dated != nil {
			dfac = s.dated.factor(doc)
		}
		c := cand{doc: d, sc: sc, dfac: dfac}
		lb := float64(acc[d]) * c.f()
		if all {
			if lb >= p.theta-slack {
				p.top.push(Hit{Doc: doc, ID: ix.ids[doc], Score: lb})
			}
			continue
		}
		if p.reachesBound(a, dfac, b) {
			c.lb = lb
			cands = append(cands, c)
		}
	}
	p.cands = cands
}

// sift returns the touched cases that may reach the bar before the date
// prior's factor (at most 1) and the filter are applied: those with a
// negative sum, or whose scaled sum with the bound of the terms after the
// cut (reaches) reaches it. Most touched cases miss the bar, at random:
// the test is computed without a branch, which the processor would
// mispredict about once in four cases, and the cases kept are appended
// without one (as addPostings does); screen then looks up the filter and
// the prior, random reads, for the few kept. bounds is the profile's (nil
// for a paste).
func (p *pass) sift(bounds []caseBound, all bool) []uint32 {
	acc := p.sc.acc
	kept := slices.Grow(p.sc.sifted[:0], len(p.touched))[:len(p.touched)]
	p.sc.sifted = kept
	bar := p.theta - slack
	m := 0
	switch {
	case all || !p.cauchy:
		rem := 0.0
		if !all {
			rem = p.rem[p.cut]
		}
		for _, d := range p.touched {
			sc := float32(1)
			if bounds != nil {
				sc = bounds[d].scale
			}
			a := float64(acc[d]) * float64(sc)
			kept[m] = d
			m += b2i(a < 0) | b2i(bar-a <= rem)
		}
	default:
		rem, n2, inv, lvl := p.rem[p.cut], p.nb.n2, p.nb.inv, p.lvl
		for _, d := range p.touched {
			b := caseBound{scale: 1}
			if bounds != nil {
				b = bounds[d]
			} else {
				b.unorm = p.unorm[d]
			}
			a := float64(acc[d]) * float64(b.scale)
			need := bar - a
			r := max(a-slack, 0)
			x := float64(b.unorm)*float64(b.unorm) - r*r*inv
			if lvl >= 0 {
				l := b.level(lvl)
				x = min(x, l*l)
			}
			kept[m] = d
			m += b2i(a < 0) | b2i(need <= 0) | b2i(need <= rem)&b2i(need*need <= n2*x)
		}
	}
	return kept[:m]
}

// reaches reports whether case d, whose scaled sum over order[:cut] is a
// and whose date factor is dfac, can still reach the bar once the terms
// order[cut:] are added. They add at most the sum of their upper bounds or,
// by Cauchy–Schwarz, ‖u over order[cut:]‖ times the norm of the case's part
// over them, the smaller. That part's norm is at most
// √(‖case‖² − (a/‖u over order[:cut]‖)²): the part over order[:cut] gave a,
// so it is at least that long (Cauchy–Schwarz again). Squares are compared,
// so that no square root is taken.
func (p *pass) reaches(d uint32, a, dfac float64) bool {
	if p.bounds != nil {
		return p.reachesBound(a, dfac, p.bounds[d])
	}
	return p.reachesBound(a, dfac, caseBound{scale: 1, unorm: p.unorm[d]})
}

// reachesBound is reaches for a case of bounds b.
func (p *pass) reachesBound(a, dfac float64, b caseBound) bool {
	need := p.theta - slack
	if dfac != 1 {
		need /= dfac
	}
	need -= a
	if !p.cauchy {
		return need <= p.rem[p.cut]
	}
	if p.lvl >= 0 {
		l := b.level(p.lvl)
		return p.nb.reachesPart(need, p.rem[p.cut], a, b.unorm, l*l)
	}
	return p.nb.reaches(need, p.rem[p.cut], a, b.unorm)
}

// fillTail sorts the terms after the cut by key and spreads their weights
// densely by key, for completing candidates from their vectors.
func (p *pass) fillTail() {
	ix, sc := p.ix, p.sc
	tail := append(p.tail, p.order[p.cut:]...)
	slices.SortFunc(tail, func(a, b qterm) int { return cmp.Compare(a.key, b.key) })
	p.tail = tail
	sc.spread(ix, tail)
}

// refineCost is how many postings of the tail are worth reading, for the
// candidates only, per entry of the candidates' vectors left to read: a
// posting costs a sequential read and a look-up in a small array, a vector
// entry a look-up in the query's weights by key, spread over a large one.
// Measured with the passes over the candidates as rare as reboundEvery
// makes them, which leave the count of entries left high for longer (was
// 4; eval/notes/long-pastes.md, "Rebounding less often").
const refineCost = 1

// reboundEvery is how many postings per candidate refine reads between two
// passes over the candidates (rebound). Every posting of a term is read
// whatever the candidates are, so dropping candidates sooner saves little
// but the passes, and a case-to-case search of a library of many alike
// cases keeps thousands of candidates through tens of terms (was 2;
// eval/notes/long-pastes.md, "Rebounding less often").
const reboundEvery = 16

// refine reads the postings of the terms after the cut for the candidates,
// one term at a time, largest bound first, while that costs less than
// reading the candidates' vectors; after each term the cut moves past it,
// and the candidates whose bound no longer reaches the bar are dropped.
// When every term is read, the candidates' sums are final and go to the top
// k; else completeByVectors finishes them.
func (p *pass) refine(s *search) {
	ix, sc := p.ix, p.sc
	vec := p.vectors()
	if len(sc.mark) < len(ix.cases) {
		sc.mark = make([]bool, len(ix.cases))
	}
	acc, mark := sc.acc, sc.mark
	for _, c := range p.cands {
		mark[c.doc] = true
	}
	p.raiseBar(s.k)
	if s.prof != nil && !ix.opts.noExactBar && len(p.cands) > probeCases*s.k {
		p.theta = max(p.theta, p.candsBar(s))
	}
	p.syncBar()
	// Rebounding costs a pass over the candidates: it is done once
	// reboundEvery times as many postings were read since the last one, and
	// after the last term.
	read := 0
	for p.cut < len(p.order) && len(p.cands) > 0 {
		t := p.order[p.cut]
		lo, hi := p.spans[p.cut].lo, p.spans[p.cut].hi
		if hi-lo > refineCost*vec {
			if read > 0 {
				vec = p.rebound(s.k)
				read = 0
				continue
			}
			break
		}
		w := t.w
		docs, vals := ix.pdoc[lo:hi], p.wt.postings(t.key)[lo:hi]
		for j, d := range docs {
			if mark[d] {
				acc[d] += w * vals[j]
			}
		}
		p.setCut(p.cut + 1)
		if read += hi - lo; read >= reboundEvery*len(p.cands) || p.cut == len(p.order) {
			vec = p.rebound(s.k)
			read = 0
		}
	}
	last := p.cut == len(p.order)
	for _, c := range p.cands {
		mark[c.doc] = false
		if last && c.lb >= p.theta-slack {
			p.top.push(Hit{Doc: int(c.doc), ID: ix.ids[c.doc], Score: c.lb})
		}
	}
	if last {
		p.cands = p.cands[:0]
	}
}

// rebound updates the candidates' sums after the cut moved and keeps those
// that can still reach the bar (unmarking the others); it returns
// vectors().
func (p *pass) rebound(k int) int {
	acc, mark := p.sc.acc, p.sc.mark
	last := p.cut == len(p.order)
	for i := range p.cands {
		c := &p.cands[i]
		c.lb = float64(acc[c.doc]) * c.f()
	}
	if !last {
		p.raiseBar(k)
		p.syncBar()
	}
	keep := p.cands[:0]
	for _, c := range p.cands {
		if last || p.reaches(c.doc, float64(acc[c.doc])*float64(c.sc), c.dfac) {
			keep = append(keep, c)
		} else {
			mark[c.doc] = false
		}
	}
	p.cands = keep
	return p.vectors()
}

// raiseBar raises the bar to the k-th largest score so far of the
// candidates, a lower bound of the k-th best final score (the terms left
// only add), when there are many more candidates than k: then most of them
// fall under it. (kthLowerBound does the same over the touched cases.)
func (p *pass) raiseBar(k int) {
	if len(p.cands) < 4*k {
		return
	}
	h := topHeap{k: k, h: p.sc.kth[:0]}
	for _, c := range p.cands {
		if !h.full() || c.lb > h.worst().Score {
			h.push(Hit{Score: c.lb})
		}
	}
	p.sc.kth = h.h
	p.theta = max(p.theta, h.worst().Score*(1-1e-6))
}

// vectors estimates the length of the candidates' vectors (the mean length
// of a case's, times their number: their own lengths are random reads).
func (p *pass) vectors() int {
	return len(p.cands) * len(p.ix.vkey) / max(1, len(p.ix.cases))
}

// completeByVectors finishes the candidates' sums from their vectors, the
// most promising first: once their exact scores fill the top k, the bar
// rises and most of the others fall below it on their bounds alone, without
// reading their vectors.
func (p *pass) completeByVectors(k int) {
	first := min(len(p.cands), 4*(k+extraHits))
	selectBest(p.cands, first)
	for _, c := range p.cands[:first] {
		p.completeVector(c)
	}
	for _, c := range p.cands[first:] {
		if c.lb+p.rem[p.cut] >= p.theta-slack {
			p.completeVector(c)
		}
	}
}

// completeVector adds the tail to candidate c's sum from its vector, when
// its bound still reaches the bar, and offers it to the top k.
func (p *pass) completeVector(c cand) {
	if !p.reaches(c.doc, float64(p.sc.acc[c.doc])*float64(c.sc), c.dfac) {
		return
	}
	score := c.lb + p.ix.dotDense(p.sc.dense, int(c.doc), p.wt)*c.f()
	if score < p.theta-slack {
		return
	}
	p.top.push(Hit{Doc: int(c.doc), ID: p.ix.ids[c.doc], Score: score})
	if p.top.full() { // the worst kept is a lower bound of the k-th best
		p.theta = max(p.theta, p.top.worst().Score*(1-1e-6))
	}
	p.syncBar()
}

// release clears the scratch space the run dirtied and hands its buffers
// back to the scorer for the next run.
func (p *pass) release() {
	sc := p.sc
	sc.unspread(p.tail)
	for _, d := range p.touched {
		sc.acc[d] = 0
	}
	sc.cands = p.cands[:0]
	sc.touched, sc.order, sc.rem, sc.usum, sc.tail = p.touched[:0], p.order, p.rem, p.usum, p.tail[:0]
	sc.spans, sc.tmin = p.spans, p.tmin
}

// rescore recomputes the kept hits' scores canonically (see [Index.exact]),
// drops those under the bar and returns the k best, best first.
func (ix *Index) rescore(s *search, hits []Hit) []Hit {
	for i := range hits {
		hits[i].Score = ix.exact(s.q, hits[i].Doc, s.prof)
		if s.dated != nil {
			hits[i].Score *= s.dated.factor(hits[i].Doc)
		}
	}
	hits = slices.DeleteFunc(hits, func(h Hit) bool { return h.Score < s.minScore || h.Score <= 0 })
	sortHits(hits)
	if len(hits) > s.k {
		hits = hits[:s.k]
	}
	for i := range hits {
		hits[i].First = hits[i].Score
	}
	return hits
}

// search runs s, split over all cores by ranges of cases when the library is
// large (searchOptions.parallelMin), and merges the answers; the result is
// the same either way.
func (ix *Index) search(s *search) []Hit {
	n := len(ix.cases)
	parts := min(runtime.GOMAXPROCS(0), n/(ix.opts.splitMin()/2))
	sc := ix.getScorer()
	if !ix.opts.noProbeBar && s.prof == nil {
		s.bar = max(s.bar, ix.probeBar(sc, s))
	}
	if parts <= 1 {
		defer ix.putScorer(sc)
		return ix.run(sc, s)
	}
	ix.putScorer(sc)
	return ix.searchParts(*s, parts)
}

// probeBar returns a lower bound of the k-th best score of the paste search
// s (0 when it finds none): the k-th best exact score of a few cases likely
// to score high, those of the block with the largest block maximum in the
// postings of each of the query's heaviest terms. A traversal that starts
// from it prunes from its first window on, instead of only once its own top
// k has filled and risen; and each part of a split search starts from the
// bar of the whole library instead of its own.
func (ix *Index) probeBar(sc *scorer, s *search) float64 {
	const terms = 2
	var heavy [terms]qterm
	ub := func(t qterm) float64 { return float64(t.w) * float64(ix.mw.pmax[t.key]) }
	for _, t := range s.q {
		for i := range heavy {
			if heavy[i].w == 0 || ub(t) > ub(heavy[i]) {
				copy(heavy[i+1:], heavy[i:terms-1])
				heavy[i] = t
				break
			}
		}
	}
	probes := sc.probes[:0]
	for _, t := range heavy {
		if t.w == 0 {
			continue
		}
		lo, hi := ix.pstart[t.key], ix.pstart[t.key+1]
		bmax := ix.mw.bmax[ix.bstart[t.key]:ix.bstart[t.key+1]]
		b := 0
		for i, m := range bmax {
			if m > bmax[b] {
				b = i
			}
		}
		probes = append(probes, ix.pdoc[lo+b*blockSize:min(hi, lo+(b+1)*blockSize)]...)
	}
	slices.Sort(probes)
	probes = slices.Compact(probes)
	sc.spread(ix, s.q)
	scores := sc.probeScores[:0]
	for _, d := range probes {
		if s.accept == nil || s.accept(int(d)) {
			scores = append(scores, ix.dotDense(sc.dense, int(d), ix.mw))
		}
	}
	sc.unspread(s.q)
	sc.probes, sc.probeScores = probes, scores
	if len(scores) < s.k {
		return 0
	}
	slices.Sort(scores)
	// A float32 sum of a few dozen products is within 1e-5 of the exact
	// score, which is at most 1.
	return min(scores[len(scores)-s.k], 1) * (1 - 1e-5)
}

// searchParts runs s over parts equal ranges of cases at once and merges
// the answers. (s is a copy, so that the caller's search stays on its stack.)
func (ix *Index) searchParts(s search, parts int) []Hit {
	n := len(ix.cases)
	chunk := (n + parts - 1) / parts
	found := make([][]Hit, parts)
	s.live = new(liveBar)
	par.For(n, chunk, func(_, lo, hi int) {
		part := s
		part.from, part.to = lo, hi
		sc := ix.getScorer()
		found[lo/chunk] = ix.run(sc, &part)
		ix.putScorer(sc)
	})
	hits := slices.Concat(found...)
	sortHits(hits)
	return hits[:min(len(hits), s.k)]
}

// kthLowerBound returns the k-th largest partial score among the touched
// cases that s accepts: a lower bound of the k-th best final score.
func (ix *Index) kthLowerBound(sc *scorer, touched []uint32, s *search) float64 {
	h := topHeap{k: s.k, h: sc.kth[:0]}
	// bar is the worst score kept once k are: most cases do not pass it, and
	// are turned away here without building a hit.
	bar := float32(math.Inf(-1))
	for _, d := range touched {
		v := sc.acc[d]
		if s.prof != nil {
			v *= s.prof.bounds[d].scale
		}
		// The filter and the prior's factor (at most 1) can only lower v: a
		// case already under the k-th kept is passed over without them.
		if v >= 0 && v <= bar {
			continue
		}
		if s.accept != nil && !s.accept(int(d)) {
			continue
		}
		if s.dated != nil {
			v *= float32(s.dated.factor(int(d)))
		}
		if v <= bar {
			continue
		}
		h.push(Hit{Score: float64(v)})
		if h.full() {
			bar = float32(h.worst().Score)
		}
	}
	sc.kth = h.h
	if !h.full() {
		return 0
	}
	return h.worst().Score * (1 - 1e-6)
}

// weightsFor returns the weights a search uses: case-to-case searches (with
// a profile) those of the profile, pastes the saturated ones.
func (ix *Index) weightsFor(p *profile) *weights {
	if p != nil {
		return p.w
	}
	return ix.mw
}

// shared calls f(i, j) for every key that the key-sorted query q and case
// doc's vector both have, in key order: i indexes q, j the case's entry in
// vkey and the weights' vval. It is the one merge-join of the engine, so
// that scores (dot) and their explanations (addShared) cannot drift apart.
func (ix *Index) shared(q []qterm, doc int, f func(i, j int)) {
	lo, hi := ix.vstart[doc], ix.vstart[doc+1]
	keys := ix.vkey[lo:hi]
	i, j := 0, 0
	for i < len(q) && j < len(keys) {
		switch {
		case q[i].key < keys[j]:
			i++
		case q[i].key > keys[j]:
			j++
		default:
			f(i, lo+j)
			i++
			j++
		}
	}
}

// dot is the inner product of a key-sorted query with case doc's vector.
func (ix *Index) dot(q []qterm, doc int, wt *weights) float64 {
	var s float64
	ix.shared(q, doc, func(i, j int) { s += float64(q[i].w) * float64(wt.at(q[i].key, j)) })
	return s
}

// dotDense is the inner product of case doc's vector with query weights
// held densely by key.
func (ix *Index) dotDense(q []float32, doc int, wt *weights) float64 {
	lo, hi := ix.vstart[doc], ix.vstart[doc+1]
	keys := ix.vkey[lo:hi]
	var s float32
	if wt.text != nil {
		text, tags := wt.text.vval[lo:hi], wt.tags.vval[lo:hi]
		for j, k := range keys {
			x := text[j]
			if keyView(k) == Tags {
				x = tags[j]
			}
			s += q[k] * x
		}
		return float64(s)
	}
	vals := wt.vval[lo:hi]
	for j, k := range keys {
		s += q[k] * vals[j]
	}
	return float64(s)
}

// exact is the canonical score of case doc for a key-sorted query: summed in
// key order in float64, so it does not depend on how the search got there.
func (ix *Index) exact(q []qterm, doc int, prof *profile) float64 {
	s := ix.dot(q, doc, ix.weightsFor(prof))
	if prof != nil {
		s *= float64(prof.scale[doc])
	}
	return min(max(s, 0), 1)
}

// caseQuery is the query vector of case doc for case-to-case scores: each
// weight is w_view · x · scale under profile p, so that a search with the
// same profile yields the cosine of the two concatenated case vectors.
func (ix *Index) caseQuery(doc int, p *profile, dst []qterm) []qterm {
	f := float64(p.scale[doc])
	for j := ix.vstart[doc]; j < ix.vstart[doc+1]; j++ {
		k := ix.vkey[j]
		w := p.views[keyView(k)]
		if w == 0 {
			continue
		}
		dst = append(dst, qterm{key: k, w: float32(w * float64(p.w.at(k, j)) * f)})
	}
	return dst
}

// relQuery is the query vector of case doc for relate: caseQuery under the
// relate profile and, for a case written as a title and a body
// (titleAndBody) when Config.CrossViews is above 0, the keys of crossQuery
// too, the whole divided by 1 + CrossViews: a word of its title meets the
// word in another case's body, and the score stays in [0, 1]
// (Cauchy–Schwarz on the two unit case vectors). Keys stay sorted; a key no
// case has (a body's word in no title) is left out, which spares the search
// its bookkeeping and adds nothing.
func (ix *Index) relQuery(doc int, dst []qterm) []qterm {
	dst = ix.caseQuery(doc, ix.rel, dst)
	n := len(dst)
	dst = ix.crossQuery(doc, dst[:n], dst) // the cross keys go after the case's own, in dst[n:m]
	m := len(dst)
	if m == n {
		return dst
	}
	f := float32(1 / (1 + ix.cfg.CrossViews))
	add := func(t qterm) {
		if ix.pstart[t.key] < ix.pstart[t.key+1] {
			dst = append(dst, qterm{t.key, t.w * f})
		}
	}
	i, j := 0, n
	for i < n || j < m {
		switch {
		case j == m || i < n && dst[i].key < dst[j].key:
			add(dst[i])
			i++
		case i == n || dst[j].key < dst[i].key:
			add(dst[j])
			j++
		default:
			add(qterm{dst[i].key, dst[i].w + dst[j].w})
			i++
			j++
		}
	}
	return append(dst[:0], dst[m:]...)
}

// crossQuery appends to dst the keys relQuery adds to q, case doc's
// caseQuery under the relate profile: each symptoms-view key also in the
// cause view and each cause-view key also in the symptoms view, weighed
// CrossViews·√(w_symptoms·w_cause) as the cosine weighs a view (a query
// weight is w_view·x·scale, so the other view's weight of the same x is the
// weight times √(w_other/w_view)), sorted by key. It appends nothing when
// the case is not written as a title and a body or CrossViews is 0. q may
// share dst's storage (dst beyond len(q) is written, q is only read).
func (ix *Index) crossQuery(doc int, q, dst []qterm) []qterm {
	c := ix.cfg.CrossViews
	ws, wc := ix.rel.views[Symptoms], ix.rel.views[Cause]
	if c <= 0 || ws <= 0 || wc <= 0 || !ix.titleAndBody(doc) {
		return dst
	}
	toC, toS := float32(c*math.Sqrt(wc/ws)), float32(c*math.Sqrt(ws/wc))
	start := len(dst)
	for _, t := range q {
		switch keyView(t.key) {
		case Symptoms:
			dst = append(dst, qterm{t.key + 1, toC * t.w})
		case Cause:
			dst = append(dst, qterm{t.key - 1, toS * t.w})
		}
	}
	// A term in both views gives (t, cause) before (t, symptoms): swap
	// them into key order.
	out := dst[start:]
	for i := 1; i < len(out); i++ {
		if out[i].key < out[i-1].key {
			out[i], out[i-1] = out[i-1], out[i]
		}
	}
	return dst
}

// titleAndBody reports whether the case at position doc is written as a
// title and a body: it has no key in the response view (no remediation, no
// action items), as a bug report, a status notice or a question has none.
func (ix *Index) titleAndBody(doc int) bool {
	for _, k := range ix.vkey[ix.vstart[doc]:ix.vstart[doc+1]] {
		if keyView(k) == Response {
			return false
		}
	}
	return true
}

// CaseSimilarity returns the case-to-case score of the cases at positions a
// and b: the cosine of their weighted view vectors.
func (ix *Index) CaseSimilarity(a, b int) float64 {
	return ix.exact(ix.caseQuery(a, ix.rel, nil), b, ix.rel)
}

// selectBest moves the n candidates with the largest partial scores to the
// front of c, in no particular order (quickselect; deterministic pivots).
func selectBest(c []cand, n int) {
	lo, hi := 0, len(c)
	for hi-lo > 1 && n > lo && n < hi {
		p := c[lo+(hi-lo)/2].lb
		i, j := lo, hi-1
		for i <= j {
			for c[i].lb > p {
				i++
			}
			for c[j].lb < p {
				j--
			}
			if i <= j {
				c[i], c[j] = c[j], c[i]
				i++
				j--
			}
		}
		switch {
		case n <= j+1:
			hi = j + 1
		case n >= i:
			lo = i
		default:
			return
		}
	}
}

// probeCases is how many cases, per hit asked, a case-to-case search scores
// exactly from their vectors for its bar (touchedBar, candsBar).
const probeCases = 2

// touchedBar returns a lower bound of the k-th best score of the
// case-to-case search s: the k-th best exact score of the touched cases
// with the largest partial sums. The k-th best partial sum (kthLowerBound)
// is one too, but far lower while the common words are unread: the second
// stage of match looks for neighbours at 0.4–0.9 whose partial sums after
// the rare terms are half that, and a bar that low leaves tens of thousands
// of candidates to refine (eval/notes/long-pastes.md). The cases with the
// largest partial sums are most often the nearest: a few dozen exact scores
// (a case's vector, some 50 entries) put the bar at or near its final value.
func (p *pass) touchedBar(s *search, touched []uint32) float64 {
	m := probeCases * s.k
	h := topHeap{k: m, h: p.sc.kth[:0]}
	for _, d := range touched {
		v := float64(p.sc.acc[d] * s.prof.bounds[d].scale)
		if h.full() && v <= h.worst().Score {
			continue
		}
		if s.accept != nil && !s.accept(int(d)) {
			continue
		}
		h.push(Hit{Doc: int(d), Score: v})
	}
	p.sc.kth = h.h
	docs := p.sc.probes[:0]
	for _, x := range h.h {
		docs = append(docs, uint32(x.Doc))
	}
	p.sc.probes = docs
	return p.exactKth(s, docs)
}

// candsBar is touchedBar over the candidates (cases the search accepts),
// those with the largest partial scores; it reorders them.
func (p *pass) candsBar(s *search) float64 {
	m := min(len(p.cands), probeCases*s.k)
	if m < s.k {
		return 0
	}
	selectBest(p.cands, m)
	docs := p.sc.probes[:0]
	for _, c := range p.cands[:m] {
		docs = append(docs, c.doc)
	}
	p.sc.probes = docs
	return p.exactKth(s, docs)
}

// exactKth returns the k-th best score of s among the (accepted) cases
// docs, computed from their vectors, rounded down (0 when they are fewer
// than k): a lower bound of the k-th best score of s. In a split search,
// among those of every part so far (liveBar.offerExact).
func (p *pass) exactKth(s *search, docs []uint32) float64 {
	ix, sc := p.ix, p.sc
	if len(docs) < s.k && p.live == nil {
		return 0
	}
	sc.spread(ix, s.q)
	scores := sc.probeScores[:0]
	for _, d := range docs {
		v := ix.dotDense(sc.dense, int(d), p.wt) * float64(s.prof.scale[d])
		if s.dated != nil {
			v *= s.dated.factor(int(d))
		}
		// A float32 sum of non-negative products is within a relative
		// 1e-5 of the exact one for vectors of a few hundred terms.
		scores = append(scores, min(v, 1)*(1-1e-4))
	}
	sc.unspread(s.q)
	sc.probeScores = scores
	if p.live != nil {
		return p.live.offerExact(s.k, docs, scores)
	}
	slices.Sort(scores)
	return scores[len(scores)-s.k]
}
