package similarity

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/caselink/caselink/similarity/par"
	"github.com/caselink/caselink/tokenize"
)

// tagPrefix starts every tag in the vocabulary, so a tag never shares a term
// id (or a document frequency) with a word of text. The analyzer never
// produces it.
const tagPrefix = "\x01"

// entry packs one (term, view, count) of an analyzed case into a uint64:
// raw term id in the high 32 bits, view in bits 16–23, count in the low 16
// bits. Sorting entries sorts them by term, then view.
type entry uint64

func newEntry(raw uint32, v View, tf int) entry {
	if tf > 0xffff {
		tf = 0xffff
	}
	return entry(uint64(raw)<<32 | uint64(v)<<16 | uint64(tf))
}

func (e entry) raw() uint32 { return uint32(e >> 32) }
func (e entry) view() View  { return View(e >> 16 & 0xff) }
func (e entry) tf() int     { return int(e & 0xffff) }

// analyzed is what the index remembers of one case between rebuilds: its
// terms per view with their counts, and the length of each text view in
// terms. Re-weighting (when idf changes) starts from here, so no case is
// tokenized twice. The entries are kept packed (packEntries: about 3 bytes
// an entry instead of 8), since the index holds them for as long as it
// lives; unpack reads them back.
type analyzed struct {
	packed []byte // the entries, sorted, packed
	n      int32  // number of entries
	length [textViews]int32
	// print fingerprints the text and tags the entries were made from
	// (contentPrint), so that a rebuild that no longer holds the old text
	// can still tell an unchanged case and keep its entries (Builder.Reuse).
	print uint64
}

// Entries are packed as, per entry, two unsigned varints: the raw term id
// less the previous entry's (entries are sorted, so never negative), then
// tf<<2 | view. Two bits hold every view.
const _ = uint(4 - NumViews)

// packEntries appends the sorted entries ents to dst, packed.
func packEntries(dst []byte, ents []entry) []byte {
	var last uint32
	for _, e := range ents {
		dst = binary.AppendUvarint(dst, uint64(e.raw()-last))
		dst = binary.AppendUvarint(dst, uint64(e.tf())<<2|uint64(e.view()))
		last = e.raw()
	}
	return dst
}

// unpack appends the case's entries to dst.
func (a *analyzed) unpack(dst []entry) []entry {
	b := a.packed
	var raw uint32
	for len(b) > 0 {
		d, n := binary.Uvarint(b)
		x, m := binary.Uvarint(b[n:])
		b = b[n+m:]
		raw += uint32(d)
		dst = append(dst, newEntry(raw, View(x&3), int(x>>2)))
	}
	return dst
}

// validPacked reports whether b is exactly n packed entries of raw ids
// below nterms, sorted, with known views and counts in range (what a cache
// file's bytes must be before unpack may read them).
func validPacked(b []byte, n int, nterms uint32) bool {
	var raw uint64
	last := -1
	for ; n > 0; n-- {
		d, k := binary.Uvarint(b)
		if k <= 0 {
			return false
		}
		x, m := binary.Uvarint(b[k:])
		if m <= 0 || x&3 >= uint64(NumViews) || x>>2 == 0 || x>>2 > 0xffff {
			return false
		}
		b = b[k+m:]
		if raw += d; raw >= uint64(nterms) {
			return false
		}
		e := int(raw<<2 | x&3)
		if e < last {
			return false
		}
		last = e
	}
	return len(b) == 0
}

// packer packs the entries of the cases of one chunk into one array for
// the chunk, exactly as long as needed: one allocation per chunk rather than
// per case, so that the many small arrays an index keeps for its life are
// not strewn among the garbage of analysis. It is reused between chunks.
type packer struct {
	buf  []byte
	ends []int
}

// add packs the sorted entries ents of the next case, a.
func (p *packer) add(a *analyzed, ents []entry) {
	p.buf = packEntries(p.buf, ents)
	p.ends = append(p.ends, len(p.buf))
	a.n = int32(len(ents))
}

