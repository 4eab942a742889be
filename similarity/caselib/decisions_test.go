package caselib

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func fixedNow() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }

func mustLoad(t *testing.T, s DecisionStore) []Decision {
	t.Helper()
	ds, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// A file written before confirmations existed (not-duplicate lines only) is
// read as it is, and recording keeps its comments, its mode and its order.
func TestDecisionFileReadsOldFilesAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, DecisionsName)
	old := "# caselink: pairs dismissed as not duplicates (A<TAB>B<TAB>not-duplicate<TAB>date)\n" +
		"IL-0100\tIL-0194\tnot-duplicate\t2026-01-02\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewDecisionFile(path)
	s.Now = fixedNow
	if got := fmt.Sprint(mustLoad(t, s)); got != "[{IL-0100 IL-0194 not-duplicate 2026-01-02}]" {
		t.Fatalf("Load = %s", got)
	}
	// Ids in either order; the file keeps A < B.
	if err := s.Record(Decision{A: "IL-0371", B: "IL-0191", Verdict: Duplicate}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	want := "# caselink: pairs dismissed as not duplicates (A<TAB>B<TAB>not-duplicate<TAB>date)\n" +
		"IL-0100\tIL-0194\tnot-duplicate\t2026-01-02\n" +
		"IL-0191\tIL-0371\tduplicate\t2026-11-30\n"
	if string(data) != want {
		t.Fatalf("file:\n%s\nwant:\n%s", data, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v after a decision, want 0644 kept", st.Mode().Perm())
	}
	// Changing a verdict replaces the line; undoing removes it; undoing
	// an undecided pair changes nothing.
	if err := s.Record(Decision{A: "IL-0191", B: "IL-0371", Verdict: NotDuplicate}); err != nil {
		t.Fatal(err)
	}
	if err := s.Record(Decision{A: "IL-0194", B: "IL-0100"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Record(Decision{A: "X", B: "Y"}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(mustLoad(t, s)); got != "[{IL-0191 IL-0371 not-duplicate 2026-11-30}]" {
		t.Fatalf("after change and undo, Load = %s", got)
	}
}

// A new file is created readable by all (it is meant to be committed), with
// a header saying what it holds.
func TestDecisionFileNewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.tsv")
	s := NewDecisionFile(path)
	if ds := mustLoad(t, s); len(ds) != 0 {
		t.Fatalf("missing file: %v, want no decisions", ds)
	}
	if err := s.Record(Decision{A: "A", B: "B", Verdict: NotDuplicate, Date: "2026-02-03"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "# caselink") || !strings.HasSuffix(string(data), "A\tB\tnot-duplicate\t2026-02-03\n") {
		t.Fatalf("new file:\n%s", data)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Fatalf("new file mode %v, want 0644", st.Mode().Perm())
	}
}

// TestDecisionFileHashIDs: case ids that start with # (issue numbers) are
// kept like any other, though their line starts with #, and comments stay
// comments. Such a decision used to be read back as a comment: recorded,
// then lost.
func TestDecisionFileHashIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.tsv")
	s := NewDecisionFile(path)
	want := []Decision{
		{A: "#12", B: "#34", Verdict: Duplicate, Date: "2026-02-03"},
		{A: "#5", B: "x", Verdict: NotDuplicate, Date: "2026-02-04"},
	}
	for _, d := range want {
		if err := s.Record(d); err != nil {
			t.Fatal(err)
		}
	}
	if got := mustLoad(t, s); !slices.Equal(got, want) {
		t.Fatalf("loaded %+v, want %+v", got, want)
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "# caselink") || lines[1] != "#12\t#34\tduplicate\t2026-02-03" {
		t.Fatalf("file:\n%s", data)
	}
	// A comment, even one with tabs, stays one; the decision after it is read.
	os.WriteFile(path, []byte(lines[0]+"\n# reviewed\tby ops\n#12\t#34\tduplicate\t2026-02-03\n"), 0o644)
	if got := mustLoad(t, s); len(got) != 1 || got[0] != want[0] {
		t.Fatalf("loaded %+v, want %+v", got, want[:1])
	}
}

func TestDecisionFileRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ file, want string }{
		{"A B not-duplicate\n", "decisions.tsv:1: want A<TAB>B<TAB>verdict<TAB>date, got 1 tab-separated field(s)"},
		{"# c\nA\tB\tmaybe\t2026-01-01\n", `decisions.tsv:2: verdict "maybe"`},
		{"A\tA\tduplicate\n", `decisions.tsv:1: case "A" paired with itself`},
		{"A\tB\tduplicate\t01/02/2026\n", `decisions.tsv:1: date "01/02/2026": want YYYY-MM-DD`},
		{"A\tB\t\t2026-01-01\n", "decisions.tsv:1: pair A B: verdict is empty"},
	} {
		path := filepath.Join(dir, "decisions.tsv")
		os.WriteFile(path, []byte(tc.file), 0o644)
		_, err := NewDecisionFile(path).Load()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("file %q: error %v, want one containing %q", tc.file, err, tc.want)
		}
		// A bad file is not rewritten by a decision.
		if err := NewDecisionFile(path).Record(Decision{A: "C", B: "D", Verdict: Duplicate}); err == nil {
			t.Errorf("file %q: Record succeeded over a bad file", tc.file)
		}
		if data, _ := os.ReadFile(path); string(data) != tc.file {
			t.Errorf("file %q changed to %q", tc.file, data)
		}
	}
	s := NewDecisionFile(filepath.Join(dir, "new.tsv"))
	for _, d := range []Decision{{A: "", B: "B", Verdict: Duplicate}, {A: "A", B: "A", Verdict: Duplicate},
		{A: "A", B: "B", Verdict: "maybe"}, {A: "A\tX", B: "B", Verdict: Duplicate}, {A: "A", B: "B", Verdict: Duplicate, Date: "soon"}} {
		if err := s.Record(d); err == nil {
			t.Errorf("Record(%+v) succeeded", d)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new.tsv")); err == nil {
		t.Error("rejected decisions created the file")
	}
}

// Decisions recorded from many goroutines at once are all kept (run with
// -race).
func TestDecisionFileConcurrent(t *testing.T) {
	s := NewDecisionFile(filepath.Join(t.TempDir(), "decisions.tsv"))
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := NotDuplicate
			if i%2 == 0 {
				v = Duplicate
			}
			if err := s.Record(Decision{A: fmt.Sprintf("C%02d", i), B: "Z", Verdict: v}); err != nil {
				t.Error(err)
			}
			if _, err := s.Load(); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	ds := mustLoad(t, s)
	if len(ds) != 16 {
		t.Fatalf("%d decisions kept of 16", len(ds))
	}
	for i, d := range ds {
		if d.A != fmt.Sprintf("C%02d", i) || (d.Verdict == Duplicate) != (i%2 == 0) {
			t.Fatalf("decision %d = %+v", i, d)
		}
	}
}

func TestParseVerdict(t *testing.T) {
	for in, want := range map[string]Verdict{"not-duplicate": NotDuplicate, "dismiss": NotDuplicate,
		"duplicate": Duplicate, "confirm": Duplicate, "undo": "", "": ""} {
		if got, err := ParseVerdict(in); err != nil || got != want {
			t.Errorf("ParseVerdict(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseVerdict("yes"); err == nil {
		t.Error(`ParseVerdict("yes") succeeded`)
	}
}

func TestDecisionsPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cases.jsonl")
	os.WriteFile(file, []byte("{}\n"), 0o644)
	for _, tc := range []struct {
		lib  []string
		want string
	}{
		{[]string{dir}, filepath.Join(dir, DecisionsName)},
		{[]string{file, "/elsewhere"}, filepath.Join(dir, DecisionsName)},
	} {
		if got, err := DecisionsPath(tc.lib); err != nil || got != tc.want {
			t.Errorf("DecisionsPath(%v) = %q, %v; want %q", tc.lib, got, err, tc.want)
		}
	}
	for _, lib := range [][]string{nil, {"-"}, {filepath.Join(dir, "missing")}} {
		if _, err := DecisionsPath(lib); err == nil {
			t.Errorf("DecisionsPath(%v) succeeded", lib)
		}
	}
}

// TestDecisionFileAcrossProcesses: processes (as caselink dupes --dismiss
// runs are) and goroutines (as the server's requests are) recording into
// one file at the same moment lose no decision: the file lock is held from
// reading the file to renaming the new one over it.
func TestDecisionFileAcrossProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), DecisionsName)
	const procs, perProc, goroutines = 6, 8, 8
	var wg sync.WaitGroup
	errs := make(chan error, procs+goroutines)
	for p := range procs {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestDecisionFileHelperProcess$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("CASELINK_DECISIONS_HELPER=%s\t%d\t%d", path, p, perProc))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("process %d: %v\n%s", p, err, out)
			}
		})
	}
	s := NewDecisionFile(path)
	for g := range goroutines {
		wg.Go(func() {
			for i := range perProc {
				if err := s.Record(Decision{A: fmt.Sprintf("G%02d", g), B: fmt.Sprintf("X%02d", i), Verdict: Duplicate}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got := mustLoad(t, NewDecisionFile(path))
	if want := (procs + goroutines) * perProc; len(got) != want {
		t.Fatalf("%d decisions kept of %d recorded", len(got), want)
	}
}

// TestDecisionFileHelperProcess is one process of
// TestDecisionFileAcrossProcesses; it does nothing in a normal test run.
func TestDecisionFileHelperProcess(t *testing.T) {
	spec := os.Getenv("CASELINK_DECISIONS_HELPER")
	if spec == "" {
		t.Skip("a helper of TestDecisionFileAcrossProcesses")
	}
	f := strings.Split(spec, "\t")
	n, _ := strconv.Atoi(f[2])
	s := NewDecisionFile(f[0])
	for i := range n {
		if err := s.Record(Decision{A: "P" + f[1], B: fmt.Sprintf("X%02d", i), Verdict: NotDuplicate}); err != nil {
			t.Fatal(err)
		}
	}
}
