package indexfile

import (
	"encoding/binary"
	"errors"
	"math"
	"os"

	"github.com/caselink/caselink/similarity/caselib"
)

// The library stamp (FORMAT.md, "Stamp file"): the magic, a CRC-32C of the
// rest, the format, then Stamp's fields one after the other, each in a fixed
// encoding: never a struct's memory, so that adding a field to a Go type
// cannot change the file unnoticed.
const (
	StampMagic = "CLSTAMP\n"
	// StampFormat is the version of the stamp's layout. 1 was JSON and the
	// spans' raw memory; 2 encodes every field.
	StampFormat = 2
)

// ErrBadStamp is returned for a stamp file that is not whole, of another
// format, or not a stamp file at all: its reader reads the library.
var ErrBadStamp = errors.New("not a whole stamp file")

// Stamp is what a stamp file records of a library: how it was loaded, what
// its files were, the sum of its documents, and where each case lies.
type Stamp struct {
	Salt    string              // the binary that took it (cmd/caselink's cacheSalt)
	Paths   []string            // --cases as given
	Lenient bool                // --lenient
	MaxCase int64               // the largest case allowed, in bytes
	Taken   int64               // when the files were stamped, before the load (Unix ns)
	Files   []caselib.FileStamp // caselib.FileStamps(Paths)
	Sum     [32]byte            // similarity.DocsSum of the library
	Sources []string            // the files Spans name, as Load named them
	Notes   string              // what loading printed on stderr
	Spans   []caselib.Span      // each case's place, in library order
}

// spanSize is the encoded size of a caselib.Span: Off, Len, File, Line, Sum.
const spanSize = 8 + 4*4

// AppendStamp appends the stamp file of st to b.
func AppendStamp(b []byte, st *Stamp) []byte {
	start := len(b)
	b = append(b, StampMagic...)
	b = binary.LittleEndian.AppendUint32(b, 0) // the checksum, set below
	b = binary.LittleEndian.AppendUint32(b, StampFormat)
	b = appendStr(b, st.Salt)
	b = appendStrs(b, st.Paths)
	if st.Lenient {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(st.MaxCase))
	b = binary.LittleEndian.AppendUint64(b, uint64(st.Taken))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(st.Files)))
	for _, f := range st.Files {
		b = appendStr(b, f.Name)
		b = binary.LittleEndian.AppendUint64(b, uint64(f.Size))
		b = binary.LittleEndian.AppendUint64(b, uint64(f.MTime))
		b = binary.LittleEndian.AppendUint64(b, uint64(f.CTime))
		b = binary.LittleEndian.AppendUint64(b, f.Ino)
		b = binary.LittleEndian.AppendUint64(b, f.Dev)
		b = binary.LittleEndian.AppendUint32(b, f.Mode)
		b = appendStr(b, f.Err)
	}
	b = append(b, st.Sum[:]...)
	b = appendStrs(b, st.Sources)
	b = appendStr(b, st.Notes)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(st.Spans)))
	for _, sp := range st.Spans {
		b = binary.LittleEndian.AppendUint64(b, uint64(sp.Off))
		b = binary.LittleEndian.AppendUint32(b, sp.Len)
		b = binary.LittleEndian.AppendUint32(b, sp.File)
		b = binary.LittleEndian.AppendUint32(b, sp.Line)
		b = binary.LittleEndian.AppendUint32(b, sp.Sum)
	}
	binary.LittleEndian.PutUint32(b[start+8:], caselib.CRC(b[start+12:]))
	return b
}

func appendStr(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func appendStrs(b []byte, ss []string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ss)))
	for _, s := range ss {
		b = appendStr(b, s)
	}
	return b
}

// ParseStamp decodes a stamp file. Anything but a whole stamp of this
// format, whose spans name its sources, gives ErrBadStamp.
func ParseStamp(data []byte) (*Stamp, error) {
	if len(data) < 16 || string(data[:8]) != StampMagic ||
		caselib.CRC(data[12:]) != binary.LittleEndian.Uint32(data[8:]) ||
		binary.LittleEndian.Uint32(data[12:]) != StampFormat {
		return nil, ErrBadStamp
	}
	r := stampReader{b: data[16:]}
	st := &Stamp{Salt: r.str(), Paths: r.strs()}
	switch r.byte() {
	case 0:
	case 1:
		st.Lenient = true
	default:
		r.bad = true
	}
	st.MaxCase, st.Taken = int64(r.u64()), int64(r.u64())
	if n := r.count(8 * 6); n > 0 {
		st.Files = make([]caselib.FileStamp, n)
		for i := range st.Files {
			f := &st.Files[i]
			f.Name = r.str()
			f.Size, f.MTime, f.CTime = int64(r.u64()), int64(r.u64()), int64(r.u64())
			f.Ino, f.Dev, f.Mode = r.u64(), r.u64(), r.u32()
			f.Err = r.str()
		}
	}
	copy(st.Sum[:], r.take(32))
	st.Sources = r.strs()
	st.Notes = r.str()
	if n := r.count(spanSize); n > 0 {
		st.Spans = make([]caselib.Span, n)
		for i := range st.Spans {
			sp := &st.Spans[i]
			sp.Off = int64(r.u64())
			sp.Len, sp.File, sp.Line, sp.Sum = r.u32(), r.u32(), r.u32(), r.u32()
			if int(sp.File) >= len(st.Sources) {
				r.bad = true
			}
		}
	}
	if r.bad || len(r.b) != 0 {
		return nil, ErrBadStamp
	}
	return st, nil
}

// stampReader reads a stamp's fields in order; the first read past the end
// sets bad, and every read after returns zeros.
type stampReader struct {
	b   []byte
	bad bool
}

func (r *stampReader) take(n int) []byte {
	if r.bad || n > len(r.b) {
		r.bad = true
		return make([]byte, n)
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *stampReader) byte() byte  { return r.take(1)[0] }
func (r *stampReader) u32() uint32 { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *stampReader) u64() uint64 { return binary.LittleEndian.Uint64(r.take(8)) }

// count reads a count of items of at least min bytes each, refusing one
// the rest of the file cannot hold (so that a damaged count allocates
// nothing).
func (r *stampReader) count(min int) int {
	n := uint64(r.u32())
	if r.bad || n > uint64(len(r.b)/min) || n > math.MaxInt32 {
		r.bad = true
		return 0
	}
	return int(n)
}

func (r *stampReader) str() string {
	n := int(r.u32())
	if r.bad || n > len(r.b) {
		r.bad = true
		return ""
	}
	return string(r.take(n))
}

func (r *stampReader) strs() []string {
	n := r.count(4)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

// WriteStamp writes st to path with caselib.WriteFile (a temporary file
// synced and renamed over path).
func WriteStamp(path string, st *Stamp) error {
	return caselib.WriteFileAtomic(path, AppendStamp(nil, st), 0o600)
}

// ReadStamp reads the stamp file at path (see ParseStamp).
func ReadStamp(path string) (*Stamp, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseStamp(data)
}
