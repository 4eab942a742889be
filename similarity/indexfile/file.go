package indexfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/caselink/caselink/similarity/caselib"
)

// The header and the section table (FORMAT.md, "Index file").
const (
	Magic      = "CLINDEX\n"
	HeaderSize = 64
	EntrySize  = 24 // one entry of the section table
	// MaxSections bounds the section count a header may claim, so that a
	// damaged header cannot make the reader allocate much.
	MaxSections = 256
)

// Entry flags.
const flagNil = 1 // the section is a nil slice (count 0, offset 0)

// ErrCorrupt is returned (wrapped) for a file that is not a whole index
// file: truncated, overwritten, or not written by a Writer.
var ErrCorrupt = errors.New("cache file is damaged")

// ErrStale is returned for a well-formed index file of another format or
// another key (library, configuration or binary).
var ErrStale = errors.New("cache file is for another library, configuration or version")

// errBigEndian refuses files on a machine whose numbers are stored the
// other way round: the arrays are used in place.
var errBigEndian = errors.New("cache files are not used on a big-endian machine")

// littleEndian tells whether the arrays of a file can be used in place.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// SectionError is a section of a file that does not fit IndexSections:
// missing, in another's place, of another element type, or of the wrong
// count. It wraps ErrCorrupt.
type SectionError struct {
	At      int    // its position in the file's table (-1: absent)
	Section string // the section the format has at that place
	Msg     string
}

// Error says which section is wrong, and how.
func (e *SectionError) Error() string {
	return fmt.Sprintf("%v: section %q: %s", ErrCorrupt, e.Section, e.Msg)
}

// Unwrap makes errors.Is(err, ErrCorrupt) true.
func (e *SectionError) Unwrap() error { return ErrCorrupt }

// Number is what a section may hold (see Elem).
type Number interface {
	uint8 | uint32 | int32 | float32 | float64 | int
}

func elemOf[T Number]() Elem {
	var z T
	switch any(z).(type) {
	case uint8:
		return Byte
	case uint32:
		return Uint32
	case int32:
		return Int32
	case float32:
		return Float32
	case float64:
		return Float64
	}
	return Int
}

func (e Elem) size() int {
	switch e {
	case Byte:
		return 1
	case Uint32, Int32, Float32:
		return 4
	case Int:
		return int(unsafe.Sizeof(0))
	}
	return 8
}

// entry is one row of a file's section table, as read or about to be
// written.
type entry struct {
	id    ID
	elem  Elem
	flags uint8
	off   uint64
	count uint64
	data  []byte
}

// checkTable checks entries against IndexSections, in order, and returns
// the dimensions they define. The writer checks what it is about to write
// with it, the reader what it read: one rule for both.
func checkTable(ents []entry) (dims [Any]int, err error) {
	at := 0
	present := map[string]int{}
	groups := map[string]int{}
	for _, s := range IndexSections {
		if s.Group != "" {
			groups[s.Group]++
		}
		if at >= len(ents) || ents[at].id != s.ID {
			if s.Group != "" {
				continue
			}
			msg := "missing"
			if at < len(ents) {
				msg = fmt.Sprintf("missing: its place holds %s", nameOf(ents[at].id))
			}
			return dims, &SectionError{At: at, Section: s.Name, Msg: msg}
		}
		e := ents[at]
		if e.elem != s.Elem {
			return dims, &SectionError{At: at, Section: s.Name, Msg: fmt.Sprintf("holds %s, want %s", e.elem, s.Elem)}
		}
		c := s.Count
		cnt := e.count
		switch {
		case c.Defines:
			if cnt > math.MaxInt32*uint64(max(c.Mul, 1)) || int(cnt) < c.Add || (int(cnt)-c.Add)%c.Mul != 0 {
				return dims, &SectionError{At: at, Section: s.Name, Msg: fmt.Sprintf("%d values cannot be %s", cnt, c)}
			}
			dims[c.Dim] = (int(cnt) - c.Add) / c.Mul
		case c.Dim != Any:
			if want := c.want(&dims); cnt != uint64(want) {
				return dims, &SectionError{At: at, Section: s.Name, Msg: fmt.Sprintf("%d values, want %d (%s)", cnt, want, c)}
			}
		}
		if s.Group != "" {
			present[s.Group]++
		}
		at++
	}
	if at < len(ents) {
		return dims, &SectionError{At: at, Section: nameOf(ents[at].id), Msg: "out of place or unknown"}
	}
	for g, n := range present {
		if n != groups[g] {
			return dims, &SectionError{At: -1, Section: g, Msg: fmt.Sprintf("%d of the group's %d sections", n, groups[g])}
		}
	}
	return dims, nil
}

