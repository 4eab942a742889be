package similarity

import (
	"math"
	"slices"
	"strings"

	"github.com/caselink/caselink/similarity/par"
)

// This file is the one home of weighting: how the analyzed cases become the
// weighted vectors that every score reads (idf, tf-idf, the pivot, tag
// kinds, the tags' lift, BM25 saturation for pastes, the view profiles).
// Its state is a weighting value passed from step to step; nothing is
// swapped in and out of the Index.

// weighting is what the weight sets of one index are computed from: the raw
// weights of every case entry (aligned with Index.vkey: tf-idf for words,
// idf times the kind's weight for tags) and each case's view norms of them.
type weighting struct {
	raw   []float32
	norms [][NumViews]float64
	// avgLen is each text view's mean length in terms, over the cases that
	// have it (for BM25's length normalization of pastes).
	avgLen [textViews]float64
}

// reweigh computes everything that depends on the whole library — the
// canonical vocabulary, idf, the weighted case vectors, the postings and the
// cases' day numbers for the date priors — from the analyzed cases. Build
// and Reindex both end here, so a reindexed index is identical to one built
// from scratch.
func (ix *Index) reweigh() {
	ix.canonicalize(ix.rawDocFreq())
	wt := ix.caseVectors()
	views := ix.shrinkText(ix.cfg.Views)
	var lift []float32
	var spare *weights // arrays of the same sizes, no longer needed
	if ix.cfg.TagLift {
		lift, spare = ix.tagLift(&wt, views)
	}
	var reuse []float32
	if spare != nil {
		reuse = spare.vval
	}
	rel := ix.tagged(&wt, ix.cfg.TagKinds, lift)
	ix.rw = ix.normalize(&rel, ix.cfg.Pivot, reuse)
	ix.rel = newProfile(views, rel, ix.rw)
	ix.exp = ix.rel
	// Pastes: the tags as the second stage weighs them, the text by
	// saturated term frequency.
	if ix.cfg.ExpandTagKinds != ix.cfg.TagKinds {
		exp := ix.tagged(&wt, ix.cfg.ExpandTagKinds, lift)
		ix.mw = ix.normalize(&exp, ix.cfg.Pivot, nil)
		// The second stage's text weights are rw's and its tag weights
		// mw's, bit for bit (the same raw weights and view norms go into
		// them): it keeps only its norms and reads theirs.
		ix.exp = newProfile(views, exp, &weights{vnorm: ix.mw.vnorm, text: ix.rw, tags: ix.mw})
		ix.mw.vnorm = make([]float32, len(ix.docs)) // saturate's
	} else {
		ix.mw = &weights{vval: slices.Clone(ix.rw.vval), vnorm: make([]float32, len(ix.docs))}
	}
	avgLen := wt.avgLen
	wt = weighting{} // the raw weights are no longer needed
	ix.saturate(ix.mw, &avgLen)
	ix.pasteViews = ix.shrinkText(ix.cfg.Query)
	if spare != nil {
		ix.rw.pval = spare.pval // filled again by invert
	}
	ix.invert(ix.mw, ix.rw)
	ix.buildBlocks()
	ix.mw.bmax = ix.blockMax(ix.mw.pval)
	ix.buildWordBounds()
	ix.rel.maxScaled(ix)
	if ix.exp != ix.rel {
		ix.exp.maxScaled(ix)
	}
	ix.finish()
}

// finish computes what depends on more of the cases than their text and
// tags (dates; organisations and sources are read by events, on first
// use), and the tag rules: the part of reweigh that an index opened from a
// cache file (cachefile.go) computes again.
func (ix *Index) finish() {
	if ix.lazy == nil { // else the cache file's (lazy.go)
		ix.day = ix.dayNumbers()
	}
	ix.relPrior = newDatePrior(ix.cfg.RelateDate, ix.cfg.RelateDays)
	ix.dupePrior = newDatePrior(ix.cfg.DupeDate, ix.cfg.DupeDays)
	ix.buildTagRules()
}

