package caselib

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// DecisionsName is the decisions file kept in a library's folder. It starts
// with a dot so that loading the folder as a library skips it.
const DecisionsName = ".caselink-decisions.tsv"

// decisionsHeader is the comment a new decisions file starts with.
const decisionsHeader = "# caselink: duplicate decisions (A<TAB>B<TAB>not-duplicate|duplicate<TAB>date)"

// DecisionsPath returns the decisions file beside a library named by its
// paths (as given to --cases): in the folder of the first path when it is a
// folder, else in the folder of that file. A library read from standard
// input ("-") or the embedded seeds (no paths) has no folder: that is an
// error saying so.
func DecisionsPath(library []string) (string, error) {
	if len(library) == 0 {
		return "", errors.New("the embedded seeds have no folder to keep decisions in: name a decisions file")
	}
	if library[0] == "-" {
		return "", errors.New("a library read from standard input has no folder: name a decisions file")
	}
	st, err := os.Stat(library[0])
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return filepath.Join(library[0], DecisionsName), nil
	}
	return filepath.Join(filepath.Dir(library[0]), DecisionsName), nil
}

// PairKey returns the pair a, b in the order decisions keep it: the smaller
// id first.
func PairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// Verdicts indexes decisions by pair ([PairKey]).
func Verdicts(ds []Decision) map[[2]string]Verdict {
	m := make(map[[2]string]Verdict, len(ds))
	for _, d := range ds {
		m[PairKey(d.A, d.B)] = d.Verdict
	}
	return m
}

// ParseVerdict returns the verdict a word names: "not-duplicate" (also
// "dismiss"), "duplicate" (also "confirm"), or "undo" and "" for undoing a
// decision (the empty Verdict).
func ParseVerdict(s string) (Verdict, error) {
	switch strings.TrimSpace(s) {
	case string(NotDuplicate), "dismiss":
		return NotDuplicate, nil
	case string(Duplicate), "confirm":
		return Duplicate, nil
	case "undo", "":
		return "", nil
	}
	return "", fmt.Errorf("verdict %q: want not-duplicate, duplicate or undo", s)
}

// Check returns an error naming what is wrong with d: an empty id, a case
// paired with itself, an unknown verdict or a date that is not YYYY-MM-DD.
func (d Decision) Check() error {
	switch {
	case strings.TrimSpace(d.A) == "" || strings.TrimSpace(d.B) == "":
		return errors.New("a decision needs two case ids")
	case strings.ContainsAny(d.A+d.B, "\t\n\r"):
		return fmt.Errorf("case ids %q, %q: tabs and line breaks cannot be kept in a decisions file", d.A, d.B)
	case d.A == d.B:
		return fmt.Errorf("case %q paired with itself", d.A)
	case d.Verdict != "" && d.Verdict != NotDuplicate && d.Verdict != Duplicate:
		return fmt.Errorf("verdict %q: want not-duplicate or duplicate (empty to undo)", d.Verdict)
	}
	if d.Date != "" {
		if day, err := ParseDate(d.Date); err != nil || day.Day == 0 {
			return fmt.Errorf("date %q: want YYYY-MM-DD", d.Date)
		}
	}
	return nil
}

// DecisionFile keeps decisions in a TSV file beside a library, one line a
// pair, sorted: A<TAB>B<TAB>verdict<TAB>date, verdict being not-duplicate
// or duplicate (files written before confirmations existed hold only
// not-duplicate lines, and read the same). Lines starting with # are
// comments and are kept, but for decisions whose first id starts with #.
// Every change rewrites the file with WriteFileAtomic, so it keeps its mode
// (it is meant to be committed with the library) and a failed write leaves
// it as it was. A missing file holds no decisions.
//
// A DecisionFile is safe for concurrent use, by goroutines and by
// processes: Record holds an exclusive OS file lock (flock, on the file
// named by [DecisionFile.LockPath]) from reading the file to renaming the
// new one over it, so that caselink dupes and caselink serve recording at
// the same moment lose neither decision. (The lock is on a file of its
// own because the decisions file itself is replaced at every change.)
type DecisionFile struct {
	path string
	// Now gives the date of a decision recorded without one; nil means
	// time.Now.
	Now func() time.Time
	mu  sync.Mutex
}