func nameOf(id ID) string {
	if s, ok := Lookup(id); ok {
		return s.Name
	}
	return fmt.Sprintf("#%d", id)
}

// Writer collects the sections of an index file, then writes it. The
// sections may be put in any order; the file holds them in the table's.
type Writer struct {
	ents []entry
	err  error
}

// Put adds section id, holding s (nil is kept as nil). The element type of
// s must be the table's for id; an unknown id, a wrong type or a section
// put twice makes the Writer's write fail.
func Put[T Number](w *Writer, id ID, s []T) {
	sec, ok := Lookup(id)
	switch {
	case w.err != nil:
		return
	case !ok:
		w.err = fmt.Errorf("indexfile: no section %d", id)
		return
	case sec.Elem != elemOf[T]():
		w.err = fmt.Errorf("indexfile: section %q holds %s, not %s", sec.Name, sec.Elem, elemOf[T]())
		return
	}
	for _, e := range w.ents {
		if e.id == id {
			w.err = fmt.Errorf("indexfile: section %q put twice", sec.Name)
			return
		}
	}
	e := entry{id: id, elem: sec.Elem, count: uint64(len(s))}
	switch {
	case s == nil:
		e.flags = flagNil
	case len(s) > 0:
		e.data = unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*sec.Elem.size())
	default:
		e.data = []byte{}
	}
	w.ents = append(w.ents, e)
}

// layout orders the entries as the table does, checks them, and gives each
// its offset; it returns the table's bytes and the file's size.
func (w *Writer) layout() ([]byte, int, error) {
	if w.err != nil {
		return nil, 0, w.err
	}
	ents := make([]entry, 0, len(w.ents))
	for _, s := range IndexSections {
		for _, e := range w.ents {
			if e.id == s.ID {
				ents = append(ents, e)
			}
		}
	}
	if _, err := checkTable(ents); err != nil {
		return nil, 0, fmt.Errorf("indexfile: writing: %w", err)
	}
	w.ents = ents
	table := make([]byte, align8(len(ents)*EntrySize))
	at := HeaderSize + len(table)
	for i := range ents {
		e := &ents[i]
		if e.flags&flagNil == 0 {
			e.off = uint64(at)
		}
		b := table[i*EntrySize:]
		binary.LittleEndian.PutUint32(b, uint32(e.id))
		b[4], b[5] = byte(e.elem), e.flags
		binary.LittleEndian.PutUint64(b[8:], e.off)
		binary.LittleEndian.PutUint64(b[16:], e.count)
		at += align8(len(e.data))
	}
	return table, at, nil
}

