package similarity

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/caselink/caselink/tokenize"
)

// This file keeps the analysis of a library on disk, so that a command run
// again on the same library does not tokenize it again (tokenizing is most
// of a build). What is kept is exactly what Build derives from the
// documents' text and tags — each case's entries and view lengths, and the
// vocabulary — in flat arrays that OpenCache maps read-only and uses in
// place. Everything that depends on the whole library (idf, the weighted
// vectors, postings, blocks, tag lift, tag rules, events, date priors) is
// computed again at open by the same reweigh as Build's, so an index opened
// from the cache is the index Build would return, score for score.
//
// Layout (little endian; every section starts at a multiple of 8):
//
//	header  64 bytes: magic, format, section count, key, body length,
//	        CRC-32C of the body, CRC-32C of the header's first 60 bytes
//	body    section table (offset, length in bytes: 2×uint64 per section),
//	        then the sections, in the order of the sec* constants

const (
	cacheMagic  = "CLINDEX\n"
	cacheFormat = 1
	headerSize  = 64
)

// Sections of a cache file.
const (
	secEnts       = iota // []entry: every case's entries, in library order
	secEntStart          // []uint32, n+1: case i has ents[entStart[i]:entStart[i+1]]
	secLengths           // []int32, n·textViews: the text views' lengths in terms
	secTerms             // bytes: the vocabulary's terms, end to end
	secTermEnd           // []uint32: end of each term in secTerms
	secSurface           // bytes: each term's surface form, end to end
	secSurfaceEnd        // []uint32: end of each surface form
	secFirstDoc          // []int32: library position of the first case with each term
	numSections
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// littleEndian tells whether the arrays of a cache file can be used in
// place on this machine.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// errBigEndian refuses the cache on a machine whose numbers are stored the
// other way round.
var errBigEndian = errors.New("cache files are not used on a big-endian machine")

// CacheKey returns the key a cache file of docs indexed with cfg must carry
// to be used: a SHA-256 of salt (the caller's version, say), the format of
// the file, the whole of cfg, and every document's case id, text and tags,
// in order — exactly what the kept analysis is derived from, so a file
// with this key can never be stale, whatever the files' times say.
func CacheKey(docs []Document, cfg Config, salt string) [32]byte {
	h := sha256.New()
	var buf [8]byte
	str := func(s string) {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
		h.Write(buf[:])
		h.Write(unsafe.Slice(unsafe.StringData(s), len(s)))
	}
	str(salt)
	str(fmt.Sprintf("format %d\n%#v", cacheFormat, cfg))
	binary.LittleEndian.PutUint64(buf[:], uint64(len(docs)))
	h.Write(buf[:])
	for i := range docs {
		d := &docs[i]
		str(d.Case.ID)
		for v := range d.Text {
			binary.LittleEndian.PutUint64(buf[:], uint64(len(d.Text[v])))
			h.Write(buf[:])
			for _, s := range d.Text[v] {
				str(s)
			}
		}
		binary.LittleEndian.PutUint64(buf[:], uint64(len(d.Tags)))
		h.Write(buf[:])
		for _, s := range d.Tags {
			str(s)
		}
	}
	var key [32]byte
	h.Sum(key[:0])
	return key
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
	body, err := ix.cacheBody()
	if err != nil {
		return err
	}
	head := make([]byte, headerSize)
	copy(head, cacheMagic)
	binary.LittleEndian.PutUint32(head[8:], cacheFormat)
	binary.LittleEndian.PutUint32(head[12:], numSections)
	copy(head[16:48], key[:])
	binary.LittleEndian.PutUint64(head[48:], uint64(len(body)))
	binary.LittleEndian.PutUint32(head[56:], crc32.Checksum(body, castagnoli))
	binary.LittleEndian.PutUint32(head[60:], crc32.Checksum(head[:60], castagnoli))

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
	if _, err = f.Write(head); err != nil {
		return err
	}
	if _, err = f.Write(body); err != nil {
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

// cacheBody lays out the section table and the sections.
func (ix *Index) cacheBody() ([]byte, error) {
	n := len(ix.docs)
	total := 0
	for i := range ix.docs {
		total += len(ix.docs[i].ents)
	}
	voc := ix.voc
	if total > math.MaxUint32 || len(voc.terms) > math.MaxUint32 {
		return nil, errors.New("library too large for the cache format")
	}
	ents := make([]entry, 0, total)
	entStart := make([]uint32, 1, n+1)
	lengths := make([]int32, 0, n*textViews)
	for i := range ix.docs {
		ents = append(ents, ix.docs[i].ents...)
		entStart = append(entStart, uint32(len(ents)))
		lengths = append(lengths, ix.docs[i].length[:]...)
	}
	terms, termEnd, err := packStrings(voc.terms)
	if err != nil {
		return nil, err
	}
	surface, surfaceEnd, err := packStrings(voc.surface)
	if err != nil {
		return nil, err
	}
	firstDoc := make([]int32, len(voc.firstDoc))
	for i, d := range voc.firstDoc {
		firstDoc[i] = int32(d)
	}
	secs := [numSections][]byte{
		secEnts:       asBytes(ents),
		secEntStart:   asBytes(entStart),
		secLengths:    asBytes(lengths),
		secTerms:      terms,
		secTermEnd:    asBytes(termEnd),
		secSurface:    surface,
		secSurfaceEnd: asBytes(surfaceEnd),
		secFirstDoc:   asBytes(firstDoc),
	}
	size := align8(numSections * 16)
	for _, s := range secs {
		size += align8(len(s))
	}
	body := make([]byte, size)
	at := align8(numSections * 16)
	for i, s := range secs {
		binary.LittleEndian.PutUint64(body[i*16:], uint64(headerSize+at))
		binary.LittleEndian.PutUint64(body[i*16+8:], uint64(len(s)))
		copy(body[at:], s)
		at += align8(len(s))
	}
	return body, nil
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

// asBytes views a slice of fixed-size numbers as its bytes, in the
// machine's order: the format is little endian, and on a big-endian machine
// the cache is not used (littleEndian).
func asBytes[T entry | uint32 | int32](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// asSlice views b (8-aligned, a whole number of T) as a slice of T.
func asSlice[T entry | uint32 | int32](b []byte) ([]T, error) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b)%size != 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(size) != 0 {
		return nil, fmt.Errorf("%w: misaligned section", ErrCacheCorrupt)
	}
	if len(b) == 0 {
		return nil, nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size), nil
}

// OpenCache returns the index Build(docs, cfg) would return, from the
// cache file at path written by SaveCache with key (CacheKey(docs, cfg,
// salt)). A file that is missing gives an error satisfying
// errors.Is(err, fs.ErrNotExist); of another key, ErrCacheStale; truncated,
// damaged or not a cache file, ErrCacheCorrupt: the caller builds instead
// (and saves). Nothing of a file is used unless its header and the
// checksum of its whole body are right.
//
// The file is mapped read-only and the cases' entries are used in place;
// the mapping lives as long as the process.
func OpenCache(path string, key [32]byte, docs []Document, cfg Config) (*Index, error) {
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
	if err := ix.setDocuments(docs); err != nil {
		unmap(data)
		return nil, err
	}
	if err := ix.restore(secs); err != nil {
		unmap(data)
		return nil, err
	}
	ix.reweigh()
	return ix, nil
}

// checkCache checks the header, key and body checksum of a mapped file and
// returns its sections.
func checkCache(data []byte, key [32]byte) ([numSections][]byte, error) {
	var secs [numSections][]byte
	if len(data) < headerSize || string(data[:8]) != cacheMagic {
		return secs, fmt.Errorf("%w: not a cache file", ErrCacheCorrupt)
	}
	head := data[:headerSize]
	if crc32.Checksum(head[:60], castagnoli) != binary.LittleEndian.Uint32(head[60:]) {
		return secs, fmt.Errorf("%w: bad header checksum", ErrCacheCorrupt)
	}
	if binary.LittleEndian.Uint32(head[8:]) != cacheFormat || binary.LittleEndian.Uint32(head[12:]) != numSections {
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
	if len(body) < numSections*16 {
		return secs, fmt.Errorf("%w: no section table", ErrCacheCorrupt)
	}
	for i := range secs {
		off := binary.LittleEndian.Uint64(body[i*16:])
		n := binary.LittleEndian.Uint64(body[i*16+8:])
		if off%8 != 0 || off < headerSize || off > uint64(len(data)) || n > uint64(len(data))-off {
			return secs, fmt.Errorf("%w: section %d out of bounds", ErrCacheCorrupt, i)
		}
		secs[i] = data[off : off+n : off+n]
	}
	return secs, nil
}

// restore sets the index's analyzed documents and vocabulary from the
// sections of a checked file, checking that they fit together.
func (ix *Index) restore(secs [numSections][]byte) error {
	bad := func(what string) error { return fmt.Errorf("%w: %s", ErrCacheCorrupt, what) }
	ents, err := asSlice[entry](secs[secEnts])
	if err != nil {
		return err
	}
	entStart, err := asSlice[uint32](secs[secEntStart])
	if err != nil {
		return err
	}
	lengths, err := asSlice[int32](secs[secLengths])
	if err != nil {
		return err
	}
	n := len(ix.docs)
	if len(entStart) != n+1 || len(lengths) != n*textViews || entStart[0] != 0 || int(entStart[n]) != len(ents) {
		return bad("case count")
	}
	voc, err := restoreVocabulary(secs)
	if err != nil {
		return err
	}
	nterms := uint32(len(voc.terms))
	for i := range n {
		lo, hi := entStart[i], entStart[i+1]
		if lo > hi {
			return bad("case entries")
		}
		a := &ix.docs[i]
		a.ents = ents[lo:hi:hi]
		copy(a.length[:], lengths[i*textViews:(i+1)*textViews])
		for _, e := range a.ents {
			if e.raw() >= nterms || int(e.view()) >= NumViews {
				return bad("term id")
			}
		}
	}
	ix.voc = voc
	return nil
}

// restoreVocabulary decodes the vocabulary's strings (one copy of each
// blob, so no string points into the mapping) and rebuilds its map.
func restoreVocabulary(secs [numSections][]byte) (*vocabulary, error) {
	terms, err := unpackStrings(secs[secTerms], secs[secTermEnd])
	if err != nil {
		return nil, err
	}
	surface, err := unpackStrings(secs[secSurface], secs[secSurfaceEnd])
	if err != nil {
		return nil, err
	}
	first, err := asSlice[int32](secs[secFirstDoc])
	if err != nil {
		return nil, err
	}
	if len(surface) != len(terms) || len(first) != len(terms) {
		return nil, fmt.Errorf("%w: vocabulary", ErrCacheCorrupt)
	}
	voc := &vocabulary{ids: make(map[string]uint32, len(terms)), terms: terms, surface: surface,
		firstDoc: make([]int, len(terms)), clone: true}
	for i, t := range terms {
		voc.ids[t] = uint32(i)
		voc.firstDoc[i] = int(first[i])
	}
	if len(voc.ids) != len(terms) {
		return nil, fmt.Errorf("%w: vocabulary repeats a term", ErrCacheCorrupt)
	}
	return voc, nil
}

func unpackStrings(blob, endSec []byte) ([]string, error) {
	ends, err := asSlice[uint32](endSec)
	if err != nil {
		return nil, err
	}
	all := string(blob)
	out := make([]string, len(ends))
	var at uint32
	for i, e := range ends {
		if e < at || int(e) > len(all) {
			return nil, fmt.Errorf("%w: strings", ErrCacheCorrupt)
		}
		out[i] = all[at:e]
		at = e
	}
	return out, nil
}
