package similarity

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"
	"unsafe"

	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/indexfile"
	"github.com/caselink/caselink/similarity/par"
	"github.com/caselink/caselink/tokenize"
)

// This file keeps an index on disk, so that a command run again on the
// same library neither tokenizes nor weighs it again. What is kept is what
// Build derives from the documents' text and tags and the Config: each
// case's entries (packed, as the index holds them) and view lengths and the
// vocabulary (what Reindex and explanations start from), and every weighted
// array of reweigh — the canonical vocabulary, idf, case vectors, the weight
// sets mw and rw (the second stage's keeps only its norms), profiles,
// postings and blocks — as flat little-endian arrays, mmapped read-only and
// used in place. What depends on the cases' other fields (dates, organisations,
// sources: the date priors, the same-event evidence of dupes) and the tag
// rules are computed again at open from the loaded cases (finish), so an
// index opened from the cache is the index Build returns, field by field.
//
// The byte layout is package indexfile's (its FORMAT.md): a header, then
// sections named by indexfile.IndexSections, each put here (putAnalysis,
// putWeighted) or in lazy.go (putCaseFields) and got back by restore,
// restoreWeighted and restoreCaseFields. The file's reader has checked every
// section's id, element type and count against the table before these run;
// what they check is how the values fit together.

// The section table states its counts in views (indexfile.Views,
// indexfile.TextViews): a build whose views differ from the engine's fails
// here, at compile time (a negative constant does not convert to uint).
const _ = uint(NumViews-indexfile.Views) + uint(indexfile.Views-NumViews) +
	uint(textViews-indexfile.TextViews) + uint(indexfile.TextViews-textViews)

// CacheKey returns the key a cache file of docs indexed with cfg must carry
// to be used: [CacheKeyOf] the documents' [DocsSum].
func CacheKey(docs []Document, cfg Config, salt string) [32]byte {
	return CacheKeyOf(DocsSum(docs), cfg, salt)
}

// CacheKeyOf returns the key of a cache file of the documents whose
// [DocsSum] is sum, indexed with cfg: a SHA-256 of salt (the caller's
// version, say), the format of the file, the whole of cfg, and sum —
// exactly what the kept arrays are derived from, so a file with this key
// can never be stale, whatever the files' times say. A caller that
// recorded sum with the library's file stamps (the CLI) computes the key
// of an unchanged library without reading it.
func CacheKeyOf(sum [32]byte, cfg Config, salt string) [32]byte {
	h := sha256.New()
	var buf [8]byte
	str := func(s string) {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
		h.Write(buf[:])
		h.Write([]byte(s))
	}
	str(salt)
	str(fmt.Sprintf("format %d, %d-byte int\n%#v", indexfile.Format, unsafe.Sizeof(0), cfg))
	h.Write(sum[:])
	var key [32]byte
	h.Sum(key[:0])
	return key
}

// DocsSum returns a SHA-256 of every document's case id, text and tags
// and of the case fields an index opened without its cases keeps (its
// organisation, date and domain tags as written), in order. The documents
// are hashed in fixed parts on all cores, the parts' sums then hashed in
// order, so the sum does not depend on the number of cores.
func DocsSum(docs []Document) [32]byte {
	return docsSum(len(docs), func(lo, hi int) [32]byte { return hashDocs(docs[lo:hi]) })
}

// CasesSum is DocsSum of the cases' [Documents], each part's documents
// made as it is hashed, so that the library's documents are never all
// held at once.
func CasesSum(cases []*caselib.Case) [32]byte {
	return docsSum(len(cases), func(lo, hi int) [32]byte { return hashDocs(Documents(cases[lo:hi])) })
}

// docsSum hashes n documents in fixed parts on all cores (part(lo, hi)
// hashes documents lo to hi), then the parts' sums in order.
func docsSum(n int, part func(lo, hi int) [32]byte) [32]byte {
	const size = docsSumPart
	sums := make([][32]byte, (n+size-1)/size)
	par.For(n, size, func(_, lo, hi int) {
		sums[lo/size] = part(lo, hi)
	})
	return sumOfParts(n, sums)
}

