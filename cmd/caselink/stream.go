package main

import (
	"errors"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// The streaming build: a library of files is indexed as it is read
// (caselib.Stream into a similarity.Builder), case by case, so that a
// command that only prints a few cases (match, index, bench) never holds
// the library's text; the index it gets reads a case from its file when it
// prints it, as one opened from the cache without the library does
// (stampfile.go). relate, which writes the files back, streams them too,
// keeping of each case only its id, related list and place in its file
// (caselib.StreamForWrite); dupes takes its index as match does (withIndex),
// its same-event evidence reading each case once more from its file.

// streamable reports whether the library named by paths can be read as a
// stream and its cases read again from their files: named files and
// folders, not the seeds, standard input or a table.
func streamable(paths []string) bool {
	if len(paths) == 0 || isTableLibrary(paths) {
		return false
	}
	for _, p := range paths {
		if p == "-" {
			return false
		}
		info, err := os.Stat(p)
		if err != nil || !(info.Mode().IsRegular() || info.IsDir()) {
			return false
		}
	}
	return true
}

// streamLibrary reads the library of c as a stream, calling each with
// every case. Its caller records the warnings of the load in e.notes
// without printing them (e.hold), and prints them once it has its answer:
// a caller that falls back to a whole load (caselib.ErrRetracted) would
// print them twice. It returns the cases
// that carry related links, reduced to what CheckLinks reads of them.
func (e *env) streamLibrary(c *cli.Context, o stampOptions, each func(*caselib.Case) error) (*caselib.Library, []*caselib.Case, error) {
	var linked []*caselib.Case
	p := e.newProgress("indexing", 0)
	stream := caselib.Stream
	if e.writable {
		stream = caselib.StreamForWrite
	}
	lib, err := stream(o.paths, e.loadOptions(c, o.maxCase, p), func(cs *caselib.Case) error {
		if len(cs.Related) > 0 {
			linked = append(linked, &caselib.Case{ID: cs.ID, Related: cs.Related, Loc: cs.Loc})
		}
		return each(cs)
	})
	p.done()
	lib, err = e.loaded(lib, err, o.paths)
	return lib, linked, err
}

// streamIndexed indexes the library of c as a stream, through the cache
// unless --no-cache, and returns its index, which holds no cases, and the
// warnings loading gave (to print once the answer is known, as openLazy's
// notes are). ok is false when the library cannot be streamed
// (streamable), or a lenient load left out cases already indexed: the
// caller loads it whole.
//
// When the library's cache file is there (its stamp was not trusted, or
// it is of other content), the library is read once to take its sum
// without indexing it, and opened from the file when the key matches; else
// (first run, a changed library, --no-cache) it is read once, summed and
// indexed together, and the index saved. A file of the library before it
// changed lends its analysis of the cases that did not (staleIndex).
func (e *env) streamIndexed(c *cli.Context, cfg similarity.Config) (r cached, notes string, ok bool, err error) {
	return e.streamIndexedFrom(c, cfg, served{})
}

// served is the index a server serves, and when known the sum of the
// documents it was made from (serveStream).
type served struct {
	ix    *similarity.Index
	sum   [32]byte
	known bool
}

// keep returns f.ix, reading its cases anew through st, when the library
// st stamps has the documents f.ix was made from (they sum to sum): only
// related lists changed, say, and the index serving needs neither building
// nor opening again (similarity.Index.Reread).
func (f served) keep(st *libStamp, sum [32]byte) (*similarity.Index, bool) {
	if !f.known || sum != f.sum || f.ix.HoldsCases() || f.ix.Len() != len(st.Spans) {
		return nil, false
	}
	f.ix.Reread((&caseReader{st: st}).read)
	return f.ix, true
}

// streamIndexedFrom is streamIndexed for a server's reload: when it
// indexes, it takes from.ix's analysis of the cases that did not change
// since from.ix was built (similarity.Builder.Reuse); when the library's
// documents still sum to from.sum (only related lists changed, say), it
// gives from.ix back, reading its cases anew (similarity.Index.Reread),
// rather than open the same file again beside it. from may be zero.
func (e *env) streamIndexedFrom(c *cli.Context, cfg similarity.Config, from served) (r cached, notes string, ok bool, err error) {
	prev := from.ix
	o, err := stampOptionsOf(c)
	if err != nil || !streamable(o.paths) {
		return r, "", false, err
	}
	if !c.Bool("no-cache") {
		r.path = cacheFile(o.paths)
	}
	taken := time.Now()
	before := caselib.FileStamps(o.paths)
	var rec strings.Builder
	e.notes, e.hold = &rec, true
	defer func() { e.notes, e.hold = nil, false }()
	stampOf := func(lib *caselib.Library) (*libStamp, bool) {
		sources, spans, ok := lib.Spans()
		return &libStamp{Salt: cacheSalt, Paths: o.paths, Files: before, Sources: sources, Spans: spans}, ok
	}
	// read streams the library to each; ok is false when it must be
	// loaded whole instead (a retracted case, or cases that cannot be read
	// again from their files).
	read := func(each func(*caselib.Case) error) (lib *caselib.Library, st *libStamp, ok bool, err error) {
		lib, linked, err := e.streamLibrary(c, o, each)
		if errors.Is(err, caselib.ErrRetracted) {
			return nil, nil, false, nil
		} else if err != nil {
			return nil, nil, false, err
		}
		if st, ok = stampOf(lib); !ok {
			return nil, nil, false, nil
		}
		e.warnLinks(curate.CheckLinks(linked, holder(lib)))
		return lib, st, true, nil
	}
	if _, err := os.Stat(r.path); r.path != "" && err == nil {
		// The sum first, without indexing: when only related lists changed
		// (relate --write) the file holds the library already. Reading
		// and indexing in one pass would spare a server's reload this
		// pass after a real edit, but would hold an index being built
		// beside the one serving even when the file is there
		// (eval/notes/serve-reload.md).
		var sum similarity.Summer
		lib, st, ok, err := read(func(cs *caselib.Case) error { sum.Add(cs); return nil })
		if !ok {
			return r, "", false, err
		}
		r.sum = sum.Sum()
		ix, ok := from.keep(st, r.sum)
		if !ok {
			rd := &caseReader{st: st}
			ix, err = similarity.OpenCacheLazy(r.path, similarity.CacheKeyOf(r.sum, cfg, cacheSalt), cfg, rd.read)
			ok = err == nil
		}
		if ok {
			r.ix, r.lib, r.state = ix, lib, cacheUsed
			touchCache(r.path)
			recordStamp(r.path, o, taken, before, lib, r.sum, rec.String())
			return r, rec.String(), true, nil
		}
		rec.Reset()
	}
	b, err := similarity.NewBuilder(cfg, nil)
	if err != nil {
		return r, "", false, usageError{err}
	}
	if prev == nil && r.path != "" {
		if prev = staleIndex(r.path, cfg); prev != nil {
			// The index built from it keeps the file it needs open
			// (similarity.Index.Close).
			defer prev.Close()
		}
	}
	if prev != nil {
		b.Reuse(prev)
	}
	lib, st, ok, err := read(b.Add)
	if !ok {
		return r, "", false, err
	}
	rd := &caseReader{st: st}
	defer limitHeap(b)() // through the saving too, which packs the entries in one array
	ix, sum, err := b.Index(rd.read)
	if err != nil {
		return r, "", false, usageError{err}
	}
	r.ix, r.lib, r.sum, r.reused, r.read = ix, lib, sum, b.Reused(), rd.read
	if r.path == "" {
		return r, rec.String(), true, nil
	}
	r.state = cacheSaved
	if err := ix.SaveCache(r.path, similarity.CacheKeyOf(sum, cfg, cacheSalt)); err != nil {
		r.state, r.saveErr = cacheNoSave, err
		return r, rec.String(), true, nil
	}
	nameCacheEntry(r.path, o.paths)
	recordStamp(r.path, o, taken, before, lib, sum, rec.String())
	e.capCache(r.path)
	return r, rec.String(), true, nil
}

// staleIndex opens the index file idx of the library as it was when its
// stamp was written, before the change that makes it stale, for its
// analysis of the cases that did not change (similarity.Builder.Reuse); nil
// when there is none to open (no stamp, other weights, another caselink).
func staleIndex(idx string, cfg similarity.Config) *similarity.Index {
	st, err := readStamp(stampPath(idx))
	if err != nil {
		return nil
	}
	ix, err := similarity.OpenCacheForReuse(idx, similarity.CacheKeyOf(st.Sum, cfg, cacheSalt), cfg)
	if err != nil {
		return nil
	}
	return ix
}

// holder is lib's lookup for CheckLinks: a case of the id, or nil.
func holder(lib *caselib.Library) func(id string) *caselib.Case {
	some := &caselib.Case{}
	return func(id string) *caselib.Case {
		if lib.Holds(id) {
			return some
		}
		return nil
	}
}

// heapPerEntry and heapFloor make the soft memory limit weigh sets (bytes
// per entry of the library, and a floor): over what the index and its
// weighing hold at their most (about 40 bytes an entry, measured at 100,000
// and 1,000,000 cases), with room for the collector, so that it bounds the
// garbage the collector's pacing lets pile up (which doubled the peak) and
// not the work. Figures in eval/notes/memory-million.md.
const (
	heapPerEntry = 52
	heapFloor    = 64 << 20
)

// limitHeap sets a soft memory limit (debug.SetMemoryLimit) sized from
// the entries b analyzed, for the weighing that follows (b.Index), unless
// GOMEMLIMIT sets one: the collector then runs more often near the limit
// instead of letting the heap grow to twice what is live. It returns what
// restores the limit in force before.
func limitHeap(b *similarity.Builder) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(int64(b.Entries())*heapPerEntry + heapFloor)
	return func() { debug.SetMemoryLimit(prev) }
}
