package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/indexfile"
)

// The library stamp: beside a library's index cache file (NAME.idx) the CLI
// keeps NAME.lib, which says what the library's files were when the index
// was last built or checked (size, modification and change times, inode
// and device of each, as caselib.FileStamps takes them), the DocsSum of its
// documents, and where each case's JSON lies in its file. A match whose
// library files all stamp as recorded opens the index without reading the
// library (similarity.OpenCacheLazy) and reads only the cases it prints.
//
// A stamp is not trusted for a file changed too close to the moment the
// stamps were taken (racyWindow): a write in the same tick of the file
// system's clock can leave size and times as they were. Such a run reads
// the library, checks its documents against the index's key (the content
// key, as before the stamp), and records the stamp again, by then clearly
// older than the file.

// racyWindow is how much older than the moment of stamping a file's
// modification and change times must be for its stamp to be trusted: more
// than the coarsest clock of common file systems (2 s on FAT).
var racyWindow = 2 * time.Second

// libStamp is the content of a stamp file; its byte layout is
// indexfile's (indexfile.Stamp, FORMAT.md).
type libStamp indexfile.Stamp

// stampPath returns the stamp file beside the index cache file idx.
func stampPath(idx string) string { return strings.TrimSuffix(idx, ".idx") + ".lib" }

// writeStamp writes st to path (atomically: caselib.WriteFile).
func writeStamp(path string, st *libStamp) error {
	return indexfile.WriteStamp(path, (*indexfile.Stamp)(st))
}

// readStamp reads a stamp file written by writeStamp; anything else is an
// error.
func readStamp(path string) (*libStamp, error) {
	st, err := indexfile.ReadStamp(path)
	return (*libStamp)(st), err
}

// lazyOpens counts the indexes openLazy opened, for tests to tell which
// way a command went.
var lazyOpens atomic.Int64

// stampOptions is what of a command's flags decides what Load reads.
type stampOptions struct {
	paths   []string
	lenient bool
	maxCase int64
}

// matches reports whether st was taken by this binary, of the same paths
// with the same options, and whether the library's files stamp now as then
// (now: caselib.FileStamps), each clearly older than the stamp.
func (st *libStamp) matches(o stampOptions, now []caselib.FileStamp) bool {
	if st.Salt != cacheSalt || !slices.Equal(st.Paths, o.paths) || st.Lenient != o.lenient ||
		st.MaxCase != o.maxCase || !slices.Equal(st.Files, now) {
		return false
	}
	trusted := st.Taken - racyWindow.Nanoseconds()
	for _, f := range st.Files {
		if f.Err != "" || f.MTime >= trusted || f.CTime >= trusted {
			return false // changed too close to the stamp: check the content
		}
	}
	return true
}

// caseReader reads single cases of a stamped library again, for an index
// opened without them: each file is opened once, and refused when it no
// longer stamps as recorded. A case whose bytes are no longer where the
// stamp says is looked for in its file as it is now (relocate.go).
type caseReader struct {
	st    *libStamp
	mu    sync.Mutex
	files map[uint32]readerAt
	moved relocations
}

type readerAt interface {
	ReadAt(p []byte, off int64) (int, error)
}

// read returns the case at position i of the library.
func (r *caseReader) read(i int) (*caselib.Case, error) {
	if i < 0 || i >= len(r.st.Spans) {
		return nil, fmt.Errorf("case %d: %w", i, caselib.ErrChanged)
	}
	sp := r.st.Spans[i]
	name := r.st.Sources[sp.File]
	f, err := r.open(sp.File, name)
	if err == nil {
		var c *caselib.Case
		if c, err = caselib.ReadCase(f, name, sp); err == nil {
			return c, nil
		}
	}
	if !errors.Is(err, caselib.ErrChanged) || len(r.st.Paths) == 0 {
		return nil, err
	}
	// The file changed since it was indexed: the case is read from where
	// its bytes lie now, if they are still there, unchanged.
	now, rerr := r.moved.relocated(sp.File, name, sp, r.st.MaxCase)
	if rerr != nil {
		return nil, err
	}
	of, rerr := os.Open(name)
	if rerr != nil {
		return nil, err
	}
	defer of.Close()
	now.File = sp.File
	return caselib.ReadCase(of, name, now)
}