var _ DecisionStore = (*DecisionFile)(nil)

// NewDecisionFile returns the store kept in the file at path.
func NewDecisionFile(path string) *DecisionFile { return &DecisionFile{path: path} }

// Path returns the file the store is kept in.
func (s *DecisionFile) Path() string { return s.path }

// LockPath returns the lock file Record locks: the decisions file's name
// with ".lock" added, in the same folder (a dot file beside a library's
// default decisions file, so loading the folder skips it).
func (s *DecisionFile) LockPath() string { return s.path + ".lock" }

// Load returns every pair's decision, sorted by A then B.
func (s *DecisionFile) Load() ([]Decision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ds, err := s.read()
	return ds, err
}

// Record stores d (its ids in either order; today's date when it has
// none), replacing the pair's earlier decision; an empty Verdict removes
// the pair's line. A decision equal to the one kept leaves the file alone.
func (s *DecisionFile) Record(d Decision) error {
	if err := d.Check(); err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	k := PairKey(d.A, d.B)
	d.A, d.B = k[0], k[1]
	if d.Date == "" {
		now := time.Now
		if s.Now != nil {
			now = s.Now
		}
		d.Date = now().UTC().Format(time.DateOnly)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := lockFile(s.LockPath(), 0o644)
	if err != nil {
		return fmt.Errorf("%s: cannot lock the decisions file: %w", s.path, err)
	}
	defer unlock()
	comments, ds, err := s.read()
	if err != nil {
		return err
	}
	i, found := slices.BinarySearchFunc(ds, k, func(x Decision, k [2]string) int {
		return strings.Compare(x.A+"\t"+x.B, k[0]+"\t"+k[1])
	})
	switch {
	case d.Verdict == "" && !found:
		return nil
	case d.Verdict == "":
		ds = slices.Delete(ds, i, i+1)
	case found && ds[i].Verdict == d.Verdict:
		return nil
	case found:
		ds[i] = d
	default:
		ds = slices.Insert(ds, i, d)
	}
	if comments == nil {
		comments = []string{decisionsHeader}
	}
	var b bytes.Buffer
	for _, c := range comments {
		b.WriteString(c + "\n")
	}
	for _, x := range ds {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", x.A, x.B, x.Verdict, x.Date)
	}
	return WriteFileAtomic(s.path, b.Bytes(), 0o644)
}

// decisionLine says whether a line starting with # is a decision rather
// than a comment: a case id may start with # (an issue number, #4711), and
// the decision of a pair sorted first by such an id is written with it at
// the start of the line. A decision's line has three or four tab-separated
// fields, the third a verdict, which a comment written by hand hardly
// ever has.
func decisionLine(line string) bool {
	f := strings.Split(line, "\t")
	return (len(f) == 3 || len(f) == 4) && (Verdict(f[2]) == Duplicate || Verdict(f[2]) == NotDuplicate)
}

// read parses the file: its comment lines, in order, and its decisions,
// sorted, one per pair (a pair given twice keeps its last line).
func (s *DecisionFile) read() (comments []string, ds []Decision, err error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	byPair := map[[2]string]Decision{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case strings.HasPrefix(line, "#") && !decisionLine(line):
			comments = append(comments, line)
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			return nil, nil, fmt.Errorf("%s:%d: want A<TAB>B<TAB>verdict<TAB>date, got %d tab-separated field(s)", s.path, n+1, len(f))
		}
		d := Decision{A: f[0], B: f[1], Verdict: Verdict(f[2])}
		if len(f) > 3 {
			d.Date = f[3]
		}
		if d.Verdict == "" {
			return nil, nil, fmt.Errorf("%s:%d: pair %s %s: verdict is empty, want not-duplicate or duplicate", s.path, n+1, d.A, d.B)
		}
		if err := d.Check(); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", s.path, n+1, err)
		}
		k := PairKey(d.A, d.B)
		d.A, d.B = k[0], k[1]
		byPair[k] = d
	}
	for _, d := range byPair {
		ds = append(ds, d)
	}
	slices.SortFunc(ds, func(x, y Decision) int {
		if c := strings.Compare(x.A, y.A); c != 0 {
			return c
		}
		return strings.Compare(x.B, y.B)
	})
	return comments, ds, nil
}
