package caselib

import (
	"errors"
	"hash/maphash"
)

// stream.go loads a library without keeping its cases: each case is handed
// to the caller as soon as it is decoded and accepted, in library order, and
// dropped, so that indexing a large library never holds its text. What the
// library keeps is where each case lies (Spans), to read one again later,
// and, for a caller that writes it back (StreamForWrite), each case's id and
// related list.

// ErrRetracted is returned by Stream when a lenient load skips a whole file
// (not UTF-8 past its start) after some of its cases were handed over: a
// Load would leave them out, and a streaming caller cannot take them back.
// The caller loads the library with Load instead.
var ErrRetracted = errors.New("a file skipped after some of its cases were read: load the library whole")

// streamed is what a Library loaded by Stream keeps instead of its cases.
type streamed struct {
	each  func(c *Case) error
	pos   map[string]int32 // case id → position, for duplicate ids
	index map[*fileState]uint32
	files []string // display names, numbered by Span.File
	spans []Span
	ok    bool // every case can be read again (see Spans)
	// keep: the Library keeps each case's skeleton (StreamForWrite).
	keep bool
}

// Stream reads the library of paths as Load does (the same cases in the
// same order, the same errors and warnings) and calls each with every case,
// in library order, from the goroutine that called Stream; an error of each
// stops the load and is returned. The Library it returns holds no cases:
// Len, Skipped and Spans are as Load's, Cases is empty and ByID finds
// nothing. A lenient load that must leave out cases already handed over
// returns ErrRetracted.
func Stream(paths []string, opts LoadOptions, each func(c *Case) error) (*Library, error) {
	return streamLibrary(paths, opts, each, false)
}

// StreamForWrite is Stream for a caller that writes the library back
// (relate --write): the Library it returns also keeps, of each case, what
// WriteRelated needs and no more — its id, its related list and where it
// lies in its file — in Cases and ByID, in load order, as a Library that
// Load returned keeps them after DropText. The text of each case is let go
// once each returns, as with Stream.
func StreamForWrite(paths []string, opts LoadOptions, each func(c *Case) error) (*Library, error) {
	return streamLibrary(paths, opts, each, true)
}

func streamLibrary(paths []string, opts LoadOptions, each func(c *Case) error, keep bool) (*Library, error) {
	if len(paths) == 0 {
		return nil, errors.New("caselib: Stream: no paths given")
	}
	lib := &Library{seed: maphash.MakeSeed(), stream: &streamed{
		each: each, pos: map[string]int32{}, index: map[*fileState]uint32{}, ok: true, keep: keep,
	}}
	if keep {
		lib.byID = map[string]*Case{}
	}
	return loadInto(lib, opts, func(p *loader) {
		for _, name := range paths {
			if !p.loadPath(name) {
				return
			}
		}
	})
}

// give hands c, accepted, to the caller of Stream and records where it lies.
func (s *streamed) give(c *Case, src *fileState) error {
	f, seen := s.index[src]
	if !seen {
		f = uint32(len(s.files))
		s.index[src] = f
		s.files = append(s.files, src.display)
	}
	if (src.kind != srcFile && src.kind != srcEmbedded) || c.at.size == 1<<32-1 || c.Loc.Line < 0 {
		s.ok = false
	}
	s.pos[c.ID] = int32(len(s.spans))
	s.spans = append(s.spans, Span{Off: c.at.off, Len: c.at.size, File: f, Line: uint32(c.Loc.Line), Sum: c.at.sum})
	src.given = true
	return s.each(c)
}

// location returns where the case of id was read, if it was.
func (s *streamed) location(id string) (Location, bool) {
	i, ok := s.pos[id]
	if !ok {
		return Location{}, false
	}
	sp := s.spans[i]
	return Location{File: s.files[sp.File], Line: int(sp.Line)}, true
}

// Holds reports whether the library has a case of that id (a library
// loaded by Stream too).
func (l *Library) Holds(id string) bool {
	if l.stream != nil {
		_, ok := l.stream.pos[id]
		return ok
	}
	return l.byID[id] != nil
}
