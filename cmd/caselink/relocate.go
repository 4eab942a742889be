package main

import (
	"cmp"
	"errors"
	"os"
	"slices"
	"sync"

	"github.com/caselink/caselink/similarity/caselib"
)

// relocate.go finds the cases of a library file again after the file was
// rewritten in place (an editor, a script that truncates and writes, a
// restore), while an index opened without the cases still serves. The
// index's spans then point at other bytes, and every case of the file
// would be an error until the index is rebuilt (for a streamed server, the
// length of its reload). A case whose bytes are unchanged is found by their
// length and CRC-32C wherever it moved, and read from there: it is the
// same case byte for byte, so the answer is what the index was built from.
// A case that was edited or removed stays an error naming it.

// relocations is what a caseReader has found of the files that changed
// since their stamp: for each file (numbered as the spans number them), the
// spans of its cases as it is now, read once per version of the file.
type relocations struct {
	mu    sync.Mutex // held while a file is read, so that it is read once
	files map[uint32]*relocation
}

// relocation is where the cases of one file lie now: their spans sorted by
// length and CRC, and the stamp the file had while it was read.
type relocation struct {
	stamp caselib.FileStamp
	spans []caselib.Span
}

// errNotFound says that the bytes of a case are nowhere in its file now.
var errNotFound = errors.New("case not found again in its file")

// relocated returns where the bytes of sp (a span of the file name, whose
// spans are numbered n) lie in the file now, reading the file again when
// it changed since it was last read for this. maxCase is the size limit
// of the load that indexed it.
func (rs *relocations) relocated(n uint32, name string, sp caselib.Span, maxCase int64) (caselib.Span, error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	now, err := stampOf(name)
	if err != nil {
		return sp, err
	}
	r := rs.files[n]
	if r == nil || r.stamp != now {
		if r, err = relocate(name, now, maxCase); err != nil {
			return sp, err
		}
		if rs.files == nil {
			rs.files = map[uint32]*relocation{}
		}
		rs.files[n] = r
	}
	i, ok := slices.BinarySearchFunc(r.spans, sp, bySize)
	if !ok {
		return sp, errNotFound
	}
	return r.spans[i], nil
}

// bySize orders spans by length, then CRC: the key a case's unchanged bytes
// keep wherever they move. Of equal keys (the same bytes twice in a file)
// the first in the file comes first.
func bySize(a, b caselib.Span) int {
	return cmp.Or(cmp.Compare(a.Len, b.Len), cmp.Compare(a.Sum, b.Sum))
}

// relocate reads the file name, which stamps as now, and returns the spans
// of its cases. A file that changes while it is read is not trusted: its
// spans could be of two versions.
func relocate(name string, now caselib.FileStamp, maxCase int64) (*relocation, error) {
	// Lenient: a bad case elsewhere in the file must not hide the others.
	lib, err := caselib.Stream([]string{name}, caselib.LoadOptions{Lenient: true, MaxCaseBytes: maxCase},
		func(*caselib.Case) error { return nil })
	if err != nil {
		return nil, err
	}
	_, spans, ok := lib.Spans()
	if after, err := stampOf(name); !ok || err != nil || after != now {
		return nil, errNotFound
	}
	slices.SortStableFunc(spans, bySize)
	return &relocation{stamp: now, spans: spans}, nil
}

// stampOf returns the stamp of the single file name.
func stampOf(name string) (caselib.FileStamp, error) {
	st := caselib.FileStamps([]string{name})
	if len(st) != 1 || st[0].Err != "" {
		return caselib.FileStamp{}, &caselib.Error{File: name, Msg: "cannot read", Err: os.ErrNotExist}
	}
	return st[0], nil
}
