package similarity

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/indexfile"
)

// lazy.go opens an index from its cache file without the library: what
// matching and filtering need of the cases (ids, organisations, dates,
// domain tags, day numbers) is kept in the file, and a case itself is read
// only when asked for (Index.ReadCase) — for match, the hits it prints.

// lazyCases is what an index opened by OpenCacheLazy keeps of its cases,
// and the cases read so far.
type lazyCases struct {
	load      func(i int) (*caselib.Case, error)
	org, date strTable
	dom       strTable // every case's domain tags, one after the other
	domStart  []uint32 // case i has dom's tags domStart[i]:domStart[i+1]

	mu   sync.Mutex
	got  map[int]*caselib.Case // the cases read lately (never one that failed), at most keep
	read []int                 // got's positions in the order read: a ring, at next
	next int
	keep int // lazyKeep (tests set fewer)
}

// lazyKeep bounds the cases an index opened without them keeps once read:
// the last ones read, so that a long-running server (which reads the cases
// it shows, request after request) does not come to hold the library
// again. Reading a case from its file again costs one seek and one
// decode; what must be kept is only what a caller reads before it prints
// it (ReadCases, then Case): a match's hits, a case page's related cases,
// far fewer than this.
const lazyKeep = 4096

// strTable is a list of strings as a cache file keeps them: one blob, and
// where each string ends in it.
type strTable struct {
	blob []byte
	ends []uint32
}

// at returns string i, pointing into the blob (the mapping outlives it).
func (t strTable) at(i int) string {
	lo := uint32(0)
	if i > 0 {
		lo = t.ends[i-1]
	}
	if lo == t.ends[i] {
		return ""
	}
	return unsafe.String(&t.blob[lo], int(t.ends[i]-lo))
}

// stringsOf returns the strTable of a blob section and its ends section
// (whose count the file's reader has checked), checking its bounds.
func stringsOf(f *indexfile.File, blob, ends indexfile.ID, what string) (strTable, error) {
	t := strTable{blob: indexfile.Get[byte](f, blob), ends: indexfile.Get[uint32](f, ends)}
	at := uint32(0)
	for _, e := range t.ends {
		if e < at || int(e) > len(t.blob) {
			return t, corrupt(what)
		}
		at = e
	}
	return t, nil
}

// OpenCacheLazy opens the cache file at path, written by SaveCache under
// key, without the library: cfg must be the Config it was built with
// (CacheKeyOf tells), and load(i) must return the case at position i, as
// loaded when the file was saved. The index answers as the one saved did,
// byte for byte, provided it was built from the unaltered [Documents] of
// its cases. It holds no cases (see "Opening an index" in the package
// documentation for what it cannot do): a case is read through load when
// [Index.ReadCase] or [Index.ReadCases] asks for it, and kept while it is
// among the last few thousand read (lazyKeep); one that
// cannot be read (load fails, or returns another id) is a [*CaseError].
// Errors of the open are those of OpenCache.
func OpenCacheLazy(path string, key [32]byte, cfg Config, load func(i int) (*caselib.Case, error)) (*Index, error) {
	return openCache(path, key, cfg, nil, func(ix *Index) error {
		ix.lazy = &lazyCases{load: load, got: map[int]*caselib.Case{}, keep: lazyKeep}
		return nil
	})
}

// OpenCacheForReuse opens the index file at path, as OpenCacheLazy does,
// for [Builder.Reuse] alone: to build the index of a library that changed
// since the file was saved under key, from the analysis of the cases that
// did not. Its cases cannot be read. Once the file is checked its pages
// leave the process's memory, so that only what the Builder takes (the
// analysis of the cases, the vocabulary, the ids) comes back, not the
// vectors and postings it never reads.
func OpenCacheForReuse(path string, key [32]byte, cfg Config) (*Index, error) {
	var file *indexfile.File
	ix, err := openCacheFile(path, key, cfg, nil, func(ix *Index) error {
		ix.lazy = &lazyCases{load: func(int) (*caselib.Case, error) {
			return nil, errors.New("the cases of an index opened for reuse are not read")
		}, got: map[int]*caselib.Case{}, keep: lazyKeep}
		return nil
	}, &file)
	if err != nil {
		return nil, err
	}
	file.DropPages()
	return ix, nil
}

// Reread makes an index that does not hold its cases read them through
// load from now on, forgetting those read so far and what it made of
// them (dupes' same-event evidence): for a library whose files were
// written again with the same [Documents] (only related lists changed,
// say), so that its index need not be opened or built again. load(i) must
// return the case at position i of the library as it now is. Searches
// running meanwhile go on; a case they read comes through the old load
// or the new. An index that holds its cases has no reader to change:
// Reread panics.
func (ix *Index) Reread(load func(i int) (*caselib.Case, error)) {
	l := ix.lazy
	if l == nil {
		panic("similarity: Reread of an index that holds its cases")
	}
	l.mu.Lock()
	l.load = load
	clear(l.got)
	l.read, l.next = l.read[:0], 0
	l.mu.Unlock()
	ix.evMu.Lock()
	ix.ev.Store(nil)
	ix.evMu.Unlock()
}