// WriteTo writes the file, under key, to out: the header (with the body's
// checksum, computed first), the section table and the sections, each
// padded to a multiple of 8 bytes, straight from the arrays put.
func (w *Writer) WriteTo(out io.Writer, key [32]byte) error {
	if !littleEndian {
		return errBigEndian
	}
	table, size, err := w.layout()
	if err != nil {
		return err
	}
	var pad [8]byte
	sum := caselib.UpdateCRC(0, table)
	for _, e := range w.ents {
		sum = caselib.UpdateCRC(caselib.UpdateCRC(sum, e.data), pad[:align8(len(e.data))-len(e.data)])
	}
	head := make([]byte, HeaderSize)
	copy(head, Magic)
	binary.LittleEndian.PutUint32(head[8:], Format)
	binary.LittleEndian.PutUint32(head[12:], uint32(len(w.ents)))
	copy(head[16:48], key[:])
	binary.LittleEndian.PutUint64(head[48:], uint64(size-HeaderSize))
	binary.LittleEndian.PutUint32(head[56:], sum)
	binary.LittleEndian.PutUint32(head[60:], caselib.CRC(head[:60]))
	if _, err := out.Write(head); err != nil {
		return err
	}
	if _, err := out.Write(table); err != nil {
		return err
	}
	for _, e := range w.ents {
		if _, err := out.Write(e.data); err != nil {
			return err
		}
		if _, err := out.Write(pad[:align8(len(e.data))-len(e.data)]); err != nil {
			return err
		}
	}
	return nil
}

// WriteFile writes the file to path under key with caselib.WriteFile: a
// temporary file beside path, synced and renamed over it, so that a reader
// sees the old file or the new one whole, and two processes writing at once
// leave one of their files, never a mix.
func (w *Writer) WriteFile(path string, key [32]byte) error {
	if !littleEndian {
		return errBigEndian
	}
	if _, _, err := w.layout(); err != nil {
		return err
	}
	return caselib.WriteFile(path, 0o600, func(out io.Writer) error { return w.WriteTo(out, key) })
}

// File is an index file read and checked against IndexSections: its
// sections are slices of its bytes (a read-only mapping when opened by
// Open), used in place.
type File struct {
	data   []byte
	mapped bool
	secs   map[ID][]byte
	nils   map[ID]bool
	dims   [Any]int
}

// Parse checks data as an index file under key: the header, the key, the
// checksum of the whole body, and the section table against IndexSections
// (ids in order, element types, counts, bounds and alignment). A file of
// another format or key gives ErrStale; anything else not right, ErrCorrupt
// (a *SectionError for a section). Nothing of data is used unless it is all
// right.
func Parse(data []byte, key [32]byte) (*File, error) {
	if !littleEndian {
		return nil, errBigEndian
	}
	if len(data) < HeaderSize || string(data[:8]) != Magic {
		return nil, fmt.Errorf("%w: not a cache file", ErrCorrupt)
	}
	if uintptr(unsafe.Pointer(&data[0]))%8 != 0 {
		data = append(make([]byte, 0, len(data)), data...) // a fresh allocation is aligned
	}
	head := data[:HeaderSize]
	le := binary.LittleEndian
	if caselib.CRC(head[:60]) != le.Uint32(head[60:]) {
		return nil, fmt.Errorf("%w: bad header checksum", ErrCorrupt)
	}
	if f := le.Uint32(head[8:]); f != Format {
		return nil, fmt.Errorf("%w: format %d, want %d", ErrStale, f, Format)
	}
	if string(head[16:48]) != string(key[:]) {
		return nil, ErrStale
	}
	nsec := int(le.Uint32(head[12:]))
	if nsec > MaxSections {
		return nil, fmt.Errorf("%w: %d sections", ErrCorrupt, nsec)
	}
	if blen := le.Uint64(head[48:]); blen != uint64(len(data)-HeaderSize) {
		return nil, fmt.Errorf("%w: %d bytes, want %d", ErrCorrupt, len(data), HeaderSize+blen)
	}
	body := data[HeaderSize:]
	if caselib.CRC(body) != le.Uint32(head[56:]) {
		return nil, fmt.Errorf("%w: bad checksum", ErrCorrupt)
	}
	tableEnd := HeaderSize + align8(nsec*EntrySize)
	if len(data) < tableEnd {
		return nil, fmt.Errorf("%w: no section table", ErrCorrupt)
	}
	ents := make([]entry, nsec)
	for i := range ents {
		b := data[HeaderSize+i*EntrySize:]
		e := entry{id: ID(le.Uint32(b)), elem: Elem(b[4]), flags: b[5], off: le.Uint64(b[8:]), count: le.Uint64(b[16:])}
		if b[6] != 0 || b[7] != 0 || e.flags&^flagNil != 0 {
			return nil, &SectionError{At: i, Section: nameOf(e.id), Msg: "reserved bits set"}
		}
		if e.flags&flagNil != 0 {
			if e.off != 0 || e.count != 0 {
				return nil, &SectionError{At: i, Section: nameOf(e.id), Msg: "nil with values"}
			}
			ents[i] = e
			continue
		}
		size := uint64(e.elem.size())
		if e.off%8 != 0 || e.off < uint64(tableEnd) || e.off > uint64(len(data)) ||
			e.count > (uint64(len(data))-e.off)/size {
			return nil, &SectionError{At: i, Section: nameOf(e.id), Msg: "out of bounds"}
		}
		e.data = data[e.off : e.off+e.count*size : e.off+e.count*size]
		ents[i] = e
	}
	dims, err := checkTable(ents)
	if err != nil {
		return nil, err
	}
	f := &File{data: data, secs: make(map[ID][]byte, nsec), nils: map[ID]bool{}, dims: dims}
	for _, e := range ents {
		if e.flags&flagNil != 0 {
			f.nils[e.id] = true
		} else {
			f.secs[e.id] = e.data
		}
	}
	return f, nil
}