// finish gives the cases added since the last finish, as, their packed
// entries.
func (p *packer) finish(as []analyzed) {
	all := slices.Clone(p.buf)
	at := 0
	for i, end := range p.ends {
		as[i].packed = all[at:end:end]
		at = end
	}
	p.buf, p.ends = p.buf[:0], p.ends[:0]
}

// vocabulary maps term strings to raw ids. Raw ids are never reused; the
// index renumbers the terms in use canonically on every build (see build.go).
type vocabulary struct {
	ids      map[string]uint32
	terms    []string
	surface  []string // surface form of the term in the first case that has it
	firstDoc []int    // library position of that case
	clone    bool     // copy strings on intern, so no case text is kept alive
}

func newVocabulary() *vocabulary {
	return &vocabulary{ids: make(map[string]uint32), clone: true}
}

// intern returns the raw id of term, adding it when new.
func (v *vocabulary) intern(term, surface string, doc int) uint32 {
	if id, ok := v.ids[term]; ok {
		if doc < v.firstDoc[id] {
			if v.clone {
				surface = strings.Clone(surface)
			}
			v.surface[id], v.firstDoc[id] = surface, doc
		}
		return id
	}
	if v.clone {
		term, surface = strings.Clone(term), strings.Clone(surface)
	}
	id := uint32(len(v.terms))
	v.ids[term] = id
	v.terms = append(v.terms, term)
	v.surface = append(v.surface, surface)
	v.firstDoc = append(v.firstDoc, doc)
	return id
}

// localVocab is one worker's vocabulary while analyzing in parallel; it is
// merged into the shared vocabulary afterwards.
type localVocab struct {
	vocabulary
	counts []int32  // scratch: count per local term id in the view being analyzed
	seen   []uint32 // scratch: the local ids counted, in first-seen order
}

// analyzeDocs analyzes n documents, doc(0) … doc(n−1) (the cases at
// library positions pos[0], pos[1], …, or 0, 1, … when pos is nil) on all
// cores and interns their terms into voc. The result is the same for any
// number of cores.
func analyzeDocs(an *tokenize.Analyzer, voc *vocabulary, n int, doc func(i int) *Document, pos []int, progress func(int)) []analyzed {
	a := newAnalysis(an, progress)
	a.add(n, doc, pos)
	return a.finish(voc)
}

// analysisChunk is how many documents a worker analyzes at a time.
const analysisChunk = 64

// analysis analyzes documents given a batch at a time (add) on all cores,
// each worker into a vocabulary of its own, and interns the terms into the
// shared vocabulary at the end (finish): Build gives it every document at
// once, a Builder the cases of a library as they are read.
type analysis struct {
	an       *tokenize.Analyzer
	out      []analyzed
	locals   []*localVocab
	owner    []int // worker that analyzed each chunk
	terms    [][]tokenize.Term
	ents     [][]entry
	packs    []packer
	progress func(int)
	done     atomic.Int64
	reported atomic.Int64
	mu       sync.Mutex
}

func newAnalysis(an *tokenize.Analyzer, progress func(int)) *analysis {
	workers := par.Workers(1<<30, analysisChunk) // every core
	a := &analysis{an: an, locals: make([]*localVocab, workers), terms: make([][]tokenize.Term, workers),
		ents: make([][]entry, workers), packs: make([]packer, workers), progress: progress}
	for w := range a.locals {
		a.locals[w] = &localVocab{vocabulary: vocabulary{ids: make(map[string]uint32)}}
	}
	return a
}

