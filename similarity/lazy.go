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
// only when asked for (Index.Case) — for match, the hits it prints.

// lazyCases is what an index opened by OpenCacheLazy keeps of its cases,
// and the cases read so far.
type lazyCases struct {
	load      func(i int) (*caselib.Case, error)
	org, date strTable
	dom       strTable // every case's domain tags, one after the other
	domStart  []uint32 // case i has dom's tags domStart[i]:domStart[i+1]

	mu   sync.Mutex
	got  map[int]*caselib.Case
	err  error // the first case that could not be read
	once sync.Once
}

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
// its cases; cases are read through load only when [Index.Case] asks for
// them, once each. A case that cannot be read (load fails, or returns
// another id) is reported by [Index.CaseErr]; Case then returns a case
// holding only the fields the file keeps. Errors are those of OpenCache.
// Reindex of such an index builds afresh; Dupes reads every case.
func OpenCacheLazy(path string, key [32]byte, cfg Config, load func(i int) (*caselib.Case, error)) (*Index, error) {
	return openCache(path, key, cfg, nil, func(ix *Index) error {
		ix.lazy = &lazyCases{load: load, got: map[int]*caselib.Case{}}
		return nil
	})
}

// CaseErr returns the first error reading a case of an index opened by
// OpenCacheLazy (nil when every case asked for was read, and for any other
// index). A caller that printed nothing yet builds the index afresh.
func (ix *Index) CaseErr() error {
	if ix.lazy == nil {
		return nil
	}
	ix.lazy.mu.Lock()
	defer ix.lazy.mu.Unlock()
	return ix.lazy.err
}

// get returns case i, reading it the first time.
func (l *lazyCases) get(ix *Index, i int) *caselib.Case {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.got[i]; c != nil {
		return c
	}
	c, err := l.load(i)
	if err == nil && c.ID != ix.ids[i] {
		err = fmt.Errorf("%s: case %q where the index has %q: %w", c.Loc, c.ID, ix.ids[i], caselib.ErrChanged)
	}
	if err != nil {
		if l.err == nil {
			l.err = err
		}
		c = &caselib.Case{ID: ix.ids[i], Org: l.org.at(i), Date: l.date.at(i), Domain: l.domains(i)}
	}
	l.got[i] = c
	return c
}

// all returns every case, reading those not read yet.
func (l *lazyCases) all(ix *Index) []*caselib.Case {
	out := make([]*caselib.Case, len(ix.ids))
	for i := range out {
		out[i] = l.get(ix, i)
	}
	return out
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

// fillCases gives an index opened without its cases its cases and
// documents, for what reads them all (the same-event evidence of dupes).
func (ix *Index) fillCases() {
	if ix.lazy == nil {
		return
	}
	ix.lazy.once.Do(func() {
		ix.cases = ix.lazy.all(ix)
	})
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

var errLazySave = errors.New("an index opened without its cases is not saved again")

// putCaseFields adds what an index opened without its cases keeps of them:
// ids, organisations, dates, domain tags and day numbers.
func (ix *Index) putCaseFields(w *indexfile.Writer) error {
	if ix.lazy != nil {
		return errLazySave
	}
	n := len(ix.cases)
	ids, orgs, dates := make([]string, n), make([]string, n), make([]string, n)
	var doms []string
	domStart := make([]uint32, 1, n+1)
	for i, c := range ix.cases {
		ids[i], orgs[i], dates[i] = c.ID, c.Org, c.Date
		doms = append(doms, c.Domain...)
		if len(doms) > math.MaxUint32 {
			return errors.New("library too large for the cache format")
		}
		domStart = append(domStart, uint32(len(doms)))
	}
	for _, t := range []struct {
		ss         []string
		blob, ends indexfile.ID
	}{
		{ids, indexfile.IDBlob, indexfile.IDEnds},
		{orgs, indexfile.OrgBlob, indexfile.OrgEnds},
		{dates, indexfile.DateBlob, indexfile.DateEnds},
		{doms, indexfile.DomainBlob, indexfile.DomainEnds},
	} {
		blob, ends, err := packStrings(t.ss)
		if err != nil {
			return err
		}
		indexfile.Put(w, t.blob, blob)
		indexfile.Put(w, t.ends, ends)
	}
	indexfile.Put(w, indexfile.DomainStarts, domStart)
	indexfile.Put(w, indexfile.Days, ix.day)
	return nil
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