// docsSumPart is how many documents DocsSum hashes as one part.
const docsSumPart = 4096

// sumOfParts is the DocsSum of n documents whose parts hash to sums.
func sumOfParts(n int, sums [][32]byte) [32]byte {
	h := sha256.New()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(n))
	h.Write(buf[:])
	for _, s := range sums {
		h.Write(s[:])
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// hashDocs returns a SHA-256 of the case ids, text and tags of docs, each
// string length-prefixed.
func hashDocs(docs []Document) [32]byte {
	w := contentHash{h: sha256.New()}
	for i := range docs {
		d := &docs[i]
		w.str(d.Case.ID)
		w.content(d)
		w.str(d.Case.Org)
		w.str(d.Case.Date)
		w.strs(d.Case.Domain)
	}
	var sum [32]byte
	w.h.Sum(sum[:0])
	return sum
}

// contentHash writes numbers and strings into a hash so that no two
// sequences of them run together the same: each string after its length,
// each list after its count.
type contentHash struct {
	h   hash.Hash
	buf [8]byte
}

func (w *contentHash) num(n int) {
	binary.LittleEndian.PutUint64(w.buf[:], uint64(n))
	w.h.Write(w.buf[:])
}

func (w *contentHash) str(s string) {
	w.num(len(s))
	w.h.Write(unsafe.Slice(unsafe.StringData(s), len(s))) // read only, no copy
}

func (w *contentHash) strs(ss []string) {
	w.num(len(ss))
	for _, s := range ss {
		w.str(s)
	}
}

// content writes what the analysis reads of d: its text views and tags.
func (w *contentHash) content(d *Document) {
	for v := range d.Text {
		w.strs(d.Text[v])
	}
	w.strs(d.Tags)
}

// ErrCacheStale is returned by OpenCache for a well-formed cache file of
// another library, other weights or another version.
var ErrCacheStale = indexfile.ErrStale

// ErrCacheCorrupt is returned (wrapped) by OpenCache for a file that is not
// a whole cache file: truncated, overwritten, or of another format.
var ErrCacheCorrupt = indexfile.ErrCorrupt

// SaveCache writes the analysis of ix to path under key (CacheKey of the
// documents ix was built from, with its Config): to a temporary file in the
// same folder, synced, then renamed over path (indexfile.Writer.WriteFile),
// so a reader sees the old file or the new one whole, and two processes
// saving at once leave one of their files, never a mix.
func (ix *Index) SaveCache(path string, key [32]byte) error {
	var w indexfile.Writer
	if err := ix.putAnalysis(&w); err != nil {
		return err
	}
	ix.putWeighted(&w)
	if err := ix.putCaseFields(&w); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return w.WriteFile(path, key)
}

// putAnalysis adds the analyzed cases and the vocabulary.
func (ix *Index) putAnalysis(w *indexfile.Writer) error {
	n := len(ix.docs)
	size := 0
	for i := range ix.docs {
		size += len(ix.docs[i].packed)
	}
	voc := ix.voc
	if len(voc.terms) > math.MaxUint32 {
		return errors.New("library too large for the cache format")
	}
	packed := make([]byte, 0, size)
	ends := make([]int, 1, n+1)
	counts := make([]int32, 0, n)
	lengths := make([]int32, 0, n*textViews)
	prints := make([]byte, 0, 8*n)
	for i := range ix.docs {
		packed = append(packed, ix.docs[i].packed...)
		ends = append(ends, len(packed))
		counts = append(counts, ix.docs[i].n)
		lengths = append(lengths, ix.docs[i].length[:]...)
		prints = binary.LittleEndian.AppendUint64(prints, ix.docs[i].print)
	}
	terms, termEnd, err := packStrings(voc.terms)
	if err != nil {
		return err
	}
	surface, surfaceEnd, err := packStrings(voc.surface)
	if err != nil {
		return err
	}
	firstDoc := make([]int32, len(voc.firstDoc))
	for i, d := range voc.firstDoc {
		firstDoc[i] = int32(d)
	}
	indexfile.Put(w, indexfile.Packed, packed)
	indexfile.Put(w, indexfile.CaseEnds, ends)
	indexfile.Put(w, indexfile.CaseEntries, counts)
	indexfile.Put(w, indexfile.CaseLengths, lengths)
	indexfile.Put(w, indexfile.CasePrints, prints)
	indexfile.Put(w, indexfile.OwnDocs, ix.ownPositions())
	indexfile.Put(w, indexfile.TermBlob, terms)
	indexfile.Put(w, indexfile.TermEnds, termEnd)
	indexfile.Put(w, indexfile.SurfaceBlob, surface)
	indexfile.Put(w, indexfile.SurfaceEnds, surfaceEnd)
	indexfile.Put(w, indexfile.FirstCase, firstDoc)
	return nil
}

// putWeighted adds what reweigh computes from the analysis alone. The
// weight sets are mw and rw (rel.w is always rw); when the second stage of
// match has its own, exp.w keeps only its norms (its weights are rw's text
// and mw's tags), and the file holds the "expand" sections.
func (ix *Index) putWeighted(w *indexfile.Writer) {
	views := append(ix.pasteViews[:0:0], ix.pasteViews[:]...)
	views = append(views, ix.rel.views[:]...)
	views = append(views, ix.exp.views[:]...)
	indexfile.Put(w, indexfile.ViewWeights, views)
	indexfile.Put(w, indexfile.CanonOfRaw, ix.canon)
	indexfile.Put(w, indexfile.CanonRaw, ix.craw)
	indexfile.Put(w, indexfile.DocFreq, ix.df)
	indexfile.Put(w, indexfile.IDF, ix.idf)
	indexfile.Put(w, indexfile.VecStarts, ix.vstart)
	indexfile.Put(w, indexfile.VecKeys, ix.vkey)
	indexfile.Put(w, indexfile.PostStarts, ix.pstart)
	indexfile.Put(w, indexfile.PostCases, ix.pdoc)
	indexfile.Put(w, indexfile.BlockStarts, ix.bstart)
	for _, s := range weightSections(ix) {
		indexfile.Put(w, s.vval, s.w.vval)
		indexfile.Put(w, s.pval, s.w.pval)
		indexfile.Put(w, s.vnorm, s.w.vnorm)
		indexfile.Put(w, s.pmax, s.w.pmax)
		if s.bmax != 0 {
			indexfile.Put(w, s.bmax, s.w.bmax)
		}
	}
	for _, s := range profileSections(ix) {
		if s.norms != 0 {
			indexfile.Put(w, s.norms, s.p.w.vnorm) // its weights are rw's and mw's
		}
		indexfile.Put(w, s.scale, s.p.scale)
		indexfile.Put(w, s.pmax, s.p.pmax)
		indexfile.Put(w, s.unorm, s.p.unorm)
		indexfile.Put(w, s.levels, s.p.levels())
	}
	indexfile.Put(w, indexfile.WordStarts, ix.wb.start)
	indexfile.Put(w, indexfile.WordWindows, ix.wb.win)
	indexfile.Put(w, indexfile.WordMaxima, ix.wb.max)
}

// weightSet names the sections of one weight set; bmax is 0 for a set
// without block maxima (only pastes' weights have them).
type weightSet struct {
	w                             *weights
	vval, pval, vnorm, pmax, bmax indexfile.ID
}

// weightSections returns the weight sets the file keeps (mw, rw) and their
// sections.
func weightSections(ix *Index) []weightSet {
	return []weightSet{
		{ix.mw, indexfile.PasteVecWeights, indexfile.PastePostWeights, indexfile.PasteNorms, indexfile.PasteKeyMax, indexfile.PasteBlockMax},
		{ix.rw, indexfile.RelVecWeights, indexfile.RelPostWeights, indexfile.RelNorms, indexfile.RelKeyMax, 0},
	}
}

// profileSet names the sections of one profile; norms, when not 0, is the
// section of the norms of a weight set of its own.
type profileSet struct {
	p                                 *profile
	norms, scale, pmax, unorm, levels indexfile.ID
}

// profileSections returns the profiles the file keeps: rel, and exp when
// it is not rel.
func profileSections(ix *Index) []profileSet {
	out := []profileSet{{ix.rel, 0, indexfile.RelScale, indexfile.RelScaledMax, indexfile.RelProfileNorms, indexfile.RelLevels}}
	if ix.exp != ix.rel {
		out = append(out, profileSet{ix.exp, indexfile.ExpNorms, indexfile.ExpScale, indexfile.ExpScaledMax, indexfile.ExpProfileNorms, indexfile.ExpLevels})
	}
	return out
}

func packStrings(ss []string) ([]byte, []uint32, error) {
	size := 0
	for _, s := range ss {
		size += len(s)
	}
	if size > math.MaxUint32 {
		return nil, nil, errors.New("vocabulary too large for the cache format")
	}
	blob := make([]byte, 0, size)
	ends := make([]uint32, len(ss))
	for i, s := range ss {
		blob = append(blob, s...)
		ends[i] = uint32(len(blob))
	}
	return blob, ends, nil
}

// OpenCache returns the index Build(docs, cfg) would return, from the
// cache file at path written by SaveCache with key (CacheKey(docs, cfg,
// salt)). A file that is missing gives an error satisfying
// errors.Is(err, fs.ErrNotExist); of another key or format, ErrCacheStale;
// truncated, damaged or not a cache file, ErrCacheCorrupt (a section out of
// place, *indexfile.SectionError): the caller builds instead (and saves).
// Nothing of a file is used unless its header, the checksum of its whole
// body and its section table are right.
//
// The file is mapped read-only and the cases' packed entries and the
// numeric arrays are used in place; the mapping lives as long as the
// process.
func OpenCache(path string, key [32]byte, docs []Document, cfg Config) (*Index, error) {
	return openCache(path, key, cfg, docs, func(ix *Index) error { return ix.setDocuments(docs) })
}

// OpenCacheCases is OpenCache of the cases' [Documents] (what [BuildCases]
// indexes), without making them.
func OpenCacheCases(path string, key [32]byte, cases []*caselib.Case, cfg Config) (*Index, error) {
	return openCache(path, key, cfg, nil, func(ix *Index) error { return ix.setCases(cases) })
}

// openCache maps and checks the file, then restores an index set up by
// setup (its documents, or its lazy cases: docs is then nil).
func openCache(path string, key [32]byte, cfg Config, docs []Document, setup func(ix *Index) error) (*Index, error) {
	return openCacheFile(path, key, cfg, docs, setup, nil)
}

// openCacheFile is openCache that also gives the file opened, when file is
// not nil.
func openCacheFile(path string, key [32]byte, cfg Config, docs []Document, setup func(ix *Index) error, file **indexfile.File) (*Index, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	f, err := indexfile.Open(path, key)
	if err != nil {
		return nil, err
	}
	ix, err := openFile(f, cfg, docs, setup)
	if err != nil {
		f.Close()
		return nil, err
	}
	m := &mapping{f: f}
	m.refs.Store(1)
	ix.maps = []*mapping{m}
	if file != nil {
		*file = f
	}
	return ix, nil
}

// openFile restores an index set up by setup from a checked file.
func openFile(f *indexfile.File, cfg Config, docs []Document, setup func(ix *Index) error) (*Index, error) {
	ix := &Index{cfg: cfg, an: tokenize.New(cfg.Analyzer)}
	if err := setup(ix); err != nil {
		return nil, err
	}
	if err := ix.restore(f, docs); err != nil {
		return nil, err
	}
	ix.finish()
	return ix, nil
}

// corrupt is a cache file whose values do not fit together.
func corrupt(what string) error { return fmt.Errorf("%w: %s", ErrCacheCorrupt, what) }

// restore sets the index's analyzed documents, vocabulary and weighted
// arrays from a checked file, checking that they fit together and with the
// documents. Of docs it keeps those the file says were not their case's
// NewDocument when built (the key says docs are what was built); the
// others are made again from their case when needed.
func (ix *Index) restore(f *indexfile.File, docs []Document) error {
	n := f.Dim(indexfile.Cases)
	if ix.docs == nil { // opened without documents: the file says how many
		ix.docs = make([]analyzed, n)
		ix.cases = make([]*caselib.Case, n)
	} else if len(ix.docs) != n {
		return corrupt(fmt.Sprintf("%d cases, want %d", n, len(ix.docs)))
	}
	packed := indexfile.Get[byte](f, indexfile.Packed)
	ends := indexfile.Get[int](f, indexfile.CaseEnds)
	counts := indexfile.Get[int32](f, indexfile.CaseEntries)
	lengths := indexfile.Get[int32](f, indexfile.CaseLengths)
	prints := indexfile.Get[byte](f, indexfile.CasePrints)
	own := indexfile.Get[int32](f, indexfile.OwnDocs)
	voc, err := restoreVocabulary(f)
	if err != nil {
		return err
	}
	if ends[0] != 0 || ends[n] != len(packed) {
		return corrupt("case entries")
	}
	nterms := uint32(len(voc.terms))
	var broken atomic.Bool
	par.For(n, 1024, func(_, from, to int) { // decoding every entry to check it: on all cores
		for i := from; i < to; i++ {
			lo, hi := ends[i], ends[i+1]
			if lo < 0 || lo > hi || hi > len(packed) || !validPacked(packed[lo:hi], int(counts[i]), nterms) {
				broken.Store(true)
				return
			}
			a := &ix.docs[i]
			a.packed, a.n = packed[lo:hi:hi], counts[i]
			copy(a.length[:], lengths[i*textViews:(i+1)*textViews])
			a.print = binary.LittleEndian.Uint64(prints[8*i:])
		}
	})
	if broken.Load() {
		return corrupt("case entries")
	}
	if len(own) > 0 && docs == nil {
		// Kept documents are a caller's own (not made from the cases):
		// an index of them is opened with them.
		return fmt.Errorf("%w: the index was built from documents of its own, which opening without the cases cannot give", ErrCacheStale)
	}
	for j, i := range own {
		if i < 0 || int(i) >= n || j > 0 && i <= own[j-1] {
			return corrupt("documents kept")
		}
		ix.keepDocument(int(i), docs[i])
	}
	ix.voc = voc
	if err := ix.restoreWeighted(f); err != nil {
		return err
	}
	return ix.restoreCaseFields(f)
}

// restoreWeighted is putWeighted backwards. The sizes are checked by the
// file's reader (indexfile.IndexSections), and the bounds the arrays give
// each other here, so that no later read goes out of bounds; the values
// are trusted because the body's checksum is right and the key says which
// documents and Config they were computed from.
func (ix *Index) restoreWeighted(f *indexfile.File) error {
	views := indexfile.Get[float64](f, indexfile.ViewWeights)
	ix.canon = indexfile.Get[uint32](f, indexfile.CanonOfRaw)
	ix.craw = indexfile.Get[uint32](f, indexfile.CanonRaw)
	ix.df = indexfile.Get[int32](f, indexfile.DocFreq)
	ix.idf = indexfile.Get[float32](f, indexfile.IDF)
	ix.vstart = indexfile.Get[int](f, indexfile.VecStarts)
	ix.vkey = indexfile.Get[uint32](f, indexfile.VecKeys)
	ix.pstart = indexfile.Get[int](f, indexfile.PostStarts)
	ix.pdoc = indexfile.Get[uint32](f, indexfile.PostCases)
	ix.bstart = indexfile.Get[uint32](f, indexfile.BlockStarts)
	n, nkeys, total := len(ix.docs), len(ix.craw)*NumViews, len(ix.vkey)
	for c, r := range ix.craw { // the two maps of the canonical vocabulary are each other's inverse
		if int(r) >= len(ix.canon) || ix.canon[r] != uint32(c)+1 {
			return corrupt("canonical ids")
		}
	}
	if ix.vstart[0] != 0 || ix.vstart[n] != total || ix.pstart[0] != 0 || ix.pstart[nkeys] != total {
		return corrupt("vector or posting bounds")
	}
	ix.mw, ix.rw = &weights{}, &weights{}
	ix.rel = &profile{w: ix.rw}
	ix.exp = ix.rel
	if f.Has(indexfile.ExpNorms) {
		ix.exp = &profile{w: &weights{text: ix.rw, tags: ix.mw}}
	}
	for _, s := range weightSections(ix) {
		s.w.vval = indexfile.Get[float32](f, s.vval)
		s.w.pval = indexfile.Get[float32](f, s.pval)
		s.w.vnorm = indexfile.Get[float32](f, s.vnorm)
		s.w.pmax = indexfile.Get[float32](f, s.pmax)
		if s.bmax != 0 {
			s.w.bmax = indexfile.Get[float32](f, s.bmax)
		}
	}
	for i, s := range profileSections(ix) {
		if s.norms != 0 {
			s.p.w.vnorm = indexfile.Get[float32](f, s.norms)
		}
		s.p.scale = indexfile.Get[float32](f, s.scale)
		s.p.pmax = indexfile.Get[float32](f, s.pmax)
		s.p.unorm = indexfile.Get[float32](f, s.unorm)
		copy(s.p.views[:], views[(i+1)*NumViews:(i+2)*NumViews])
		s.p.setUmax(indexfile.Get[uint8](f, s.levels))
	}
	copy(ix.pasteViews[:], views[:NumViews])
	if nblocks := int(ix.bstart[nkeys]); len(ix.mw.bmax) != nblocks {
		return corrupt("block maxima")
	}
	ix.wb = wordBounds{
		start: indexfile.Get[uint32](f, indexfile.WordStarts),
		win:   indexfile.Get[uint32](f, indexfile.WordWindows),
		max:   indexfile.Get[float32](f, indexfile.WordMaxima),
	}
	if !validWordBounds(&ix.wb, len(ix.craw)) {
		return corrupt("word bounds")
	}
	return nil
}

// restoreVocabulary decodes the vocabulary's strings (one copy of each
// blob, so no string points into the mapping) and rebuilds its map.
func restoreVocabulary(f *indexfile.File) (*vocabulary, error) {
	terms, err := unpackStrings(indexfile.Get[byte](f, indexfile.TermBlob), indexfile.Get[uint32](f, indexfile.TermEnds))
	if err != nil {
		return nil, err
	}
	surface, err := unpackStrings(indexfile.Get[byte](f, indexfile.SurfaceBlob), indexfile.Get[uint32](f, indexfile.SurfaceEnds))
	if err != nil {
		return nil, err
	}
	first := indexfile.Get[int32](f, indexfile.FirstCase)
	voc := &vocabulary{ids: make(map[string]uint32, len(terms)), terms: terms, surface: surface,
		firstDoc: make([]int, len(terms)), clone: true}
	for i, t := range terms {
		voc.ids[t] = uint32(i)
		voc.firstDoc[i] = int(first[i])
	}
	if len(voc.ids) != len(terms) {
		return nil, corrupt("vocabulary repeats a term")
	}
	return voc, nil
}

func unpackStrings(blob []byte, ends []uint32) ([]string, error) {
	all := string(blob)
	out := make([]string, len(ends))
	var at uint32
	for i, e := range ends {
		if e < at || int(e) > len(all) {
			return nil, corrupt("strings")
		}
		out[i] = all[at:e]
		at = e
	}
	return out, nil
}
