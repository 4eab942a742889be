package similarity

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/par"
	"github.com/caselink/caselink/tokenize"
)

// builder.go indexes a library as it is read, case by case: each batch of
// cases is analyzed and dropped, and the index keeps of the cases only what
// an index opened without them keeps (lazy.go), so that building never holds
// the library's text.

// streamBatch is how many cases a Builder holds before analyzing them: a
// whole number of the parts DocsSum hashes, so that the sum is taken batch
// by batch.
const streamBatch = docsSumPart

// Builder indexes the cases of a library given one at a time, in library
// order ([caselib.Stream] hands them so), without holding them: Add analyzes
// them a batch at a time, Index weighs them. The index it returns answers as
// [BuildCases] of the same cases, byte for byte, and holds no cases, like one
// opened by [OpenCacheLazy]: it reads a case through the function given to
// Index when asked for one, and can be saved ([Index.SaveCache]). A Builder
// is used by one goroutine.
type Builder struct {
	ix       *Index
	analysis *analysis
	batch    []*caselib.Case
	sums     [][32]byte // DocsSum's part sums
	n        int
	entries  int // the entries analyzed so far

	// The documents of the last two batches: the analysis makes a batch's
	// on all cores, and its part of the sum is taken while the next batch
	// is read (hashed), off the path of the goroutine that reads.
	docs   [2][]Document
	flips  int
	hashed chan struct{} // closed when the last batch's part is summed; nil before the first

	org, date, dom strBuilder
	domStart       []uint32
	err            error

	// With Reuse: the index reused from, every case's analysis so far
	// (the fresh ones filled in by Index), the fresh cases waiting for
	// analysis and their positions, the positions of those analyzed, and
	// each batch's prints (scratch).
	prev      *Index
	all       []analyzed
	pending   []Document
	pendingAt []int
	freshAt   []int
	prints    []uint64
	reused    int
}

// strBuilder makes a strTable a string at a time.
type strBuilder struct{ t strTable }

func (b *strBuilder) add(s string) error {
	if len(b.t.blob)+len(s) > math.MaxUint32 {
		return errors.New("library too large for the cache format")
	}
	b.t.blob = append(b.t.blob, s...)
	b.t.ends = append(b.t.ends, uint32(len(b.t.blob)))
	return nil
}

// NewBuilder returns a Builder that indexes with cfg, calling progress, when
// not nil, now and then with the number of cases analyzed so far (as
// [BuildProgress] does). A cfg that fails [Config.Validate] is refused.
func NewBuilder(cfg Config, progress func(done int)) (*Builder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	an := tokenize.New(cfg.Analyzer)
	ix := &Index{cfg: cfg, an: an, voc: newVocabulary(), byID: map[string]int{}}
	return &Builder{ix: ix, analysis: newAnalysis(an, progress), domStart: []uint32{0}}, nil
}

// Add adds the next case of the library. Case ids must be unique; the
// first error is returned again by every later call and by Index.
func (b *Builder) Add(c *caselib.Case) error {
	if b.err != nil {
		return b.err
	}
	ix := b.ix
	if j, dup := ix.byID[c.ID]; dup {
		b.err = fmt.Errorf("case id %q appears twice (position %d and %s)", c.ID, j, locString(c))
		return b.err
	}
	ix.byID[c.ID] = b.n
	ix.ids = append(ix.ids, c.ID)
	day := int32(noDay)
	if d, ok := dayNumber(c.Date); ok {
		day = int32(d)
	}
	ix.day = append(ix.day, day)
	b.keep(&b.org, c.Org)
	b.keep(&b.date, c.Date)
	for _, s := range c.Domain {
		b.keep(&b.dom, s)
	}
	if b.err != nil {
		return b.err
	}
	b.domStart = append(b.domStart, uint32(len(b.dom.t.ends)))
	b.n++
	b.batch = append(b.batch, c)
	if len(b.batch) == streamBatch {
		b.flush()
	}
	return nil
}