// CaseError is a case an index opened by OpenCacheLazy could not read
// again: its file changed since the index was saved, or cannot be read. A
// caller that printed nothing yet opens the index with its cases instead.
type CaseError struct {
	Pos int    // the case's position in the library
	ID  string // its id, as the index has it
	Err error  // why: errors.Is(err, caselib.ErrChanged) for a changed file
}

// Error names the case and why it cannot be read.
func (e *CaseError) Error() string {
	return fmt.Sprintf("case %s (position %d) cannot be read again: %v", e.ID, e.Pos, e.Err)
}

// Unwrap returns why the case could not be read.
func (e *CaseError) Unwrap() error { return e.Err }

// CatchCaseError runs f and returns the [*CaseError] it panicked with, nil
// when it returned: where an index opened by OpenCacheLazy must read a case
// its caller could not read first ([Index.Case], dupes' same-event
// evidence), a case that cannot be read is such a panic, on the caller's
// goroutine. Any other panic goes on.
func CatchCaseError(f func()) (err error) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		e, ok := v.(error)
		var ce *CaseError
		if !ok || !errors.As(e, &ce) {
			panic(v)
		}
		err = ce
	}()
	f()
	return nil
}

// ReadCase returns the case at position i (0 ≤ i < Len()), in library
// order, or why it cannot be read: only an index opened by OpenCacheLazy
// reads its cases, and so only it can fail (a [*CaseError]). A case read
// is kept while it is among the last few thousand read; one that failed is
// tried again at the next call.
func (ix *Index) ReadCase(i int) (*caselib.Case, error) {
	if ix.lazy == nil {
		return ix.cases[i], nil
	}
	return ix.lazy.get(ix, i)
}

// ReadCases reads the cases at the positions given, and returns the first
// that cannot be read: a caller of an index opened by OpenCacheLazy reads
// the cases it will print or explain (a match's hits) with it first, so
// that [Index.Case] and the explanations that read them cannot fail.
func (ix *Index) ReadCases(pos ...int) error {
	for _, i := range pos {
		if _, err := ix.ReadCase(i); err != nil {
			return err
		}
	}
	return nil
}

// HoldsCases reports whether the index holds its cases (built, or opened
// by OpenCache or OpenCacheCases): false for one opened by OpenCacheLazy,
// which reads them on demand and cannot give them all ([Index.Cases]).
func (ix *Index) HoldsCases() bool { return ix.lazy == nil }

// errNoCases is what Cases says of an index that does not hold them.
var errNoCases = errors.New("similarity: Cases of an index opened by OpenCacheLazy, which holds no cases: read them with ReadCase, or open the index with OpenCacheCases")

// get returns case i, reading it the first time.
func (l *lazyCases) get(ix *Index, i int) (*caselib.Case, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.got[i]; c != nil {
		return c, nil
	}
	c, err := l.read1(ix, i)
	if err != nil {
		return nil, err
	}
	if len(l.read) < l.keep {
		l.read = append(l.read, i)
	} else {
		delete(l.got, l.read[l.next])
		l.read[l.next] = i
		l.next = (l.next + 1) % l.keep
	}
	l.got[i] = c
	return c, nil
}

// read1 reads case i from its file, keeping nothing: the case, or a
// *CaseError when it cannot be read or is not the case the index has there.
// The caller holds l.mu, or passes the loader it took under it.
func (l *lazyCases) read1(ix *Index, i int) (*caselib.Case, error) {
	return read1(ix, l.load, i)
}

func read1(ix *Index, load func(i int) (*caselib.Case, error), i int) (*caselib.Case, error) {
	c, err := load(i)
	if err == nil && c.ID != ix.ids[i] {
		err = fmt.Errorf("%s: case %q where the index has %q: %w", c.Loc, c.ID, ix.ids[i], caselib.ErrChanged)
	}
	if err != nil {
		return nil, &CaseError{Pos: i, ID: ix.ids[i], Err: err}
	}
	return c, nil
}

// mustGet is get for what has no way to return an error (Index.Case, the
// same-event evidence of dupes): a case that cannot be read panics with
// its *CaseError, which a caller avoids by reading first (ReadCases).
func (l *lazyCases) mustGet(ix *Index, i int) *caselib.Case {
	c, err := l.get(ix, i)
	if err != nil {
		panic(err)
	}
	return c
}

// domains returns the domain tags of case i.
func (l *lazyCases) domains(i int) []string {
	lo, hi := l.domStart[i], l.domStart[i+1]
	if lo == hi {
		return nil
	}
	out := make([]string, 0, hi-lo)
	for j := lo; j < hi; j++ {
		out = append(out, l.dom.at(int(j)))
	}
	return out
}