// rawDocFreq returns the document frequency of every raw term: a case
// counts once per term, whatever views the term occurs in.
func (ix *Index) rawDocFreq() []int32 {
	// Counted on all cores, each worker into counts of its own, added up
	// after: the sums do not depend on who counted what.
	const chunk = 4096
	counts := make([][]int32, par.Workers(len(ix.docs), chunk))
	par.For(len(ix.docs), chunk, func(w, lo, hi int) {
		if counts[w] == nil {
			counts[w] = make([]int32, len(ix.voc.terms))
		}
		df := counts[w]
		var ents []entry
		for i := lo; i < hi; i++ {
			var last uint32 = math.MaxUint32
			ents = ix.docs[i].unpack(ents[:0])
			for _, e := range ents {
				if r := e.raw(); r != last {
					df[r]++
					last = r
				}
			}
		}
	})
	rawDF := make([]int32, len(ix.voc.terms))
	for _, df := range counts {
		for r, c := range df {
			rawDF[r] += c
		}
	}
	return rawDF
}

// canonicalize numbers the terms in use, most frequent first, ties by term,
// and records their document frequency and idf.
func (ix *Index) canonicalize(rawDF []int32) {
	n := len(ix.docs)
	ix.craw = ix.craw[:0]
	for r, df := range rawDF {
		if df > 0 {
			ix.craw = append(ix.craw, uint32(r))
		}
	}
	terms := ix.voc.terms
	slices.SortFunc(ix.craw, func(a, b uint32) int {
		if rawDF[a] != rawDF[b] {
			return int(rawDF[b]) - int(rawDF[a])
		}
		return strings.Compare(terms[a], terms[b])
	})
	ix.canon = make([]uint32, len(terms))
	ix.df = make([]int32, len(ix.craw))
	ix.idf = make([]float32, len(ix.craw))
	for c, r := range ix.craw {
		ix.canon[r] = uint32(c) + 1
		ix.df[c] = rawDF[r]
		ix.idf[c] = float32(idf(n, int(rawDF[r])))
	}
}

// kindOf returns the index in TagKindNames of canonical term c's kind, -1
// for a word or a tag of no known kind.
func (ix *Index) kindOf(c uint32) int {
	if t := ix.voc.terms[ix.craw[c]]; strings.HasPrefix(t, tagPrefix) {
		return tagKind(t[len(tagPrefix):])
	}
	return -1
}

// caseVectors lays out the case vectors (vstart, vkey) and returns their raw
// weights, tags weighted by Config.TagKinds; tags of a kind weighted 0 are
// left out of the vectors.
func (ix *Index) caseVectors() weighting {
	n := len(ix.docs)
	tagWeight := make([]float32, len(ix.craw))
	for c := range ix.craw {
		tagWeight[c] = 1
		if k := ix.kindOf(uint32(c)); k >= 0 {
			tagWeight[c] = float32(ix.cfg.TagKinds[k])
		}
	}
	ix.vstart = make([]int, n+1)
	for i := range ix.docs {
		ix.vstart[i+1] = ix.vstart[i] + int(ix.docs[i].n)
	}
	ix.vkey = make([]uint32, ix.vstart[n])
	wt := weighting{raw: make([]float32, ix.vstart[n]), norms: make([][NumViews]float64, n)}
	var withView [textViews]int
	for i := range ix.docs {
		for v := range textViews {
			if l := ix.docs[i].length[v]; l > 0 {
				wt.avgLen[v] += float64(l)
				withView[v]++
			}
		}
	}
	for v := range textViews {
		if withView[v] > 0 {
			wt.avgLen[v] /= float64(withView[v])
		}
	}
	used := make([]int, n)                         // entries kept per case
	packs := make([][]uint64, par.Workers(n, 256)) // scratch per worker
	ents := make([][]entry, len(packs))
	par.For(n, 256, func(w, lo, hi int) {
		for i := lo; i < hi; i++ {
			ents[w] = ix.docs[i].unpack(ents[w][:0])
			packs[w] = ix.weighDoc(i, ents[w], tagWeight, wt.raw, &wt.norms[i], packs[w][:0])
			used[i] = len(packs[w])
		}
	})
	wt.raw = ix.compactVectors(used, wt.raw)
	return wt
}

// weighDoc writes case i's raw weights (of its entries ents) into vkey and
// raw in key order and returns each view's norm in norms.
func (ix *Index) weighDoc(i int, ents []entry, tagWeight, raw []float32, norms *[NumViews]float64, pack []uint64) []uint64 {
	for _, e := range ents {
		c := ix.canon[e.raw()] - 1
		v := e.view()
		w := float64(ix.idf[c])
		if v == Tags {
			w *= float64(tagWeight[c])
			if w == 0 {
				continue
			}
		} else {
			w *= 1 + math.Log(float64(e.tf()))
		}
		norms[v] += w * w
		pack = append(pack, uint64(ix.key(c, v))<<32|uint64(math.Float32bits(float32(w))))
	}
	for v := range norms {
		norms[v] = math.Sqrt(norms[v])
	}
	slices.Sort(pack)
	base := ix.vstart[i]
	for j, p := range pack {
		ix.vkey[base+j] = uint32(p >> 32)
		raw[base+j] = math.Float32frombits(uint32(p))
	}
	return pack
}

