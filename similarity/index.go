package similarity

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/par"
	"github.com/caselink/caselink/tokenize"
)

// Index holds the vectors of a library's cases and an inverted index over
// them. An Index is immutable once built and safe for concurrent use;
// [Index.Reindex] returns a new Index and leaves the old one serving.
type Index struct {
	cfg   Config
	query [NumViews]float64 // cfg.Query, normalized
	// rel weighs case-to-case scores for relate and dupes (cfg.Views,
	// cfg.TagKinds), exp for the second stage of match (cfg.Views,
	// cfg.ExpandTagKinds); they may be the same.
	rel, exp *profile
	an       *tokenize.Analyzer
	voc      *vocabulary

	cases []*caselib.Case
	src   []Document // what was indexed, for Reindex to tell changed documents
	docs  []analyzed
	byID  map[string]int

	// Canonical vocabulary of this build: the terms in use, most frequent
	// first, ties by term. Keys of vectors and postings are
	// canonical id·NumViews + view.
	canon []uint32 // raw id → canonical id + 1; 0 when the term is not in use
	craw  []uint32 // canonical id → raw id
	df    []int32  // canonical id → number of cases that have the term
	idf   []float32
	// tagWeight is Config.TagKinds of a tag's kind, by canonical id (1 for words).
	tagWeight []float32

	// Case vectors, compressed sparse rows: case i has keys vkey[vstart[i]:vstart[i+1]],
	// sorted, with weights in mw.vval and rw.vval (each view L2-normalized,
	// pivot penalty applied).
	vstart []int
	vkey   []uint32
	vval   []float32 // raw weights, before length normalization
	// mw are the weights pastes are matched against (saturated term
	// frequencies, the tags of exp.w), rw those of relate and dupes
	// (Config.Pivot, Config.TagKinds); the second stage of match has its
	// own in exp.w (Config.ExpandTagKinds), shared with rw when equal.
	mw, rw *weights

	// Postings: key k lists the cases pdoc[pstart[k]:pstart[k+1]], ascending,
	// with their weights in mw.pval and rw.pval.
	pstart []int
	pdoc   []uint32
	// bstart[k] is the first block of key k's postings; blocks of
	// blockSize postings carry their largest weight in weights.bmax (see
	// blockmax.go).
	bstart []uint32

	tagRules map[string][]tagRule // first word of a tag → tags that start with it

	// day is each case's date as a day number (noDay when it has none), for
	// the date priors of relate (relPrior) and dupes (dupePrior); a nil
	// prior is off.
	day                 []int32
	relPrior, dupePrior *datePrior
	// ev holds what the same-event evidence of dupes needs.
	ev *events

	scorers sync.Pool // *scorer, sized for this index

	fuzzy fuzzyState // the words typos are corrected to, built on first use
}

// Build analyzes and indexes docs with cfg, in their order (the library
// order of [Index.Case]). Each document needs its Case, and case ids must be
// unique. [Documents] makes the documents of a library's cases; [BuildCases]
// does both steps.
func Build(docs []Document, cfg Config) (*Index, error) {
	return BuildProgress(docs, cfg, nil)
}

// BuildCases indexes cases with cfg: Build of their [Documents].
func BuildCases(cases []*caselib.Case, cfg Config) (*Index, error) {
	return Build(Documents(cases), cfg)
}

// BuildProgress is Build that calls progress, when not nil, now and then
// with the number of documents analyzed so far (never concurrently);
// analysis is most of the time of a build.
func BuildProgress(docs []Document, cfg Config, progress func(done int)) (*Index, error) {
	ix := &Index{cfg: cfg, an: tokenize.New(cfg.Analyzer), voc: newVocabulary()}
	if err := ix.setDocuments(docs); err != nil {
		return nil, err
	}
	ix.docs = analyzeDocs(ix.an, ix.voc, docs, nil, progress)
	ix.reweigh()
	return ix, nil
}