// Reuse makes the Builder keep prev's analysis of every case added that
// prev also indexes, under the same id, with the same text and tags (told
// by their content prints, which the index file keeps too), rather than
// analyze it again. The index it returns is the one a Builder without Reuse
// returns: the same scores, byte for byte, since everything that depends
// on the whole library is computed afresh, and the same spelling of each
// term in explanations (surfaces.go). A server that
// reloads a library it indexed as a stream so analyzes only the cases that
// changed: analysis is most of a build. prev is only read, and may go on
// serving.
//
// Reuse must come before the first Add. It reports whether prev's
// analysis can be used: not when prev analyzed text another way (another
// Config.Analyzer), nor when its vocabulary holds more terms no case uses
// than Reindex allows (the Builder then starts afresh, dropping them).
func (b *Builder) Reuse(prev *Index) bool {
	if b.err != nil || b.n > 0 || prev == nil || prev.cfg.Analyzer != b.ix.cfg.Analyzer ||
		len(prev.voc.terms) > 2*len(prev.craw)+staleTerms {
		return false
	}
	b.prev = prev
	return true
}

// Reused returns the number of cases whose analysis was taken from the
// index given to Reuse: of those added so far, a batch at a time, and of
// all of them once Index has returned.
func (b *Builder) Reused() int { return b.reused }

// keep adds s to t, unless an error came first.
func (b *Builder) keep(t *strBuilder, s string) {
	if b.err == nil {
		b.err = t.add(s)
	}
}

// flush analyzes the cases held and drops them. The workers of the
// analysis make the documents; the batch's part of the sum is taken by a
// goroutine of its own, waited for by the next flush (which reuses the
// other set of documents) or by Index.
func (b *Builder) flush() {
	if len(b.batch) == 0 {
		return
	}
	batch := b.batch
	docs := slices.Grow(b.docs[b.flips%2][:0], len(batch))[:len(batch)]
	b.docs[b.flips%2] = docs
	b.flips++
	if b.prev != nil {
		b.sortOut(batch, docs)
	} else {
		base := len(b.analysis.out)
		b.analysis.add(len(docs), func(i int) *Document {
			docs[i] = NewDocument(batch[i])
			return &docs[i]
		}, nil)
		for _, a := range b.analysis.out[base:] {
			b.entries += int(a.n)
		}
	}
	b.waitSum()
	b.sums = append(b.sums, [32]byte{})
	part, done := &b.sums[len(b.sums)-1], make(chan struct{})
	b.hashed = done
	go func() {
		*part = hashDocs(docs)
		clear(docs) // drop the cases
		close(done)
	}()
	clear(b.batch) // the documents point to the cases themselves
	b.batch = b.batch[:0]
}

// sortOut makes the documents of batch (the cases at positions b.n −
// len(batch) onwards) into docs, takes prev's analysis of those unchanged
// since prev and queues the others for analysis, which starts once a
// whole batch of them waits (a whole number of analysis chunks, as
// analysis.add asks).
func (b *Builder) sortOut(batch []*caselib.Case, docs []Document) {
	prints := slices.Grow(b.prints[:0], len(batch))[:len(batch)]
	b.prints = prints
	par.For(len(batch), analysisChunk, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			docs[i] = NewDocument(batch[i])
			prints[i] = contentPrint(&docs[i])
		}
	})
	first := b.n - len(batch)
	for i, c := range batch {
		if j, ok := b.prev.Lookup(c.ID); ok && b.prev.docs[j].print == prints[i] {
			b.all = append(b.all, b.prev.docs[j]) // read-only, so shared
			b.entries += int(b.prev.docs[j].n)
			b.reused++
			continue
		}
		b.all = append(b.all, analyzed{})
		b.pending = append(b.pending, docs[i])
		b.pendingAt = append(b.pendingAt, first+i)
		if len(b.pending) == streamBatch {
			b.analyzePending()
		}
	}
}