// compactVectors closes the gaps left where a case kept fewer entries than
// it has terms, in vkey and in raw, and returns raw cut to length.
func (ix *Index) compactVectors(used []int, raw []float32) []float32 {
	to := 0
	for i, u := range used {
		from := ix.vstart[i]
		copy(ix.vkey[to:to+u], ix.vkey[from:from+u])
		copy(raw[to:to+u], raw[from:from+u])
		ix.vstart[i] = to
		to += u
	}
	ix.vstart[len(used)] = to
	ix.vkey = ix.vkey[:to:to]
	return raw[:to:to]
}

// tagView is one weighting of the tags, ready to normalize: raw weights
// (shared, never copied) with, for tags, a factor per canonical term and
// the lift to apply when they are read (see raw), the norms that divide
// them and, per case, the squared length of its tag part once divided (its
// fill, 1 unless lift shrank its tags; nil means 1 for every case).
type tagView struct {
	raw    []float32
	factor []float64 // per canonical term; nil: the raw tag weights as they are
	lift   []float32 // per canonical term; nil: none
	norms  [][NumViews]float64
	fill   []float32
}

// at returns the weight of vector entry j, whose key is k: its raw weight,
// a tag's times its factor and lift, rounded to float32 as a stored weight
// would be (so every set normalized from it is what a copy would give).
func (tv *tagView) at(k uint32, j int) float32 {
	if tv.factor == nil || keyView(k) != Tags {
		return tv.raw[j]
	}
	x := float64(tv.raw[j]) * tv.factor[keyTerm(k)]
	if tv.lift != nil {
		x *= float64(tv.lift[keyTerm(k)])
	}
	return float32(x)
}

// tagged returns the raw weights of wt with each tag weighed by kinds
// instead of Config.TagKinds and then by its lift (nil: all 1). The norms
// are taken before the lift, so that a case whose tags tell little keeps a
// short tag part instead of being stretched back to unit length.
func (ix *Index) tagged(wt *weighting, kinds [NumTagKinds]float64, lift []float32) tagView {
	if lift == nil && kinds == ix.cfg.TagKinds {
		return tagView{raw: wt.raw, norms: wt.norms}
	}
	factor := make([]float64, len(ix.craw)) // per canonical term: new tag weight / old
	for c := range ix.craw {
		factor[c] = 1
		if k := ix.kindOf(uint32(c)); k >= 0 && ix.cfg.TagKinds[k] > 0 {
			// A kind weighted 0 keeps a trace of weight: postings of
			// weight 0 would look untouched to the accumulator.
			factor[c] = max(kinds[k], 1e-6) / ix.cfg.TagKinds[k]
		}
	}
	tv := tagView{raw: wt.raw, factor: factor, lift: lift, norms: slices.Clone(wt.norms), fill: make([]float32, len(wt.norms))}
	for i := range tv.norms {
		var n2, l2 float64
		for j := ix.vstart[i]; j < ix.vstart[i+1]; j++ {
			if k := ix.vkey[j]; keyView(k) == Tags {
				x := float64(tv.raw[j]) * factor[keyTerm(k)]
				n2 += x * x
				if lift != nil {
					x *= float64(lift[keyTerm(k)])
				}
				l2 += x * x
			}
		}
		tv.norms[i][Tags] = math.Sqrt(n2)
		if n2 > 0 {
			tv.fill[i] = float32(l2 / n2)
		}
	}
	return tv
}

// weights are the case vectors' weights under one length normalization:
// per case entry (aligned with vkey), per posting (aligned with pdoc), each
// case's norm and each key's largest posting weight (for pruning bounds).
//
// A set whose text weights are another set's and whose tag weights are a
// third's (the second stage of match: rw's text, mw's tags) holds only its
// norms, with text and tags pointing at the two sets; read its weights
// through postings and at.
type weights struct {
	vval  []float32
	pval  []float32
	vnorm []float32
	pmax  []float32
	bmax  []float32 // per block of postings, the largest of pval (pastes' weights only)

	text, tags *weights // a shared set's sources; nil for a set of its own
}