// setDocuments sets the index's documents, cases and ids, checking that
// every document has a case and that ids are unique.
func (ix *Index) setDocuments(docs []Document) error {
	ix.src = slices.Clone(docs)
	ix.cases = make([]*caselib.Case, len(docs))
	ix.docs = make([]analyzed, len(docs))
	ix.byID = make(map[string]int, len(docs))
	for i, d := range docs {
		c := d.Case
		if c == nil {
			return fmt.Errorf("document %d has no case", i)
		}
		if j, dup := ix.byID[c.ID]; dup {
			return fmt.Errorf("case id %q appears twice (%s and %s)", c.ID, locString(ix.cases[j]), locString(c))
		}
		ix.byID[c.ID] = i
		ix.cases[i] = c
	}
	return nil
}

func locString(c *caselib.Case) string {
	if c.Loc.File == "" {
		return "?"
	}
	return c.Loc.String()
}

// Len returns the number of cases in the index.
func (ix *Index) Len() int { return len(ix.cases) }

// Config returns the configuration the index was built with.
func (ix *Index) Config() Config { return ix.cfg }

// Analyzer returns the analyzer the index uses for case text and queries.
func (ix *Index) Analyzer() *tokenize.Analyzer { return ix.an }

// Case returns the case at position i (0 ≤ i < Len()), in library order.
func (ix *Index) Case(i int) *caselib.Case { return ix.cases[i] }

// Cases returns all cases in library order. The slice must not be modified.
func (ix *Index) Cases() []*caselib.Case { return ix.cases }

// Lookup returns the position of the case with the given id.
func (ix *Index) Lookup(id string) (int, bool) {
	i, ok := ix.byID[id]
	return i, ok
}

// Terms returns the number of distinct terms (words and tags) in use.
func (ix *Index) Terms() int { return len(ix.craw) }

// Postings returns the number of (term, view, case) entries in the index.
func (ix *Index) Postings() int { return len(ix.pdoc) }

// key is the vector and postings key of a term in a view; keyView and
// keyTerm take it apart.
func (ix *Index) key(canon uint32, v View) uint32 { return canon*uint32(NumViews) + uint32(v) }

func keyView(k uint32) View   { return View(k % uint32(NumViews)) }
func keyTerm(k uint32) uint32 { return k / uint32(NumViews) }

// reweigh computes everything that depends on the whole library — the
// canonical vocabulary, idf, the weighted case vectors, the postings and the
// cases' day numbers for the date priors — from the analyzed cases. Build and Reindex both end here, so a reindexed
// index is identical to one built from scratch.
func (ix *Index) reweigh() {
	n := len(ix.docs)
	ix.day = ix.dayNumbers()
	ix.relPrior = newDatePrior(ix.cfg.RelateDate, ix.cfg.RelateDays)
	ix.dupePrior = newDatePrior(ix.cfg.DupeDate, ix.cfg.DupeDays)
	nraw := len(ix.voc.terms)

	// Document frequency per raw term: a case counts once per term, whatever
	// views the term occurs in.
	rawDF := make([]int32, nraw)
	for i := range ix.docs {
		var last uint32 = math.MaxUint32
		for _, e := range ix.docs[i].ents {
			if r := e.raw(); r != last {
				rawDF[r]++
				last = r
			}
		}
	}
	// Canonical ids: terms in use, most frequent first, ties by term.
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
	ix.tagWeight = make([]float32, len(ix.craw))
	for c, r := range ix.craw {
		ix.tagWeight[c] = 1
		if t := terms[r]; strings.HasPrefix(t, tagPrefix) {
			if k := tagKind(t[len(tagPrefix):]); k >= 0 {
				ix.tagWeight[c] = float32(ix.cfg.TagKinds[k])
			}
		}
	}
	ix.canon = make([]uint32, nraw)
	ix.df = make([]int32, len(ix.craw))
	ix.idf = make([]float32, len(ix.craw))
	for c, r := range ix.craw {
		ix.canon[r] = uint32(c) + 1
		ix.df[c] = rawDF[r]
		ix.idf[c] = float32(idf(n, int(rawDF[r])))
	}

	// Case vectors.
	ix.vstart = make([]int, n+1)
	for i := range ix.docs {
		ix.vstart[i+1] = ix.vstart[i] + len(ix.docs[i].ents)
	}
	total := ix.vstart[n]
	ix.vkey = make([]uint32, total)
	ix.vval = make([]float32, total)
	norms := make([][NumViews]float64, n)
	var avgLen [textViews]float64
	var withView [textViews]int
	for i := range ix.docs {
		for v := range textViews {
			if l := ix.docs[i].length[v]; l > 0 {
				avgLen[v] += float64(l)
				withView[v]++
			}
		}
	}
	for v := range textViews {
		if withView[v] > 0 {
			avgLen[v] /= float64(withView[v])
		}
	}
	used := make([]int, n)                         // entries kept per case: tags of a kind weighted 0 are dropped
	packs := make([][]uint64, par.Workers(n, 256)) // scratch per worker
	par.For(n, 256, func(w, lo, hi int) {
		for i := lo; i < hi; i++ {
			packs[w] = ix.weighDoc(i, &norms[i], packs[w][:0])
			used[i] = len(packs[w])
		}
	})
	ix.compactVectors(used)
	// Pivoted length normalization: the pivot of a view is its mean norm.
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
	ix.rw = ix.normalize(ix.cfg.Pivot, &pivot, norms)
	ix.rel = newProfile(ix.shrinkText(ix.cfg.Views), norms, ix.rw)
	ix.exp = ix.rel
	if ix.cfg.ExpandTagKinds != ix.cfg.TagKinds {
		ix.exp = newProfile(ix.rel.views, norms, ix.reweighTags(ix.cfg.ExpandTagKinds, ix.cfg.Pivot, &pivot, norms))
	}
	// Pastes: the tags as the second stage weighs them, the text by
	// saturated term frequency.
	ix.mw = &weights{vval: slices.Clone(ix.exp.w.vval), vnorm: make([]float32, n)}
	ix.saturate(ix.mw, &avgLen)
	ix.query = ix.shrinkText(ix.cfg.Query)
	ix.vval = nil // the raw weights are no longer needed
	ix.buildPostings()
	ix.buildTagRules()
	ix.buildEvents()
}

