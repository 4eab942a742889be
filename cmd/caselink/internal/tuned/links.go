package tuned

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/caselink/caselink/similarity/caselib"
)

// LinksName is the file, beside a library, that lists the links relate
// --write added: what the engine wrote is no curator's judgment, and tune
// must not learn from it. It starts with a dot so that loading the folder
// as a library skips it.
const LinksName = ".caselink-relate-links.tsv"

const linksHeader = "# caselink: links relate --write added (case<TAB>linked case); tune leaves them out"

// Beside returns the path of the file name in the folder of a library
// named by its paths (as given to --cases), as caselib.DecisionsPath does
// for the decisions file.
func Beside(library []string, name string) (string, error) {
	p, err := caselib.DecisionsPath(library)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), name), nil
}

// Link is one entry of a case's related list: From lists To.
type Link struct{ From, To string }

// ReadLinks reads a links file written by RecordLinks. A missing file holds
// no links.
func ReadLinks(path string) (map[Link]bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[Link]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLinks(path, f)
}

// ParseLinks reads the links of a links file's content; name names it in
// errors.
func ParseLinks(name string, data []byte) (map[Link]bool, error) {
	return readLinks(name, bytes.NewReader(data))
}

func readLinks(name string, r io.Reader) (map[Link]bool, error) {
	out := map[Link]bool{}
	s := newLinkScanner(name, r)
	for l, ok := s.next(); ok; l, ok = s.next() {
		out[l] = true
	}
	return out, s.err
}

// linkScanner reads the links of a links file one at a time, in the
// file's order, without holding the file: at a million cases it holds ten
// million links.
type linkScanner struct {
	name string
	sc   *bufio.Scanner
	n    int   // lines read
	err  error // why next returned false, nil at the end of the file
}

func newLinkScanner(name string, r io.Reader) *linkScanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), math.MaxInt)
	return &linkScanner{name: name, sc: sc}
}

// next returns the next link; false at the end or on an error (s.err).
// Blank lines and # comments are skipped. A line that starts with # and
// holds a tab is a link, not a comment: case ids may start with # (issue
// numbers, #4711), and the header holds none.
func (s *linkScanner) next() (Link, bool) {
	for s.err == nil && s.sc.Scan() {
		s.n++
		line := strings.TrimRight(s.sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") && !strings.Contains(line, "\t") {
			continue
		}
		from, to, ok := strings.Cut(line, "\t")
		if !ok || from == "" || to == "" || strings.Contains(to, "\t") {
			s.err = fmt.Errorf("%s:%d: want case<TAB>linked case", s.name, s.n)
			return Link{}, false
		}
		return Link{from, to}, true
	}
	if s.err == nil {
		s.err = s.sc.Err()
	}
	return Link{}, false
}

// UpdateLinks adds to have the links add (case id → ids relate added to its
// list) and removes the links remove; it reports whether have changed.
func UpdateLinks(have map[Link]bool, add, remove map[string][]string) bool {
	changed := false
	for from, tos := range add {
		for _, to := range tos {
			if l := (Link{from, to}); !have[l] {
				have[l], changed = true, true
			}
		}
	}
	for from, tos := range remove {
		for _, to := range tos {
			if l := (Link{from, to}); have[l] {
				delete(have, l)
				changed = true
			}
		}
	}
	return changed
}

// FormatLinks returns the content of a links file holding links, sorted.
func FormatLinks(links map[Link]bool) ([]byte, error) {
	sorted := slices.SortedFunc(maps.Keys(links), compareLinks)
	var b bytes.Buffer
	b.WriteString(linksHeader + "\n")
	for _, l := range sorted {
		if err := checkLink(l); err != nil {
			return nil, err
		}
		b.WriteString(l.From + "\t" + l.To + "\n")
	}
	return b.Bytes(), nil
}

// compareLinks orders links by case, then by linked case: the order of a
// links file.
func compareLinks(a, b Link) int {
	if c := strings.Compare(a.From, b.From); c != 0 {
		return c
	}
	return strings.Compare(a.To, b.To)
}

// checkLink refuses a link the file's lines cannot hold.
func checkLink(l Link) error {
	if strings.ContainsAny(l.From+l.To, "\t\n\r") {
		return fmt.Errorf("case ids %q, %q: tabs and line breaks cannot be kept in the links file", l.From, l.To)
	}
	return nil
}