// open returns the file the spans number n, checked against its stamp.
func (r *caseReader) open(n uint32, name string) (readerAt, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if f, ok := r.files[n]; ok {
		return f, nil
	}
	var f readerAt
	if len(r.st.Paths) == 0 { // the embedded seeds: part of the binary, so of the salt
		s, err := caselib.SeedReader(name)
		if err != nil {
			return nil, err
		}
		f = s
	} else {
		of, err := os.Open(name)
		if err != nil {
			return nil, &caselib.Error{File: name, Msg: "cannot read", Err: err}
		}
		// The stamp of the file as opened, not as listed a moment ago:
		// a file replaced or written since is not read.
		now := caselib.FileStamps([]string{name})
		if len(now) != 1 || !slices.Contains(r.st.Files, now[0]) {
			of.Close()
			return nil, fmt.Errorf("%s: %w", name, caselib.ErrChanged)
		}
		f = of
	}
	if r.files == nil {
		r.files = map[uint32]readerAt{}
	}
	r.files[n] = f
	return f, nil
}

// openLazy opens the index of the library named by o from its cache file
// without reading the library, when the library's stamp says it is
// unchanged: it returns the index and the notes loading would print, or
// ok false when the library must be read.
func openLazy(o stampOptions, cfg similarity.Config) (ix *similarity.Index, notes string, ok bool) {
	st, idx, ok := trustedStamp(o)
	if !ok {
		return nil, "", false
	}
	if ix, ok = openStamped(st, idx, cfg); !ok {
		return nil, "", false
	}
	return ix, st.Notes, true
}

// openStamped opens the cache file idx of the library st stamps, reading
// its cases through st.
func openStamped(st *libStamp, idx string, cfg similarity.Config) (*similarity.Index, bool) {
	r := &caseReader{st: st}
	ix, err := similarity.OpenCacheLazy(idx, similarity.CacheKeyOf(st.Sum, cfg, cacheSalt), cfg, r.read)
	if err != nil {
		return nil, false
	}
	if ix.Len() != len(st.Spans) {
		ix.Close()
		return nil, false
	}
	lazyOpens.Add(1)
	touchCache(idx)
	return ix, true
}

// trustedStamp returns the stamp of the library named by o, and the path
// of its cache file, when the stamp says the library is unchanged since.
func trustedStamp(o stampOptions) (st *libStamp, idx string, ok bool) {
	idx = cacheFile(o.paths)
	if idx == "" || slices.Contains(o.paths, "-") || isTableLibrary(o.paths) {
		return nil, "", false
	}
	st, err := readStamp(stampPath(idx))
	if err != nil || !st.matches(o, caselib.FileStamps(o.paths)) {
		return nil, "", false
	}
	return st, idx, true
}

// recordStamp writes the stamp of lib (loaded with o, its files stamped as
// before at taken), whose documents sum to sum, beside the index cache
// file idx, unless the files changed during the load or the stamp there
// already says the same.
func recordStamp(idx string, o stampOptions, taken time.Time, before []caselib.FileStamp, lib *caselib.Library, sum [32]byte, notes string) error {
	sources, spans, ok := lib.Spans()
	if !ok || !slices.Equal(caselib.FileStamps(o.paths), before) {
		return nil // not read from files, or changed while read: nothing to trust
	}
	path := stampPath(idx)
	if old, err := readStamp(path); err == nil && old.Sum == sum && old.Notes == notes &&
		slices.Equal(old.Sources, sources) && slices.Equal(old.Spans, spans) && old.matches(o, before) {
		return nil
	}
	return writeStamp(path, &libStamp{Salt: cacheSalt, Paths: o.paths, Lenient: o.lenient, MaxCase: o.maxCase,
		Taken: taken.UnixNano(), Files: before, Sum: sum, Sources: sources, Notes: notes, Spans: spans})
}
