package similarity

import (
	"sync/atomic"

	"github.com/caselink/caselink/similarity/indexfile"
)

// mapping.go gives back the index files an index was opened from. An
// index opened from its file (OpenCache and friends) reads its arrays and
// strings from the file's mapping; one built from another's analysis
// (Reindex, Builder.Reuse) points into the mappings the other holds. A
// long-running server that reloads its library replaces its index again
// and again, and each replaced file, renamed over on disk, would otherwise
// stay mapped, with its disk space and pages, until the process ends.

// mapping is an index file mapped into memory, and the number of open
// indexes that point into it.
type mapping struct {
	f    *indexfile.File
	refs atomic.Int64
}

// hold makes ix hold the mappings of from, as well as its own.
func (ix *Index) hold(from *Index) {
	for _, m := range from.maps {
		m.refs.Add(1)
		ix.maps = append(ix.maps, m)
	}
}

// Close gives back the index file ix was opened from, if any, once no
// open index points into it: an index built from ix's analysis
// (Reindex, a Builder given ix to Reuse) keeps it until that index is
// closed in turn. Neither ix nor any string or slice it returned (case
// ids, explanations, hits) may be used after Close: once the file is given
// back, reading them faults. A caller that keeps such a string beyond
// its use of ix copies it (strings.Clone). Close is for a program that
// replaces an index while it runs (a server's reload); one that exits
// need not call it. Closing twice does nothing more.
func (ix *Index) Close() {
	if !ix.closed.CompareAndSwap(false, true) {
		return
	}
	for _, m := range ix.maps {
		if m.refs.Add(-1) == 0 {
			m.f.Close()
		}
	}
}