// add analyzes the next n documents, doc(0) … doc(n−1), at library
// positions pos[i] (or their order's when pos is nil). Every batch but the
// last holds a whole number of chunks, so that each chunk has one owner.
func (a *analysis) add(n int, doc func(i int) *Document, pos []int) {
	base := len(a.out)
	a.out = slices.Grow(a.out, n)[:base+n]
	a.owner = append(a.owner, make([]int, (n+analysisChunk-1)/analysisChunk)...)
	par.For(n, analysisChunk, func(w, lo, hi int) {
		lv := a.locals[w]
		a.owner[(base+lo)/analysisChunk] = w
		out := a.out[base:]
		for i := lo; i < hi; i++ {
			at := base + i
			if pos != nil {
				at = pos[i]
			}
			d := doc(i)
			a.ents[w] = lv.analyze(a.an, d, at, &a.terms[w], &out[i], a.ents[w][:0])
			out[i].print = contentPrint(d)
			slices.Sort(a.ents[w])
			a.packs[w].add(&out[i], a.ents[w])
		}
		a.packs[w].finish(out[lo:hi])
		if n := a.done.Add(int64(hi - lo)); a.progress != nil && n-a.reported.Load() >= 512 {
			a.mu.Lock()
			if n > a.reported.Load() {
				a.reported.Store(n)
				a.progress(int(n))
			}
			a.mu.Unlock()
		}
	})
}

// finish interns every worker's terms into voc and returns the documents'
// analyses, their entries by voc's ids.
func (a *analysis) finish(voc *vocabulary) []analyzed {
	// Map each worker's ids to shared ids, then rewrite its cases' entries.
	// The terms are interned in the order of the case that first has them
	// (then in a case's own order), as one worker would have met them: a
	// worker meets its cases in library order, so each worker's terms are
	// in that order already and merging the lists by first case gives the
	// same ids whichever worker analyzed which chunk. The ids are saved in
	// the cache file, which is thus the same from one build to the next.
	maps := make([][]uint32, len(a.locals))
	next := make([]int, len(a.locals)) // each worker's next term
	for w, lv := range a.locals {
		maps[w] = make([]uint32, len(lv.terms))
	}
	for {
		w := -1
		for x, lv := range a.locals {
			if next[x] < len(lv.terms) && (w < 0 || lv.firstDoc[next[x]] < a.locals[w].firstDoc[next[w]]) {
				w = x
			}
		}
		if w < 0 {
			break
		}
		lv, id := a.locals[w], next[w]
		maps[w][id] = voc.intern(lv.terms[id], lv.surface[id], lv.firstDoc[id])
		next[w]++
	}
	clear(a.locals)
	out := a.out
	par.For(len(out), analysisChunk, func(w, lo, hi int) {
		m := maps[a.owner[lo/analysisChunk]]
		for i := lo; i < hi; i++ {
			e := out[i].unpack(a.ents[w][:0])
			for j, x := range e {
				e[j] = newEntry(m[x.raw()], x.view(), x.tf())
			}
			slices.Sort(e)
			a.packs[w].add(&out[i], e)
			a.ents[w] = e
		}
		a.packs[w].finish(out[lo:hi])
	})
	return out
}

// analyze appends one document's entries, with ids of this local
// vocabulary, to ents and sets the lengths of its views in a.
func (lv *localVocab) analyze(an *tokenize.Analyzer, d *Document, doc int, scratch *[]tokenize.Term, a *analyzed, ents []entry) []entry {
	for v := range textViews {
		n := 0
		for _, text := range d.Text[v] {
			terms := an.AppendTerms((*scratch)[:0], text)
			for _, t := range terms {
				id := lv.intern(t.Text, t.Surface, doc)
				if int(id) >= len(lv.counts) {
					lv.counts = append(lv.counts, make([]int32, int(id)+1-len(lv.counts))...)
				}
				if lv.counts[id] == 0 {
					lv.seen = append(lv.seen, id)
				}
				lv.counts[id]++
			}
			n += len(terms)
			*scratch = terms
		}
		a.length[v] = int32(n)
		for _, id := range lv.seen {
			ents = append(ents, newEntry(id, View(v), int(lv.counts[id])))
			lv.counts[id] = 0
		}
		lv.seen = lv.seen[:0]
	}
	for _, tag := range d.Tags {
		ents = append(ents, newEntry(lv.intern(tagPrefix+tag, tag, doc), Tags, 1))
	}
	return ents
}