// RecordLinks updates the links file at path (UpdateLinks), rewriting it
// sorted with caselib.WriteFile. Recording nothing new leaves the file
// alone.
//
// A file in its own order (as RecordLinks writes it) is merged with the
// links added as it is read, so that neither the file nor the set of its
// links is held: relate --write of a million cases records ten million
// links. Another file (edited by hand out of order) is read whole.
func RecordLinks(path string, add, remove map[string][]string) error {
	m := newLinkMerge(add, remove)
	changed, err := m.run(path, nil)
	if errors.Is(err, errUnsorted) {
		return recordUnsorted(path, add, remove)
	}
	if err != nil || !changed {
		return err
	}
	var bad error
	err = caselib.WriteFile(path, 0o644, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		bw.WriteString(linksHeader + "\n")
		_, err := m.run(path, func(l Link) {
			if bad == nil {
				bad = checkLink(l)
			}
			bw.WriteString(l.From)
			bw.WriteByte('\t')
			bw.WriteString(l.To)
			bw.WriteByte('\n')
		})
		if err == nil {
			err = bad
		}
		if err == nil {
			err = bw.Flush()
		}
		return err
	})
	if errors.Is(err, errUnsorted) { // the file was replaced meanwhile
		return recordUnsorted(path, add, remove)
	}
	if bad != nil && errors.Is(err, bad) {
		return fmt.Errorf("%s: %w", path, bad)
	}
	return err
}

// recordUnsorted is RecordLinks for a file not in its own order: read
// whole into a set.
func recordUnsorted(path string, add, remove map[string][]string) error {
	have, err := ReadLinks(path)
	if err != nil {
		return err
	}
	if !UpdateLinks(have, add, remove) {
		return nil
	}
	data, err := FormatLinks(have)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return caselib.WriteFileAtomic(path, data, 0o644)
}

// errUnsorted says that a links file is not in its own order (or repeats a
// link), so it cannot be merged as it is read.
var errUnsorted = errors.New("links file out of order")

// linkMerge merges the links of a sorted links file with the links added,
// in the file's order, leaving out the links removed.
type linkMerge struct {
	from   []string // the cases with links added, sorted
	add    map[string][]string
	remove map[string][]string
}

func newLinkMerge(add, remove map[string][]string) *linkMerge {
	return &linkMerge{from: slices.Sorted(maps.Keys(add)), add: add, remove: remove}
}

// removed reports whether l is among the links removed.
func (m *linkMerge) removed(l Link) bool {
	return slices.Contains(m.remove[l.From], l.To)
}

// run reads the file at path (none: no links) and calls emit, when not
// nil, with every link of the updated file in order. It reports whether
// the update changes the set of links as UpdateLinks does: a link added
// that the file lacks, or a link removed that it has.
func (m *linkMerge) run(path string, emit func(Link)) (changed bool, err error) {
	var r io.Reader = strings.NewReader("")
	f, err := os.Open(path)
	if err == nil {
		defer f.Close()
		r = f
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	old := sortedLinks{s: newLinkScanner(path, r)}
	added := addedLinks{m: m}
	o, oOK := old.next()
	a, aOK := added.next()
	for oOK || aOK {
		l := o
		c := -1 // the file's link first
		if !oOK || (aOK && compareLinks(o, a) > 0) {
			c = 1
		} else if aOK && o == a {
			c = 0
		}
		if c <= 0 {
			o, oOK = old.next()
		}
		if c >= 0 {
			l = a
			a, aOK = added.next()
			changed = changed || c > 0
		}
		if m.removed(l) {
			changed = true
			continue
		}
		if emit != nil {
			emit(l)
		}
	}
	if old.s.err != nil {
		return false, old.s.err
	}
	if old.unsorted {
		return false, errUnsorted
	}
	return changed, nil
}

// sortedLinks reads the links of a file that should be in its own order,
// and stops at the first that is not.
type sortedLinks struct {
	s        *linkScanner
	last     Link
	any      bool
	unsorted bool
}

func (r *sortedLinks) next() (Link, bool) {
	l, ok := r.s.next()
	if !ok {
		return l, false
	}
	if r.any && compareLinks(r.last, l) >= 0 {
		r.unsorted = true
		return l, false
	}
	r.last, r.any = l, true
	return l, true
}

// addedLinks gives the links of a merge's additions in order.
type addedLinks struct {
	m    *linkMerge
	i    int      // next case of m.from
	tos  []string // the links added from the case m.from[i-1], sorted
	from string
}

func (r *addedLinks) next() (Link, bool) {
	for len(r.tos) == 0 {
		if r.i == len(r.m.from) {
			return Link{}, false
		}
		r.from = r.m.from[r.i]
		r.tos = slices.Compact(slices.Sorted(slices.Values(r.m.add[r.from])))
		r.i++
	}
	l := Link{r.from, r.tos[0]}
	r.tos = r.tos[1:]
	return l, true
}