// postings returns the weights of key k's postings, indexed like pdoc
// (slice it with pstart[k]:pstart[k+1]). A key's postings are all of one
// view, so a shared set is resolved once per key, not per posting.
func (w *weights) postings(k uint32) []float32 {
	if w.text == nil {
		return w.pval
	}
	if keyView(k) == Tags {
		return w.tags.pval
	}
	return w.text.pval
}

// at returns the weight of case vector entry j, whose key is k.
func (w *weights) at(k uint32, j int) float32 {
	if w.text == nil {
		return w.vval[j]
	}
	if keyView(k) == Tags {
		return w.tags.vval[j]
	}
	return w.text.vval[j]
}

// normalize divides each view of each case's raw weights by
// max(‖x‖, s·p + (1−s)·‖x‖), where ‖x‖ is the view's norm in norms and p
// the view's mean norm over the library (the pivot).
//
// The weights are written into vval when it has room for them (an array of
// a set no longer needed: no second copy is held while it is filled), else
// into a new array.
func (ix *Index) normalize(tv *tagView, s float64, vval []float32) *weights {
	norms := tv.norms
	var pivot [NumViews]float64
	var count [NumViews]int
	for i := range norms {
		for v, x := range norms[i] {
			if x > 0 {
				pivot[v] += x
				count[v]++
			}
		}
	}
	for v := range pivot {
		if count[v] > 0 {
			pivot[v] /= float64(count[v])
		}
	}
	n := len(ix.docs)
	if len(vval) != len(tv.raw) {
		vval = make([]float32, len(tv.raw))
	}
	w := &weights{vval: vval, vnorm: make([]float32, n)}
	par.For(n, 256, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			var div [NumViews]float64
			for v, x := range norms[i] {
				if x > 0 {
					div[v] = max(x, s*pivot[v]+(1-s)*x)
				}
			}
			var n2 float64
			for j := ix.vstart[i]; j < ix.vstart[i+1]; j++ {
				k := ix.vkey[j]
				x := float32(float64(tv.at(k, j)) / div[keyView(k)])
				w.vval[j] = x
				n2 += float64(x) * float64(x)
			}
			w.vnorm[i] = float32(math.Sqrt(n2) * (1 + 1e-6))
		}
	})
	return w
}

// saturate replaces the text weights of w by BM25's saturated term
// frequency, scaled into [0, 1):
//
//	sat = tf / (tf + K1·(1 − B + B·len/avglen))
//
// where len is the length of the case's view and avglen the mean over the
// library, and recomputes the case norms. A paste is an idf-weighted share
// of terms (see analyzePaste), so its score against a view is BM25 divided
// by the paste's largest possible BM25 score. Tags keep their weights.
func (ix *Index) saturate(w *weights, avgLen *[textViews]float64) {
	k1, b := ix.cfg.K1, ix.cfg.B
	n := len(ix.docs)
	tfs := make([]map[uint32]int, par.Workers(n, 256)) // scratch per worker
	ents := make([][]entry, len(tfs))
	par.For(n, 256, func(wk, lo, hi int) {
		if tfs[wk] == nil {
			tfs[wk] = make(map[uint32]int)
		}
		tf := tfs[wk]
		for i := lo; i < hi; i++ {
			d := &ix.docs[i]
			var lnorm [textViews]float64
			for v := range textViews {
				lnorm[v] = 1 - b
				if avgLen[v] > 0 {
					lnorm[v] += b * float64(d.length[v]) / avgLen[v]
				}
			}
			// The analyzed entries are ordered by raw term, the vector by
			// canonical key: look each entry's tf up by its key.
			clear(tf)
			ents[wk] = d.unpack(ents[wk][:0])
			for _, e := range ents[wk] {
				if e.view() != Tags {
					tf[ix.key(ix.canon[e.raw()]-1, e.view())] = e.tf()
				}
			}
			var n2 float64
			for j := ix.vstart[i]; j < ix.vstart[i+1]; j++ {
				k := ix.vkey[j]
				if v := keyView(k); v != Tags {
					t := float64(tf[k])
					w.vval[j] = float32(t / (t + k1*lnorm[v]))
				}
				n2 += float64(w.vval[j]) * float64(w.vval[j])
			}
			w.vnorm[i] = float32(math.Sqrt(n2) * (1 + 1e-6))
		}
	})
}