// reweighTags returns weights normalized with pivot strength s whose tags
// are weighted by kinds instead of Config.TagKinds (for pastes and the
// second stage of match).
func (ix *Index) reweighTags(kinds [NumTagKinds]float64, s float64, pivot *[NumViews]float64, norms [][NumViews]float64) *weights {
	raw := ix.vval
	ix.vval = slices.Clone(raw)
	factor := make([]float64, len(ix.craw)) // per canonical term: new tag weight / old
	for c, r := range ix.craw {
		factor[c] = 1
		if t := ix.voc.terms[r]; strings.HasPrefix(t, tagPrefix) {
			if k := tagKind(t[len(tagPrefix):]); k >= 0 && ix.cfg.TagKinds[k] > 0 {
				// A kind weighted 0 keeps a trace of weight: postings of
				// weight 0 would look untouched to the accumulator.
				factor[c] = max(kinds[k], 1e-6) / ix.cfg.TagKinds[k]
			}
		}
	}
	tn := slices.Clone(norms)
	tp := *pivot
	var sum float64
	count := 0
	for i := range tn {
		var n2 float64
		for j := ix.vstart[i]; j < ix.vstart[i+1]; j++ {
			if k := ix.vkey[j]; keyView(k) == Tags {
				x := float64(ix.vval[j]) * factor[keyTerm(k)]
				ix.vval[j] = float32(x)
				n2 += x * x
			}
		}
		tn[i][Tags] = math.Sqrt(n2)
		if n2 > 0 {
			sum += tn[i][Tags]
			count++
		}
	}
	if count > 0 {
		tp[Tags] = sum / float64(count)
	}
	w := ix.normalize(s, &tp, tn)
	ix.vval = raw
	return w
}

// weights are the case vectors' weights under one length normalization:
// per case entry (aligned with vkey), per posting (aligned with pdoc), each
// case's norm and each key's largest posting weight (for pruning bounds).
type weights struct {
	vval  []float32
	pval  []float32
	vnorm []float32
	pmax  []float32
	bmax  []float32 // per block of postings, the largest of pval (pastes' weights only)
}

