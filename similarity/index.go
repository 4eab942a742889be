package similarity

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/par"
	"github.com/caselink/caselink/tokenize"
)

// Index holds the vectors of a library's cases and an inverted index over
// them. An Index is immutable once built and safe for concurrent use;
// [Index.Reindex] returns a new Index and leaves the old one serving. It is
// built, opened from a cache file with its cases, or opened without them:
// the package documentation's "Opening an index" says what each can do.
type Index struct {
	cfg        Config
	pasteViews [NumViews]float64 // cfg.Query, normalized: a paste's weight per view
	// rel weighs case-to-case scores for relate and dupes (cfg.Views,
	// cfg.TagKinds), exp for the second stage of match (cfg.Views,
	// cfg.ExpandTagKinds); they may be the same.
	rel, exp *profile
	an       *tokenize.Analyzer
	voc      *vocabulary

	cases []*caselib.Case
	// own holds the documents that are not their case's NewDocument (a
	// caller's experiment), by position; the others are made again from
	// their case when needed (see document), not kept for the index's life.
	own  map[int]*Document
	docs []analyzed
	ids  []string // each case's id
	byID map[string]int
	// lazy, for an index opened without its cases (OpenCacheLazy, lazy.go),
	// reads them when asked for; cases are then not filled, and byID is
	// built on the first Lookup.
	lazy     *lazyCases
	byIDOnce sync.Once

	// Canonical vocabulary of this build: the terms in use, most frequent
	// first, ties by term. Keys of vectors and postings are
	// canonical id·NumViews + view.
	canon []uint32 // raw id → canonical id + 1; 0 when the term is not in use
	craw  []uint32 // canonical id → raw id
	df    []int32  // canonical id → number of cases that have the term
	idf   []float32

	// Case vectors, compressed sparse rows: case i has keys vkey[vstart[i]:vstart[i+1]],
	// sorted, with weights in mw.vval and rw.vval (each view L2-normalized,
	// pivot penalty applied).
	vstart []int
	vkey   []uint32
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
	// wb bounds each word's paste weight per window (wordwindows.go).
	wb wordBounds

	tagRules map[string][]tagRule // first word of a tag → tags that start with it

	// day is each case's date as a day number (noDay when it has none), for
	// the date priors of relate (relPrior) and dupes (dupePrior); a nil
	// prior is off.
	day                 []int32
	relPrior, dupePrior *datePrior
	// ev holds what the same-event evidence of dupes needs, built by
	// events on first use (under evMu: a build that fails is tried again).
	ev   atomic.Pointer[events]
	evMu sync.Mutex

	scorers sync.Pool // *scorer, sized for this index
	// opts are the switches tests turn (the zero value in use).
	opts searchOptions

	fuzzy fuzzyState // the words typos are corrected to, built on first use

	// maps are the index files ix points into, released by Close
	// (mapping.go).
	maps   []*mapping
	closed atomic.Bool
}

// Build analyzes and indexes docs with cfg, in their order (the library
// order of [Index.Case]). Each document needs its Case, and case ids must be
// unique. [Documents] makes the documents of a library's cases; [BuildCases]
// does both steps. A cfg that fails [Config.Validate] is refused.
func Build(docs []Document, cfg Config) (*Index, error) {
	return BuildProgress(docs, cfg, nil)
}

// BuildCases indexes cases with cfg: Build of their [Documents], each made
// as it is analyzed, so that the documents of the whole library are never
// held at once.
func BuildCases(cases []*caselib.Case, cfg Config) (*Index, error) {
	return BuildCasesProgress(cases, cfg, nil)
}

// BuildCasesProgress is [BuildCases] that reports progress as
// [BuildProgress] does.
func BuildCasesProgress(cases []*caselib.Case, cfg Config, progress func(done int)) (*Index, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ix := &Index{cfg: cfg, an: tokenize.New(cfg.Analyzer), voc: newVocabulary()}
	if err := ix.setCases(cases); err != nil {
		return nil, err
	}
	ix.docs = analyzeDocs(ix.an, ix.voc, len(cases), func(i int) *Document {
		d := NewDocument(cases[i])
		return &d
	}, nil, progress)
	ix.reweigh()
	return ix, nil
}

// BuildProgress is Build that calls progress, when not nil, now and then
// with the number of documents analyzed so far (never concurrently);
// analysis is most of the time of a build.
func BuildProgress(docs []Document, cfg Config, progress func(done int)) (*Index, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ix := &Index{cfg: cfg, an: tokenize.New(cfg.Analyzer), voc: newVocabulary()}
	if err := ix.setDocuments(docs); err != nil {
		return nil, err
	}
	ix.docs = analyzeDocs(ix.an, ix.voc, len(docs), func(i int) *Document { return &docs[i] }, nil, progress)
	ix.keepOwn(docs)
	ix.reweigh()
	return ix, nil
}

// setDocuments sets the index's cases and ids from docs, checking that
// every document has a case and that ids are unique.
func (ix *Index) setDocuments(docs []Document) error {
	cases := make([]*caselib.Case, len(docs))
	for i, d := range docs {
		if d.Case == nil {
			return fmt.Errorf("document %d has no case", i)
		}
		cases[i] = d.Case
	}
	return ix.setCases(cases)
}