// analyzePending analyzes the fresh cases waiting and drops them.
func (b *Builder) analyzePending() {
	if len(b.pending) == 0 {
		return
	}
	base := len(b.analysis.out)
	b.analysis.add(len(b.pending), func(i int) *Document { return &b.pending[i] }, b.pendingAt)
	for _, a := range b.analysis.out[base:] {
		b.entries += int(a.n)
	}
	b.freshAt = append(b.freshAt, b.pendingAt...)
	clear(b.pending)
	b.pending, b.pendingAt = b.pending[:0], b.pendingAt[:0]
}

// waitSum waits for the part of the sum being taken, if any.
func (b *Builder) waitSum() {
	if b.hashed != nil {
		<-b.hashed
		b.hashed = nil
	}
}

// Len returns the number of cases added so far.
func (b *Builder) Len() int { return b.n }

// Entries returns the number of (term, view) entries of the cases analyzed
// so far (those of the last batch count once Index analyzes them): each is
// a posting of the index, and what weighing them holds grows with them.
func (b *Builder) Entries() int { return b.entries }

// Index weighs the cases added and returns their index, and the [DocsSum]
// of their documents (what [CacheKeyOf] keys its cache file by). The index
// reads case i through load(i) when asked for it (see [OpenCacheLazy]).
// The Builder cannot be used after.
func (b *Builder) Index(load func(i int) (*caselib.Case, error)) (*Index, [32]byte, error) {
	if b.err != nil {
		return nil, [32]byte{}, b.err
	}
	b.flush()
	b.waitSum()
	ix, prev := b.ix, b.prev
	// fix, after a build that reused prev's analysis, spells the terms as
	// a fresh build does (surfaces.go).
	fix := func() error { return nil }
	if prev != nil {
		b.analyzePending()
		// Reused entries are by prev's raw term ids, so the vocabulary
		// goes on from prev's.
		ix.voc = reuseVocabulary(prev.voc)
		reused := make([]bool, b.n)
		for i := range reused {
			reused[i] = true
		}
		for k, a := range b.analysis.finish(ix.voc) {
			b.all[b.freshAt[k]] = a
			reused[b.freshAt[k]] = false
		}
		ix.docs = b.all
		moved := movedFrom(prev.ids, ix.byID, reused)
		read := func(i int) (*Document, error) {
			c, err := load(i)
			if err != nil {
				return nil, err
			}
			d := NewDocument(c)
			return &d, nil
		}
		fix = func() error { return ix.fixSurfaces(prev.voc, moved, read) }
	} else {
		ix.docs = b.analysis.finish(ix.voc)
	}
	ix.cases = make([]*caselib.Case, b.n)
	ix.lazy = &lazyCases{load: load, got: map[int]*caselib.Case{}, keep: lazyKeep,
		org: b.org.t, date: b.date.t, dom: b.dom.t, domStart: b.domStart}
	sum := sumOfParts(b.n, b.sums)
	*b = Builder{err: errors.New("similarity: Builder used after Index"), reused: b.reused}
	ix.reweigh()
	if err := fix(); err != nil {
		return nil, [32]byte{}, err
	}
	if prev != nil {
		ix.hold(prev)
	}
	return ix, sum, nil
}

// Summer takes the [DocsSum] of a library's cases given one at a time, in
// library order, holding at most one part of them: what the cache key of a
// library read as a stream is computed from, before deciding to index it.
type Summer struct {
	part []*caselib.Case
	sums [][32]byte
	n    int
}

// Add adds the next case.
func (s *Summer) Add(c *caselib.Case) {
	s.part = append(s.part, c)
	s.n++
	if len(s.part) == docsSumPart {
		s.flush()
	}
}

func (s *Summer) flush() {
	if len(s.part) > 0 {
		s.sums = append(s.sums, hashDocs(Documents(s.part)))
		clear(s.part)
		s.part = s.part[:0]
	}
}

// Sum returns the DocsSum of the documents of the cases added.
func (s *Summer) Sum() [32]byte {
	s.flush()
	return sumOfParts(s.n, s.sums)
}