// normalize divides each view of each case by max(‖x‖, s·p + (1−s)·‖x‖),
// where p is the view's mean norm (the pivot).
func (ix *Index) normalize(s float64, pivot *[NumViews]float64, norms [][NumViews]float64) *weights {
	n := len(ix.docs)
	w := &weights{vval: make([]float32, len(ix.vval)), vnorm: make([]float32, n)}
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
				x := float32(float64(ix.vval[j]) / div[keyView(ix.vkey[j])])
				w.vval[j] = x
				n2 += float64(x) * float64(x)
			}
			w.vnorm[i] = float32(math.Sqrt(n2) * (1 + 1e-6))
		}
	})
	return w
}

// weighDoc writes case i's raw weights (before normalization) into vkey/vval
// in key order and returns each view's norm in norms.
func (ix *Index) weighDoc(i int, norms *[NumViews]float64, pack []uint64) []uint64 {
	d := &ix.docs[i]
	for _, e := range d.ents {
		c := ix.canon[e.raw()] - 1
		v := e.view()
		w := float64(ix.idf[c])
		if v == Tags {
			w *= float64(ix.tagWeight[c])
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
		ix.vval[base+j] = math.Float32frombits(uint32(p))
	}
	return pack
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
			for _, e := range d.ents {
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

// compactVectors closes the gaps left where a case kept fewer entries than
// it has terms.
func (ix *Index) compactVectors(used []int) {
	to := 0
	for i, u := range used {
		from := ix.vstart[i]
		copy(ix.vkey[to:to+u], ix.vkey[from:from+u])
		copy(ix.vval[to:to+u], ix.vval[from:from+u])
		ix.vstart[i] = to
		to += u
	}
	ix.vstart[len(used)] = to
	ix.vkey, ix.vval = ix.vkey[:to:to], ix.vval[:to:to]
}

// buildPostings inverts the case vectors into per-key postings.
func (ix *Index) buildPostings() {
	nkeys := len(ix.craw) * NumViews
	ix.pstart = make([]int, nkeys+1)
	for _, k := range ix.vkey {
		ix.pstart[k+1]++
	}
	for k := range nkeys {
		ix.pstart[k+1] += ix.pstart[k]
	}
	total := len(ix.vkey)
	ix.pdoc = make([]uint32, total)
	both := []*weights{ix.mw}
	for _, w := range []*weights{ix.rw, ix.exp.w} {
		if !slices.Contains(both, w) {
			both = append(both, w)
		}
	}
	for _, w := range both {
		w.pval = make([]float32, total)
		w.pmax = make([]float32, nkeys)
	}
	fill := slices.Clone(ix.pstart[:nkeys])
	for i := range ix.docs {
		for j := ix.vstart[i]; j < ix.vstart[i+1]; j++ {
			k := ix.vkey[j]
			p := fill[k]
			fill[k]++
			ix.pdoc[p] = uint32(i)
			for _, w := range both {
				x := w.vval[j]
				w.pval[p] = x
				w.pmax[k] = max(w.pmax[k], x)
			}
		}
	}
	ix.buildBlocks()
	ix.mw.bmax = ix.blockMax(ix.mw.pval)
	ix.rel.maxScaled(ix)
	if ix.exp != ix.rel {
		ix.exp.maxScaled(ix)
	}
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
}

// newProfile computes the case scales for view weights w: ‖case‖² is the sum
// of the weights of the views the case has.
func newProfile(w [NumViews]float64, norms [][NumViews]float64, wt *weights) *profile {
	p := &profile{views: w, scale: make([]float32, len(norms)), w: wt}
	for i := range norms {
		var n2 float64
		for v, x := range norms[i] {
			if x > 0 {
				n2 += w[v]
			}
		}
		if n2 > 0 {
			p.scale[i] = float32(1 / math.Sqrt(n2))
		}
	}
	return p
}

func (p *profile) maxScaled(ix *Index) {
	p.pmax = make([]float32, len(ix.pstart)-1)
	for k := range p.pmax {
		for j := ix.pstart[k]; j < ix.pstart[k+1]; j++ {
			p.pmax[k] = max(p.pmax[k], p.w.pval[j]*p.scale[ix.pdoc[j]])
		}
	}
}

// idf is the smoothed inverse document frequency ln((1+n)/(1+df)) + 1.
func idf(n, df int) float64 {
	return math.Log(float64(1+n)/float64(1+df)) + 1
}