// Open maps the file at path read-only and parses it (see Parse). A
// missing file gives an error satisfying errors.Is(err, fs.ErrNotExist).
// The mapping is released by Close, or lives as long as the process once
// the file's arrays are in use.
func Open(path string, key [32]byte) (*File, error) {
	if !littleEndian {
		return nil, errBigEndian
	}
	data, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Parse(data, key)
	if err != nil {
		unmap(data)
		return nil, err
	}
	f.mapped = true
	return f, nil
}

// Close releases the mapping of a file opened by Open whose arrays are not
// in use (the index could not be restored from it).
func (f *File) Close() {
	if f.mapped {
		unmap(f.data)
		f.mapped = false
	}
}

// DropPages gives back the memory of the pages of a file opened by Open
// that were read to check it: the arrays stay valid, and a page is read
// again (from the page cache, or the file) when one of them is next used.
// For a caller that will use a small part of the file, so that the
// checksum of the whole does not leave all of it in the process's memory.
func (f *File) DropPages() {
	if f.mapped {
		dropPages(f.data)
	}
}

// Has reports whether the file holds section id (an optional section may
// be absent).
func (f *File) Has(id ID) bool {
	_, ok := f.secs[id]
	return ok || f.nils[id]
}

// Dim returns a dimension of the file (Cases, Terms, Canon, Postings).
func (f *File) Dim(d Dim) int {
	if d >= Any {
		return 0
	}
	return f.dims[d]
}

// Get returns section id as a []T over the file's bytes (nil when the file
// holds a nil slice or no such section). T must be the table's element type
// for id: anything else is a mistake of the code, and panics.
func Get[T Number](f *File, id ID) []T {
	sec, ok := Lookup(id)
	if !ok || sec.Elem != elemOf[T]() {
		panic(fmt.Sprintf("indexfile: section %d read as %s", id, elemOf[T]()))
	}
	b, ok := f.secs[id]
	if !ok {
		return nil
	}
	if len(b) == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/sec.Elem.size())
}

func align8(n int) int { return (n + 7) &^ 7 }

// Reseal sets the checksums of an index file's header and body in place to
// those of its bytes (when data is at least a header long). It is for tests
// and fuzzers that damage a file on purpose: resealed, the damage reaches
// the reader's checks of the section table and of the values, which the
// checksums would otherwise stop first.
func Reseal(data []byte) {
	if len(data) < HeaderSize {
		return
	}
	binary.LittleEndian.PutUint32(data[56:], caselib.CRC(data[HeaderSize:]))
	binary.LittleEndian.PutUint32(data[60:], caselib.CRC(data[:60]))
}