// keepOwn keeps a copy of the documents of docs that are not their case's
// NewDocument: what was indexed, for Reindex to tell changed documents and
// for explanations to quote.
func (ix *Index) keepOwn(docs []Document) {
	own := make([]bool, len(docs))
	par.For(len(docs), 256, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			nd := NewDocument(docs[i].Case)
			own[i] = !sameContent(&nd, &docs[i])
		}
	})
	for i, o := range own {
		if o {
			ix.keepDocument(i, docs[i])
		}
	}
}

// keepDocument keeps a copy of d as the document at position i.
func (ix *Index) keepDocument(i int, d Document) {
	if ix.own == nil {
		ix.own = make(map[int]*Document)
	}
	for v := range d.Text {
		d.Text[v] = slices.Clone(d.Text[v])
	}
	d.Tags = slices.Clone(d.Tags)
	ix.own[i] = &d
}

// ownPositions returns the positions of the documents kept, ascending.
func (ix *Index) ownPositions() []int32 {
	pos := make([]int32, 0, len(ix.own))
	for i := range ix.own {
		pos = append(pos, int32(i))
	}
	slices.Sort(pos)
	return pos
}

// document returns the document indexed at position i.
func (ix *Index) document(i int) *Document {
	if d, ok := ix.own[i]; ok {
		return d
	}
	d := NewDocument(ix.Case(i))
	return &d
}

// setCases sets the index's cases and ids, checking that ids are unique.
func (ix *Index) setCases(cases []*caselib.Case) error {
	ix.cases = slices.Clone(cases)
	ix.docs = make([]analyzed, len(cases))
	ix.byID = make(map[string]int, len(cases))
	ix.ids = make([]string, len(cases))
	for i, c := range cases {
		if c == nil {
			return fmt.Errorf("case %d is nil", i)
		}
		if j, dup := ix.byID[c.ID]; dup {
			return fmt.Errorf("case id %q appears twice (%s and %s)", c.ID, locString(ix.cases[j]), locString(c))
		}
		ix.byID[c.ID] = i
		ix.ids[i] = c.ID
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
// It cannot fail on an index that holds its cases ([Index.HoldsCases]); an
// index opened by [OpenCacheLazy] reads the case on first use, and one that
// cannot be read panics with its [*CaseError]: its caller reads the cases
// it will use with [Index.ReadCases] first, where the error is returned.
func (ix *Index) Case(i int) *caselib.Case {
	if ix.lazy != nil {
		return ix.lazy.mustGet(ix, i)
	}
	return ix.cases[i]
}

// Cases returns all cases in library order. The slice must not be
// modified. An index opened by [OpenCacheLazy] holds no cases and cannot
// give them all: Cases panics there, rather than read the whole library
// behind its caller's back ([Index.HoldsCases] tells beforehand).
func (ix *Index) Cases() []*caselib.Case {
	if ix.lazy != nil {
		panic(errNoCases)
	}
	return ix.cases
}

// ID returns the id of the case at position i.
func (ix *Index) ID(i int) string { return ix.ids[i] }

// Lookup returns the position of the case with the given id.
func (ix *Index) Lookup(id string) (int, bool) {
	ix.byIDOnce.Do(func() {
		if ix.byID == nil { // opened without its cases: built when first needed
			ix.byID = make(map[string]int, len(ix.ids))
			for i, id := range ix.ids {
				ix.byID[id] = i
			}
		}
	})
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

// invert fills the postings of the case vectors: the keys' lists of cases
// (pstart, pdoc; built on the first call) and, for each of ws, the weight of
// every posting and each key's largest one.
func (ix *Index) invert(ws ...*weights) {
	nkeys := len(ix.craw) * NumViews
	total := len(ix.vkey)
	first := ix.pstart == nil
	if first {
		ix.pstart = make([]int, nkeys+1)
		for _, k := range ix.vkey {
			ix.pstart[k+1]++
		}
		for k := range nkeys {
			ix.pstart[k+1] += ix.pstart[k]
		}
		ix.pdoc = make([]uint32, total)
	}
	var todo []*weights
	for _, w := range ws {
		if !slices.Contains(todo, w) {
			todo = append(todo, w)
			if len(w.pval) != total {
				w.pval = make([]float32, total)
			}
			w.pmax = make([]float32, nkeys)
		}
	}
	// One pass over the case vectors per array filled, each on a core of
	// its own: the cases of the postings (first call only: they do not
	// change), then each weight set's values. The passes write apart and
	// each in posting order, so the result is the serial loop's.
	tasks := len(todo)
	if first {
		tasks++
	}
	par.Each(tasks, func(t int) {
		fill := slices.Clone(ix.pstart[:nkeys])
		if first && t == tasks-1 {
			for i := range ix.docs {
				for _, k := range ix.vkey[ix.vstart[i]:ix.vstart[i+1]] {
					ix.pdoc[fill[k]] = uint32(i)
					fill[k]++
				}
			}
			return
		}
		w := todo[t]
		for j, k := range ix.vkey {
			p := fill[k]
			fill[k]++
			x := w.vval[j]
			w.pval[p] = x
			w.pmax[k] = max(w.pmax[k], x)
		}
	})
}