// shrinkText returns view weights for case-to-case scores, normalized, with
// the text views scaled by N/(N+TextPrior): in a library of a handful of
// cases idf cannot tell a telling word from a common one, so text similarity
// is mostly shared everyday words and the curated tags should decide; from a
// few hundred cases on the factor is close to 1. A library without tags is
// unaffected (its text views keep their proportions).
func (ix *Index) shrinkText(w [NumViews]float64) [NumViews]float64 {
	if p := ix.cfg.TextPrior; p > 0 {
		n := float64(len(ix.docs))
		for v := range textViews {
			w[v] *= n / (n + p)
		}
	}
	return normalized(w)
}

// profile is one weighting of the views for case-to-case scores: the view
// weights, each case's scale 1/‖case‖ under them (0 for an empty case), and
// per key the largest posting weight times its case's scale, the upper bound
// that pruning needs.
type profile struct {
	views [NumViews]float64
	scale []float32
	pmax  []float32
	w     *weights // the weights it scores with
	// unorm is each case's norm under the profile, ‖√view·w·scale‖ (at
	// most 1), and umax the largest: a score is the inner product of two
	// such vectors, so Cauchy–Schwarz bounds what unread terms can add
	// (see pass.reaches).
	unorm []float32
	umax  float64
	// bounds holds each case's scale, unorm and level norms side by side:
	// a search screens tens of thousands of cases a query at random
	// positions, and reads all of each, so one cache line fetched instead
	// of several (eval/notes/relate-million.md).
	bounds []caseBound
}

// caseBound is a case's scale and norm under a profile (profile.bounds),
// and its level norms (levels.go).
type caseBound struct {
	scale, unorm float32
	lev          [numLevels]uint8
}

// newProfile computes the case scales for view weights w: ‖case‖² is the sum
// of the weights of the text views the case has, plus the tag view's weight
// times its tag fill.
func newProfile(w [NumViews]float64, tv tagView, wt *weights) *profile {
	p := &profile{views: w, scale: make([]float32, len(tv.norms)), w: wt}
	for i := range tv.norms {
		var n2 float64
		for v, x := range tv.norms[i] {
			switch {
			case x == 0 || w[v] == 0:
			case View(v) == Tags && tv.fill != nil:
				n2 += w[v] * float64(tv.fill[i])
			default:
				n2 += w[v]
			}
		}
		if n2 > 0 {
			p.scale[i] = float32(1 / math.Sqrt(n2))
		}
	}
	return p
}

// maxScaled computes the profile's pruning bounds from its weights' postings
// and vectors.
func (p *profile) maxScaled(ix *Index) {
	p.pmax = make([]float32, len(ix.pstart)-1)
	for k := range p.pmax {
		vals := p.w.postings(uint32(k))
		for j := ix.pstart[k]; j < ix.pstart[k+1]; j++ {
			p.pmax[k] = max(p.pmax[k], vals[j]*p.scale[ix.pdoc[j]])
		}
	}
	p.unorm = make([]float32, len(p.scale))
	par.For(len(p.scale), 1024, func(_, lo, hi int) {
		for d := lo; d < hi; d++ {
			var n2 float64
			for j := ix.vstart[d]; j < ix.vstart[d+1]; j++ {
				k := ix.vkey[j]
				x := float64(p.w.at(k, j))
				n2 += p.views[keyView(k)] * x * x
			}
			// Rounded up, so that the bound stays one.
			p.unorm[d] = float32(math.Sqrt(n2) * float64(p.scale[d]) * (1 + 1e-6))
		}
	})
	p.setUmax(p.levelNorms(ix))
}

// setUmax sets umax and bounds from scale, unorm and the level norms
// (numLevels bytes a case, as levelNorms returns them).
func (p *profile) setUmax(levels []uint8) {
	p.umax = 0
	p.bounds = make([]caseBound, len(p.unorm))
	for d, u := range p.unorm {
		p.umax = max(p.umax, float64(u))
		b := caseBound{scale: p.scale[d], unorm: u}
		copy(b.lev[:], levels[d*numLevels:])
		p.bounds[d] = b
	}
}

// levels returns the level norms of bounds, numLevels bytes a case, for
// the cache file.
func (p *profile) levels() []uint8 {
	out := make([]uint8, len(p.bounds)*numLevels)
	for d, b := range p.bounds {
		copy(out[d*numLevels:], b.lev[:])
	}
	return out
}

// idf is the smoothed inverse document frequency ln((1+n)/(1+df)) + 1.
func idf(n, df int) float64 {
	return math.Log(float64(1+n)/float64(1+df)) + 1
}