// eachCase calls f with every case in library order. An index opened
// without its cases reads each one and keeps none (not even among the
// cases read lately), so that what needs them all once (the same-event
// evidence of dupes) does not come to hold the library; a case that
// cannot be read panics with its *CaseError, as mustGet does.
func (ix *Index) eachCase(f func(i int, c *caselib.Case)) {
	if ix.lazy == nil {
		for i, c := range ix.cases {
			f(i, c)
		}
		return
	}
	ix.lazy.mu.Lock()
	load := ix.lazy.load
	ix.lazy.mu.Unlock()
	for i := range ix.cases {
		c, err := read1(ix, load, i)
		if err != nil {
			panic(err)
		}
		f(i, c)
	}
}

// Keeps reports whether the case at position i passes f (f.Keep of the
// case), without reading the case of an index opened by OpenCacheLazy.
func (ix *Index) Keeps(f Filter, i int) bool {
	if ix.lazy == nil {
		return f.Keep(ix.cases[i])
	}
	if f.IsZero() {
		return true
	}
	c := caselib.Case{Org: ix.lazy.org.at(i), Date: ix.lazy.date.at(i)}
	if len(f.Domains) > 0 {
		c.Domain = ix.lazy.domains(i)
	}
	return f.Keep(&c)
}

// putCaseFields adds what an index opened without its cases keeps of them:
// ids, organisations, dates, domain tags and day numbers.
func (ix *Index) putCaseFields(w *indexfile.Writer) error {
	tables, domStart, err := ix.caseFields()
	if err != nil {
		return err
	}
	for i, id := range []struct{ blob, ends indexfile.ID }{
		{indexfile.IDBlob, indexfile.IDEnds},
		{indexfile.OrgBlob, indexfile.OrgEnds},
		{indexfile.DateBlob, indexfile.DateEnds},
		{indexfile.DomainBlob, indexfile.DomainEnds},
	} {
		indexfile.Put(w, id.blob, tables[i].blob)
		indexfile.Put(w, id.ends, tables[i].ends)
	}
	indexfile.Put(w, indexfile.DomainStarts, domStart)
	indexfile.Put(w, indexfile.Days, ix.day)
	return nil
}

// caseFields returns the tables of the cases' ids, organisations, dates
// and domain tags, and where each case's domain tags start: made from the
// cases, or those an index without them keeps.
func (ix *Index) caseFields() (tables [4]strTable, domStart []uint32, err error) {
	n := len(ix.ids)
	var ids, orgs, dates, doms []string
	if l := ix.lazy; l != nil {
		ids = ix.ids
		tables[1], tables[2], tables[3], domStart = l.org, l.date, l.dom, l.domStart
	} else {
		ids, orgs, dates = make([]string, n), make([]string, n), make([]string, n)
		domStart = make([]uint32, 1, n+1)
		for i, c := range ix.cases {
			ids[i], orgs[i], dates[i] = c.ID, c.Org, c.Date
			doms = append(doms, c.Domain...)
			if len(doms) > math.MaxUint32 {
				return tables, nil, errors.New("library too large for the cache format")
			}
			domStart = append(domStart, uint32(len(doms)))
		}
	}
	for i, ss := range [][]string{ids, orgs, dates, doms} {
		if i > 0 && ix.lazy != nil {
			break
		}
		blob, ends, err := packStrings(ss)
		if err != nil {
			return tables, nil, err
		}
		tables[i] = strTable{blob: blob, ends: ends}
	}
	return tables, domStart, nil
}

// restoreCaseFields is putCaseFields backwards. An index opened with its
// documents has them already and only checks the sections' bounds; one
// opened without keeps them.
func (ix *Index) restoreCaseFields(f *indexfile.File) error {
	n := len(ix.docs)
	var tables [4]strTable
	for i, t := range []struct {
		blob, ends indexfile.ID
		what       string
	}{
		{indexfile.IDBlob, indexfile.IDEnds, "ids"},
		{indexfile.OrgBlob, indexfile.OrgEnds, "organisations"},
		{indexfile.DateBlob, indexfile.DateEnds, "dates"},
		{indexfile.DomainBlob, indexfile.DomainEnds, "domains"},
	} {
		var err error
		if tables[i], err = stringsOf(f, t.blob, t.ends, t.what); err != nil {
			return err
		}
	}
	ids, org, date, dom := tables[0], tables[1], tables[2], tables[3]
	domStart := indexfile.Get[uint32](f, indexfile.DomainStarts)
	day := indexfile.Get[int32](f, indexfile.Days)
	if domStart[0] != 0 || int(domStart[n]) != len(dom.ends) {
		return corrupt("domain starts")
	}
	for i := range n {
		if domStart[i] > domStart[i+1] {
			return corrupt("domain starts")
		}
	}
	if ix.lazy == nil {
		return nil
	}
	l := ix.lazy
	l.org, l.date, l.dom, l.domStart = org, date, dom, domStart
	ix.day = day
	ix.ids = make([]string, n)
	for i := range n {
		if ix.ids[i] = ids.at(i); ix.ids[i] == "" {
			return corrupt("ids")
		}
	}
	return nil
}
