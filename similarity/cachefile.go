package similarity

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"
	"unsafe"

	"github.com/caselink/caselink/similarity/caselib"
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
// Layout (every section starts at a multiple of 8):
//
//	header  64 bytes: magic, format, section count, key, body length,
//	        CRC-32C of the body, CRC-32C of the header's first 60 bytes
//	body    section table (offset, length in bytes: 2×uint64 per section;
//	        offset 0 for a nil slice), then the sections, in the order
//	        cacheBody puts them and restore takes them

const (
	cacheMagic  = "CLINDEX\n"
	cacheFormat = 7
	headerSize  = 64
	maxSections = 64
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// littleEndian tells whether the arrays of a cache file can be used in
// place on this machine.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// errBigEndian refuses the cache on a machine whose numbers are stored the
// other way round.
var errBigEndian = errors.New("cache files are not used on a big-endian machine")

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
	str(fmt.Sprintf("format %d, %d-byte int\n%#v", cacheFormat, unsafe.Sizeof(0), cfg))
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
	const size = 4096
	sums := make([][32]byte, (n+size-1)/size)
	par.For(n, size, func(_, lo, hi int) {
		sums[lo/size] = part(lo, hi)
	})
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
	h := sha256.New()
	var buf [8]byte
	num := func(n int) {
		binary.LittleEndian.PutUint64(buf[:], uint64(n))
		h.Write(buf[:])
	}
	str := func(s string) {
		num(len(s))
		h.Write(unsafe.Slice(unsafe.StringData(s), len(s))) // read only, no copy
	}
	for i := range docs {
		d := &docs[i]
		str(d.Case.ID)
		for v := range d.Text {
			num(len(d.Text[v]))
			for _, s := range d.Text[v] {
				str(s)
			}
		}
		num(len(d.Tags))
		for _, s := range d.Tags {
			str(s)
		}
		str(d.Case.Org)
		str(d.Case.Date)
		num(len(d.Case.Domain))
		for _, s := range d.Case.Domain {
			str(s)
		}
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// ErrCacheStale is returned by OpenCache for a well-formed cache file of
// another library, other weights or another version.
var ErrCacheStale = errors.New("cache file is for another library, configuration or version")

// ErrCacheCorrupt is returned (wrapped) by OpenCache for a file that is not
// a whole cache file: truncated, overwritten, or of another format.
var ErrCacheCorrupt = errors.New("cache file is damaged")

// SaveCache writes the analysis of ix to path under key (CacheKey of the
// documents ix was built from, with its Config): to a temporary file in the
// same folder, synced, then renamed over path, so a reader sees the old
// file or the new one whole, and two processes saving at once leave one of
// their files, never a mix.
func (ix *Index) SaveCache(path string, key [32]byte) (err error) {
	if !littleEndian {
		return errBigEndian
	}
	var e cacheEnc
	if err := ix.putAnalysis(&e); err != nil {
		return err
	}
	ix.putWeighted(&e)
	if err := ix.putCaseFields(&e); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = e.write(f, key); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// write writes the header, the section table and the sections to f,
// straight from the index's arrays (no copy of the body is made), and the
// header last, once the body's checksum is known.
func (e *cacheEnc) write(f *os.File, key [32]byte) error {
	table := make([]byte, align8(len(e.secs)*16))
	at := headerSize + len(table)
	for i, s := range e.secs {
		if s != nil {
			binary.LittleEndian.PutUint64(table[i*16:], uint64(at))
			binary.LittleEndian.PutUint64(table[i*16+8:], uint64(len(s)))
		}
		at += align8(len(s))
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if _, err := w.Write(make([]byte, headerSize)); err != nil {
		return err
	}
	sum := crc32.Update(0, castagnoli, table)
	if _, err := w.Write(table); err != nil {
		return err
	}
	var pad [8]byte
	for _, s := range e.secs {
		p := pad[:align8(len(s))-len(s)]
		sum = crc32.Update(crc32.Update(sum, castagnoli, s), castagnoli, p)
		if _, err := w.Write(s); err != nil {
			return err
		}
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	head := make([]byte, headerSize)
	copy(head, cacheMagic)
	binary.LittleEndian.PutUint32(head[8:], cacheFormat)
	binary.LittleEndian.PutUint32(head[12:], uint32(len(e.secs)))
	copy(head[16:48], key[:])
	binary.LittleEndian.PutUint64(head[48:], uint64(at-headerSize))
	binary.LittleEndian.PutUint32(head[56:], sum)
	binary.LittleEndian.PutUint32(head[60:], crc32.Checksum(head[:60], castagnoli))
	_, err := f.WriteAt(head, 0)
	return err
}

// number is what a section may hold.
type number interface {
	entry | uint32 | int32 | float32 | float64 | int | byte
}

// cacheEnc collects the sections of a cache file.
type cacheEnc struct{ secs [][]byte }

func put[T number](e *cacheEnc, s []T) {
	if s == nil {
		e.secs = append(e.secs, nil)
		return
	}
	b := []byte{}
	if len(s) > 0 {
		b = unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
	}
	e.secs = append(e.secs, b)
}

// cacheDec hands out the sections of a checked file in order, as slices
// over the mapping; the first misfit sets err.
type cacheDec struct {
	secs [][]byte
	err  error
}

func take[T number](d *cacheDec) []T {
	if d.err != nil {
		return nil
	}
	if len(d.secs) == 0 {
		d.err = fmt.Errorf("%w: too few sections", ErrCacheCorrupt)
		return nil
	}
	b := d.secs[0]
	d.secs = d.secs[1:]
	if b == nil {
		return nil
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b)%size != 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(size) != 0 {
		d.err = fmt.Errorf("%w: misaligned section", ErrCacheCorrupt)
		return nil
	}
	if len(b) == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size)
}

// takeLen is take of a section that must hold n values.
func takeLen[T number](d *cacheDec, n int, what string) []T {
	s := take[T](d)
	if d.err == nil && len(s) != n {
		d.err = fmt.Errorf("%w: %s has %d values, want %d", ErrCacheCorrupt, what, len(s), n)
	}
	return s
}

// putAnalysis adds the analyzed cases and the vocabulary.
func (ix *Index) putAnalysis(e *cacheEnc) error {
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
	for i := range ix.docs {
		packed = append(packed, ix.docs[i].packed...)
		ends = append(ends, len(packed))
		counts = append(counts, ix.docs[i].n)
		lengths = append(lengths, ix.docs[i].length[:]...)
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
	put(e, packed)
	put(e, ends)
	put(e, counts)
	put(e, lengths)
	put(e, ix.ownPositions())
	put(e, terms)
	put(e, termEnd)
	put(e, surface)
	put(e, surfaceEnd)
	put(e, firstDoc)
	return nil
}

// putWeighted adds what reweigh computes from the analysis alone. The
// weight sets are mw and rw (rel.w is always rw); when the second stage of
// match has its own, exp.w keeps only its norms (its weights are rw's text
// and mw's tags).
func (ix *Index) putWeighted(e *cacheEnc) {
	ownExp := ix.exp != ix.rel
	misc := append(ix.pasteViews[:0:0], ix.pasteViews[:]...)
	misc = append(misc, ix.rel.views[:]...)
	misc = append(misc, ix.exp.views[:]...)
	flag := 0.0
	if ownExp {
		flag = 1
	}
	misc = append(misc, flag)
	put(e, misc)
	put(e, ix.canon)
	put(e, ix.craw)
	put(e, ix.df)
	put(e, ix.idf)
	put(e, ix.vstart)
	put(e, ix.vkey)
	put(e, ix.pstart)
	put(e, ix.pdoc)
	put(e, ix.bstart)
	putWeights := func(w *weights) {
		put(e, w.vval)
		put(e, w.pval)
		put(e, w.vnorm)
		put(e, w.pmax)
		put(e, w.bmax)
	}
	putProfile := func(p *profile) {
		put(e, p.scale)
		put(e, p.pmax)
		put(e, p.unorm)
	}
	putWeights(ix.mw)
	putWeights(ix.rw)
	putProfile(ix.rel)
	if ownExp {
		put(e, ix.exp.w.vnorm) // its weights are rw's and mw's
		putProfile(ix.exp)
	}
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

func align8(n int) int { return (n + 7) &^ 7 }

// OpenCache returns the index Build(docs, cfg) would return, from the
// cache file at path written by SaveCache with key (CacheKey(docs, cfg,
// salt)). A file that is missing gives an error satisfying
// errors.Is(err, fs.ErrNotExist); of another key, ErrCacheStale; truncated,
// damaged or not a cache file, ErrCacheCorrupt: the caller builds instead
// (and saves). Nothing of a file is used unless its header and the
// checksum of its whole body are right.
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
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if !littleEndian {
		return nil, errBigEndian
	}
	data, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	secs, err := checkCache(data, key)
	if err != nil {
		unmap(data)
		return nil, err
	}
	ix := &Index{cfg: cfg, an: tokenize.New(cfg.Analyzer)}
	if err := setup(ix); err != nil {
		unmap(data)
		return nil, err
	}
	if err := ix.restore(secs, docs); err != nil {
		unmap(data)
		return nil, err
	}
	ix.finish()
	return ix, nil
}

// checkCache checks the header, key and body checksum of a mapped file and
// returns its sections.
func checkCache(data []byte, key [32]byte) ([][]byte, error) {
	var secs [][]byte
	if len(data) < headerSize || string(data[:8]) != cacheMagic {
		return secs, fmt.Errorf("%w: not a cache file", ErrCacheCorrupt)
	}
	head := data[:headerSize]
	if crc32.Checksum(head[:60], castagnoli) != binary.LittleEndian.Uint32(head[60:]) {
		return secs, fmt.Errorf("%w: bad header checksum", ErrCacheCorrupt)
	}
	nsec := int(binary.LittleEndian.Uint32(head[12:]))
	if binary.LittleEndian.Uint32(head[8:]) != cacheFormat || nsec > maxSections {
		return secs, fmt.Errorf("%w: format %d", ErrCacheStale, binary.LittleEndian.Uint32(head[8:]))
	}
	if string(head[16:48]) != string(key[:]) {
		return secs, ErrCacheStale
	}
	blen := binary.LittleEndian.Uint64(head[48:])
	if blen != uint64(len(data)-headerSize) {
		return secs, fmt.Errorf("%w: %d bytes, want %d", ErrCacheCorrupt, len(data), headerSize+blen)
	}
	body := data[headerSize:]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(head[56:]) {
		return secs, fmt.Errorf("%w: bad checksum", ErrCacheCorrupt)
	}
	if len(body) < nsec*16 {
		return secs, fmt.Errorf("%w: no section table", ErrCacheCorrupt)
	}
	secs = make([][]byte, nsec)
	for i := range secs {
		off := binary.LittleEndian.Uint64(body[i*16:])
		n := binary.LittleEndian.Uint64(body[i*16+8:])
		if off == 0 && n == 0 {
			continue // a nil slice
		}
		if off%8 != 0 || off < headerSize || off > uint64(len(data)) || n > uint64(len(data))-off {
			return secs, fmt.Errorf("%w: section %d out of bounds", ErrCacheCorrupt, i)
		}
		secs[i] = data[off : off+n : off+n]
	}
	return secs, nil
}

// restore sets the index's analyzed documents, vocabulary and weighted
// arrays from the sections of a checked file, checking that they fit
// together and with the documents. Of docs it keeps those the file says
// were not their case's NewDocument when built (the key says docs are what
// was built); the others are made again from their case when needed.
func (ix *Index) restore(secs [][]byte, docs []Document) error {
	d := &cacheDec{secs: secs}
	packed := take[byte](d)
	var ends []int
	if ix.docs == nil { // opened without documents: the file says how many
		ends = take[int](d)
		if d.err == nil && len(ends) == 0 {
			d.err = fmt.Errorf("%w: no case starts", ErrCacheCorrupt)
		}
		ix.docs = make([]analyzed, max(len(ends)-1, 0))
		ix.cases = make([]*caselib.Case, len(ix.docs))
	} else {
		ends = takeLen[int](d, len(ix.docs)+1, "case starts")
	}
	n := len(ix.docs)
	counts := takeLen[int32](d, n, "case entries")
	lengths := takeLen[int32](d, n*textViews, "case lengths")
	own := take[int32](d)
	voc := restoreVocabulary(d)
	if d.err != nil {
		return d.err
	}
	bad := func(what string) error { return fmt.Errorf("%w: %s", ErrCacheCorrupt, what) }
	if ends[0] != 0 || ends[n] != len(packed) {
		return bad("case entries")
	}
	nterms := uint32(len(voc.terms))
	var broken atomic.Bool
	par.For(n, 1024, func(_, from, to int) { // decoding every entry to check it: on all cores
		for i := from; i < to; i++ {
			lo, hi := ends[i], ends[i+1]
			if lo > hi || hi > len(packed) || !validPacked(packed[lo:hi], int(counts[i]), nterms) {
				broken.Store(true)
				return
			}
			a := &ix.docs[i]
			a.packed, a.n = packed[lo:hi:hi], counts[i]
			copy(a.length[:], lengths[i*textViews:(i+1)*textViews])
		}
	})
	if broken.Load() {
		return bad("case entries")
	}
	if len(own) > 0 && docs == nil {
		// Kept documents are a caller's own (not made from the cases):
		// an index of them is opened with them.
		return fmt.Errorf("%w: the index was built from documents of its own, which opening without the cases cannot give", ErrCacheStale)
	}
	for j, i := range own {
		if i < 0 || int(i) >= n || j > 0 && i <= own[j-1] {
			return bad("documents kept")
		}
		ix.keepDocument(int(i), docs[i])
	}
	ix.voc = voc
	if err := ix.restoreWeighted(d); err != nil {
		return err
	}
	if err := ix.restoreCaseFields(d); err != nil {
		return err
	}
	if len(d.secs) != 0 {
		return bad("sections left over")
	}
	return nil
}

// restoreWeighted is putWeighted backwards. The sizes are checked against
// each other, so that no later read goes out of bounds; the values are
// trusted because the body's checksum is right and the key says which
// documents and Config they were computed from.
func (ix *Index) restoreWeighted(d *cacheDec) error {
	misc := takeLen[float64](d, 3*NumViews+1, "view weights")
	ix.canon = takeLen[uint32](d, len(ix.voc.terms), "canonical ids")
	ix.craw = take[uint32](d)
	nterms, n := len(ix.craw), len(ix.docs)
	ix.df = takeLen[int32](d, nterms, "document frequencies")
	ix.idf = takeLen[float32](d, nterms, "idf")
	ix.vstart = takeLen[int](d, n+1, "vector starts")
	ix.vkey = take[uint32](d)
	nkeys, total := nterms*NumViews, len(ix.vkey)
	ix.pstart = takeLen[int](d, nkeys+1, "posting starts")
	ix.pdoc = takeLen[uint32](d, total, "postings")
	ix.bstart = takeLen[uint32](d, nkeys+1, "block starts")
	if d.err != nil {
		return d.err
	}
	if ix.vstart[0] != 0 || ix.vstart[n] != total || ix.pstart[0] != 0 || ix.pstart[nkeys] != total {
		return fmt.Errorf("%w: vector or posting bounds", ErrCacheCorrupt)
	}
	ownExp := misc[3*NumViews] != 0
	nblocks := int(ix.bstart[nkeys])
	takeWeights := func() *weights {
		return &weights{
			vval:  takeLen[float32](d, total, "vector weights"),
			pval:  takeLen[float32](d, total, "posting weights"),
			vnorm: takeLen[float32](d, n, "norms"),
			pmax:  takeLen[float32](d, nkeys, "largest weights"),
			bmax:  take[float32](d),
		}
	}
	ix.mw, ix.rw = takeWeights(), takeWeights()
	takeProfile := func(views []float64, w *weights) *profile {
		p := &profile{w: w, scale: takeLen[float32](d, n, "scales"), pmax: takeLen[float32](d, nkeys, "largest scaled"),
			unorm: takeLen[float32](d, n, "profile norms")}
		copy(p.views[:], views)
		p.setUmax()
		return p
	}
	copy(ix.pasteViews[:], misc[:NumViews])
	ix.rel = takeProfile(misc[NumViews:2*NumViews], ix.rw)
	ix.exp = ix.rel
	if ownExp {
		w := &weights{vnorm: takeLen[float32](d, n, "norms"), text: ix.rw, tags: ix.mw}
		ix.exp = takeProfile(misc[2*NumViews:3*NumViews], w)
	}
	if d.err == nil && len(ix.mw.bmax) != nblocks {
		d.err = fmt.Errorf("%w: block maxima", ErrCacheCorrupt)
	}
	return d.err
}

// restoreVocabulary decodes the vocabulary's strings (one copy of each
// blob, so no string points into the mapping) and rebuilds its map.
func restoreVocabulary(d *cacheDec) *vocabulary {
	terms := unpackStrings(d, take[byte](d), take[uint32](d))
	surface := unpackStrings(d, take[byte](d), take[uint32](d))
	first := takeLen[int32](d, len(terms), "first cases")
	if d.err == nil && len(surface) != len(terms) {
		d.err = fmt.Errorf("%w: vocabulary", ErrCacheCorrupt)
	}
	if d.err != nil {
		return nil
	}
	voc := &vocabulary{ids: make(map[string]uint32, len(terms)), terms: terms, surface: surface,
		firstDoc: make([]int, len(terms)), clone: true}
	for i, t := range terms {
		voc.ids[t] = uint32(i)
		voc.firstDoc[i] = int(first[i])
	}
	if len(voc.ids) != len(terms) {
		d.err = fmt.Errorf("%w: vocabulary repeats a term", ErrCacheCorrupt)
	}
	return voc
}

func unpackStrings(d *cacheDec, blob []byte, ends []uint32) []string {
	if d.err != nil {
		return nil
	}
	all := string(blob)
	out := make([]string, len(ends))
	var at uint32
	for i, e := range ends {
		if e < at || int(e) > len(all) {
			d.err = fmt.Errorf("%w: strings", ErrCacheCorrupt)
			return nil
		}
		out[i] = all[at:e]
		at = e
	}
	return out
}
