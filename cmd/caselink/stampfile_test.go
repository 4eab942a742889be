package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/caselink/caselink/similarity/caselib"
)

// stampCheck runs a match on lib through the cache and without it, and
// reports whether the cached run opened the index without the library.
type stampCheck struct {
	t   *testing.T
	lib string
}

var stampQuery = []string{"--json", "--top", "30", "--min-score", "0", "connection pool exhausted on the primary database disk full"}

func (s stampCheck) args(extra ...string) []string {
	return append(append(append([]string{"match"}, extra...), "--cases", s.lib), stampQuery...)
}

// same runs the cached match and the fresh one, fails when they differ,
// and returns the answer and whether the cached run was lazy.
func (s stampCheck) same(what string) (string, bool) {
	s.t.Helper()
	before := lazyOpens.Load()
	got := runAny(s.t, s.args()...)
	lazy := lazyOpens.Load() > before
	if want := runAny(s.t, s.args("--no-cache")...); got != want {
		s.t.Errorf("%s: match differs from a fresh index:\n%s\nwant:\n%s", what, got, want)
	}
	return got, lazy
}

func editFile(t *testing.T, path string, edit func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, edit(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

// editAfterLazyOpen makes the next run that opens an index without its
// library edit path (sameSize) right after the open, once, and returns
// whether it did; the test's end undoes it.
func editAfterLazyOpen(t *testing.T, path string) *bool {
	t.Helper()
	edited := new(bool)
	afterLazyOpen = func() {
		if !*edited {
			*edited = true
			time.Sleep(20 * time.Millisecond)
			editFile(t, path, sameSize)
		}
	}
	t.Cleanup(func() { afterLazyOpen = nil })
	return edited
}

// sameSize changes every "at site 3" to "at site 7": the same size, and
// titles the match prints.
func sameSize(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte("at site 3"), []byte("at site 7"))
}

// Every change to a library's files that stat can see is caught before
// the stamp is trusted: an edit of the same size with its modification
// time set back (the change time moves), a file replaced by a rename (a
// new inode), a case appended, a folder gaining or losing a file, a new
// ignore file. After each, the next match answers as a fresh index does,
// and the one after it is lazy again.
func TestStampCatchesChanges(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	defer setRacyWindow(0)()
	s := stampCheck{t: t, lib: cacheLibrary(t)}
	fx := filepath.Join(s.lib, "fixture.jsonl")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(fx, old, old) // so that the edit below can set it back exactly
	s.same("first run")
	prev, lazy := s.same("second run")
	if !lazy {
		t.Fatal("the second run read the library")
	}
	changes := []struct {
		name   string
		change func()
	}{
		{"same size, time set back", func() {
			editFile(t, fx, sameSize)
			os.Chtimes(fx, old, old)
		}},
		{"replaced by a rename", func() {
			b, _ := os.ReadFile(fx)
			tmp := filepath.Join(t.TempDir(), "new.jsonl")
			os.WriteFile(tmp, bytes.ReplaceAll(b, []byte("at site 7"), []byte("at site 5")), 0o644)
			os.Chtimes(tmp, old, old)
			if err := os.Rename(tmp, fx); err != nil {
				t.Fatal(err)
			}
		}},
		{"a case appended", func() {
			editFile(t, fx, func(b []byte) []byte {
				return append(b, `{"id":"FX-900","title":"connection pool exhausted on the primary database again"}`+"\n"...)
			})
		}},
		{"a file added to the folder", func() {
			os.WriteFile(filepath.Join(s.lib, "new.json"), []byte(`{"id":"NEW-1","title":"disk full on the primary database"}`), 0o644)
		}},
		{"a file gone from the folder", func() { os.Remove(filepath.Join(s.lib, "new.json")) }},
		{"an ignore file", func() {
			os.WriteFile(filepath.Join(s.lib, caselib.IgnoreFile), []byte("IL-0100.json\n"), 0o644)
		}},
	}
	for _, ch := range changes {
		time.Sleep(20 * time.Millisecond) // past the file system clock's tick
		ch.change()
		got, lazy := s.same(ch.name)
		if lazy {
			t.Errorf("%s: the stamp was trusted", ch.name)
		}
		if got == prev {
			t.Errorf("%s: the change does not show in the answer (a test that cannot fail)", ch.name)
		}
		if _, lazy := s.same(ch.name + ", next run"); !lazy {
			t.Errorf("%s: the run after the change read the library again", ch.name)
		}
		prev = got
	}
}

// A file changed too close to the moment its stamp was taken is not
// trusted by stat alone: that run reads the library and checks it by
// content, and the stamp is trusted once the window has passed. The test
// plays a file system whose clock cannot tell the edit apart: the stamp
// file is rewritten with the edited files' stamps.
func TestStampRacyWindow(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	const window = 400 * time.Millisecond
	defer setRacyWindow(window)()
	s := stampCheck{t: t, lib: cacheLibrary(t)}
	fx := filepath.Join(s.lib, "fixture.jsonl")
	before, _ := s.same("first run")
	editFile(t, fx, sameSize)
	forgeStamp(t, s.lib)
	got, lazy := s.same("edited in the window")
	if lazy {
		t.Error("a file changed within the window of its stamp was trusted by stat")
	}
	if got == before {
		t.Error("the edit does not show in the answer (a test that cannot fail)")
	}
	time.Sleep(window + 100*time.Millisecond)
	s.same("after the window, recording")
	if _, lazy := s.same("after the window"); !lazy {
		t.Error("the stamp is not trusted once the window has passed")
	}
}

// forgeStamp rewrites the library's stamp file with the stamps its files
// have now, keeping the rest.
func forgeStamp(t *testing.T, lib string) {
	t.Helper()
	path := stampPath(cacheFile([]string{lib}))
	st, err := readStamp(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Files = caselib.FileStamps([]string{lib})
	if err := writeStamp(path, st); err != nil {
		t.Fatal(err)
	}
}

// A hit whose file changed after the stamps were checked is not printed
// from the changed bytes: the match reads the library and answers as a
// fresh index does.
func TestStampFileChangedUnderMatch(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	defer setRacyWindow(0)()
	s := stampCheck{t: t, lib: cacheLibrary(t)}
	fx := filepath.Join(s.lib, "fixture.jsonl")
	before, _ := s.same("first run")
	edited := editAfterLazyOpen(t, fx)
	opens := lazyOpens.Load()
	got, _ := s.same("changed under the match")
	if !*edited || lazyOpens.Load() == opens {
		t.Fatal("the match did not open the index lazily")
	}
	if got == before {
		t.Error("the edit does not show in the answer (a test that cannot fail)")
	}
}

// What loading warns of (a case skipped by --lenient, links to unknown
// cases) is said by a run that does not load the library too, in the
// same words.
func TestStampKeepsWarnings(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	defer setRacyWindow(0)()
	lib := filepath.Join(t.TempDir(), "lib.jsonl")
	os.WriteFile(lib, []byte(`{"id":"A-1","title":"disk full on the log nodes","related":["GONE-1"]}`+"\n"+
		`{"id":"A-2","title":{"en":3}}`+"\n"+`{"id":"A-3","title":"certificate expired"}`+"\n"), 0o644)
	s := stampCheck{t: t, lib: lib}
	args := []string{"match", "--lenient", "--cases", lib, "disk full"}
	fresh := runAny(t, append(args[:1:1], append([]string{"--no-cache"}, args[1:]...)...)...)
	if !strings.Contains(fresh, "skipped") || !strings.Contains(fresh, "GONE-1") {
		t.Fatalf("the library gives no warnings: %s", fresh)
	}
	runAny(t, args...)
	opens := lazyOpens.Load()
	if got := runAny(t, args...); got != fresh {
		t.Errorf("warnings differ:\n%s\nwant:\n%s", got, fresh)
	}
	if lazyOpens.Load() == opens {
		t.Error("the third run read the library")
	}
	// Without --lenient the same library stops with its error, not with
	// the lenient run's index.
	if got, want := runAny(t, s.args()...), runAny(t, s.args("--no-cache")...); got != want || !strings.Contains(got, "exit 2") {
		t.Errorf("without --lenient:\n%s\nwant:\n%s", got, want)
	}
}

// A case whose file was replaced (by a rename, before it was first read) or
// rewritten in place since it was indexed is read from where its bytes
// lie now, when they are unchanged; an edited case is still refused.
func TestCaseReaderFindsMovedCases(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "lib.jsonl")
	line := func(id, title string) string {
		return `{"id":"` + id + `","title":"` + title + `"}` + "\n"
	}
	if err := os.WriteFile(lib, []byte(line("A-1", "disk full")+line("A-2", "dns failed")+line("A-3", "pool exhausted")), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := caselib.Load([]string{lib}, caselib.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sources, spans, ok := l.Spans()
	if !ok {
		t.Fatal("no spans")
	}
	r := &caseReader{st: &libStamp{Paths: []string{lib}, Files: caselib.FileStamps([]string{lib}), Sources: sources, Spans: spans}}
	check := func(what string, want map[int]string) {
		t.Helper()
		for i := range 3 {
			c, err := r.read(i)
			switch {
			case want[i] == "" && !errors.Is(err, caselib.ErrChanged):
				t.Errorf("%s: case %d: %v, %v; want it refused as changed", what, i, c, err)
			case want[i] != "" && (err != nil || c.Title.EN != want[i] || c.Loc.Line < 1):
				t.Errorf("%s: case %d: %+v, %v; want %q", what, i, c, err, want[i])
			}
		}
	}
	// Replaced by a rename before any read: a case added in front moves
	// every other, and A-2 is edited.
	tmp := lib + ".tmp"
	if err := os.WriteFile(tmp, []byte(line("A-0", "new")+line("A-1", "disk full")+line("A-2", "dns failed again")+line("A-3", "pool exhausted")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, lib); err != nil {
		t.Fatal(err)
	}
	check("replaced", map[int]string{0: "disk full", 2: "pool exhausted"})
	// Rewritten in place, A-3 first now (the file open since the reads above).
	editFile(t, lib, func([]byte) []byte { return []byte(line("A-3", "pool exhausted") + line("A-1", "disk full")) })
	check("rewritten in place", map[int]string{0: "disk full", 2: "pool exhausted"})
	editFile(t, lib, func([]byte) []byte { return []byte(line("A-1", "disk full!")) })
	check("edited", map[int]string{})
}

// dupes does not hold the library either: once the library is stamped it
// opens the index without reading it, reads each case for the pairs'
// evidence and the records it prints, and lists what a fresh index lists;
// a file changed under it is read again, and the list is the changed
// library's.
func TestDupesFromAStampedIndex(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	defer setRacyWindow(0)()
	lib := cacheLibrary(t)
	fx := filepath.Join(lib, "fixture.jsonl")
	args := func(extra ...string) []string {
		return append(append([]string{"dupes"}, extra...), "--cases", lib, "--json", "--threshold", "0.3")
	}
	fresh := runAny(t, args("--no-cache")...)
	if !strings.HasPrefix(fresh, "exit 0") || !strings.Contains(fresh, "at site 3") {
		t.Fatalf("the fixture lists no pair with the words the test edits:\n%s", fresh)
	}
	if got := runAny(t, args()...); got != fresh {
		t.Fatalf("first cached run differs from a fresh index:\n%s\nwant:\n%s", got, fresh)
	}
	opens := lazyOpens.Load()
	if got := runAny(t, args()...); got != fresh {
		t.Fatalf("stamped run differs from a fresh index:\n%s\nwant:\n%s", got, fresh)
	}
	if lazyOpens.Load() == opens {
		t.Fatal("the second cached run read the library")
	}
	edited := editAfterLazyOpen(t, fx)
	got := runAny(t, args()...)
	if !*edited {
		t.Fatal("dupes did not open the index without the library")
	}
	if want := runAny(t, args("--no-cache")...); got != want {
		t.Errorf("changed under dupes:\n%s\nwant:\n%s", got, want)
	}
	if got == fresh {
		t.Error("the edit does not show in the list (a test that cannot fail)")
	}
}
