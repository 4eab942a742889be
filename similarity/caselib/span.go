package caselib

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/caselink/caselink/seeds"
)

// span.go lets a caller keep where each case's JSON lies in its file and
// read one case again later, without loading the library: the index cache
// of the CLI prints a match's hits by reading just those cases.

// span is where the JSON a case was decoded from lies in its file: the
// bytes decodeCase saw (without a byte order mark) and their CRC-32C.
type span struct {
	off  int64
	size uint32
	sum  uint32
}

func spanOf(b []byte, off int64) span {
	return span{off: off, size: uint32(min(len(b), 1<<32-1)), sum: CRC(b)}
}

// Span says where one case of a library lies, for [ReadCase]: the file
// (an index into the names [Library.Spans] returns), the offset and length
// of the case's JSON in it, the line it starts on, and a CRC-32C of its
// bytes, which ReadCase checks.
type Span struct {
	Off  int64
	Len  uint32
	File uint32
	Line uint32
	Sum  uint32
	_    uint32 // keeps the size a multiple of 8 for flat arrays of spans
}

// Spans returns the files of lib (as Load named them, "seeds/NAME" for an
// embedded seed), and for each case, in library order, its Span. ok is
// false when a case cannot be read again: one read from standard input or
// by LoadRecords, a special file, or a case larger than 4 GiB.
func (l *Library) Spans() (files []string, spans []Span, ok bool) {
	if s := l.stream; s != nil {
		if !s.ok {
			return nil, nil, false
		}
		return s.files, s.spans, true
	}
	index := make(map[*fileState]uint32, len(l.files))
	spans = make([]Span, len(l.Cases))
	for i, c := range l.Cases {
		src := c.src
		if src == nil || (src.kind != srcFile && src.kind != srcEmbedded) || c.at.size == 1<<32-1 || c.Loc.Line < 0 {
			return nil, nil, false
		}
		f, seen := index[src]
		if !seen {
			f = uint32(len(files))
			index[src] = f
			files = append(files, src.display)
		}
		spans[i] = Span{Off: c.at.off, Len: c.at.size, File: f, Line: uint32(c.Loc.Line), Sum: c.at.sum}
	}
	return files, spans, true
}

// ErrChanged is returned (wrapped) by ReadCase when the bytes at a span are
// not those the case was loaded from: the file changed since.
var ErrChanged = errors.New("file changed since the library was indexed")

// ReadCase reads the case at sp from r, the file named name (as Load named
// it: this is the case's Loc.File), and decodes it as Load did: the same
// *Case, but for what only the writer needs (WriteRelated cannot write a
// case read this way). Bytes that are not those of the span give
// ErrChanged.
func ReadCase(r io.ReaderAt, name string, sp Span) (*Case, error) {
	b := make([]byte, sp.Len)
	if _, err := r.ReadAt(b, sp.Off); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", name, ErrChanged)
		}
		return nil, &Error{File: name, Msg: "cannot read", Err: err}
	}
	if CRC(b) != sp.Sum {
		return nil, fmt.Errorf("%s:%d: %w", name, sp.Line, ErrChanged)
	}
	var d caseDecoder
	c, ce := d.decodeCase(b, 0, "file")
	if ce != nil { // the bytes decoded once: only a changed decoder gets here
		return nil, &Error{File: name, Line: int(sp.Line), ID: ce.id, Field: ce.field, Msg: ce.msg}
	}
	c.Loc = Location{File: name, Line: int(sp.Line)}
	return c, nil
}

// SeedReader returns the content of the embedded seed file name
// ("seeds/NAME", as Spans names it), for ReadCase.
func SeedReader(name string) (io.ReaderAt, error) {
	b, err := seeds.FS.ReadFile(strings.TrimPrefix(name, "seeds/"))
	if err != nil {
		return nil, err
	}
	return strings.NewReader(string(b)), nil
}
