package caselib

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// checkFileSpliced checks that the file new differs from old only inside the
// "related" values of its cases, which now hold want[line].
func checkFileSpliced(t testing.TB, old, new []byte, lines bool, want map[int][]string) {
	t.Helper()
	if !lines {
		ids, ok := want[1]
		if !ok {
			if !bytes.Equal(old, new) {
				t.Fatal("unchanged case file differs")
			}
			return
		}
		if bytes.HasPrefix(old, bom) != bytes.HasPrefix(new, bom) {
			t.Fatal("BOM changed")
		}
		checkSpliced(t, bytes.TrimPrefix(old, bom), bytes.TrimPrefix(new, bom), ids)
		return
	}
	ol, nl := bytes.Split(old, nl), bytes.Split(new, nl)
	if len(ol) != len(nl) {
		t.Fatalf("%d lines became %d", len(ol), len(nl))
	}
	for i := range ol {
		ids, ok := want[i+1]
		if !ok {
			if !bytes.Equal(ol[i], nl[i]) {
				t.Fatalf("line %d changed:\n%s\n%s", i+1, ol[i], nl[i])
			}
			continue
		}
		o, n := ol[i], nl[i]
		if i == 0 {
			if bytes.HasPrefix(o, bom) != bytes.HasPrefix(n, bom) {
				t.Fatal("BOM changed")
			}
			o, n = bytes.TrimPrefix(o, bom), bytes.TrimPrefix(n, bom)
		}
		if bytes.HasSuffix(o, []byte("\r")) != bytes.HasSuffix(n, []byte("\r")) {
			t.Fatalf("line %d: line end changed", i+1)
		}
		checkSpliced(t, o, n, ids)
	}
}

// newRelated makes a related list for every case: the next k ids, cycling.
func newRelated(lib *Library, k int) map[string][]string {
	m := make(map[string][]string, len(lib.Cases))
	for i, c := range lib.Cases {
		var ids []string
		for j := 1; j <= k && j < len(lib.Cases); j++ {
			ids = append(ids, lib.Cases[(i+j)%len(lib.Cases)].ID)
		}
		m[c.ID] = ids
	}
	return m
}

// TestRoundTrip loads every seed and fixture, re-saves it unchanged, then
// sets related everywhere and checks the bytes.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	paths := []string{copyTree(t, "../../seeds", dir), copyTree(t, "testdata/ok", dir)}
	os.Remove(filepath.Join(paths[0], "seeds.go"))
	lib, err := Load(paths, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.Cases) != 17 {
		t.Fatalf("%d cases", len(lib.Cases))
	}
	before := map[string][]byte{}
	for _, f := range lib.files {
		before[f.path] = mustRead(t, f.path)
	}

	// Unchanged: nothing is written.
	same := map[string][]string{}
	for _, c := range lib.Cases {
		same[c.ID] = c.Related
	}
	written, err := WriteRelated(lib, same)
	if err != nil || len(written) != 0 {
		t.Fatalf("unchanged write: %v %v", written, err)
	}
	// Re-splicing every object with its own related list gives the same
	// bytes (where the object has the member).
	for _, f := range lib.files {
		for line, obj := range objects(t, before[f.path], f.lines) {
			lay, _ := parseLayout(obj)
			has := slices.ContainsFunc(lay.members, func(m member) bool { return m.related && obj[m.valStart] != 'n' })
			c := refCase(t, obj)
			out, err := SpliceRelated(obj, c.Related)
			if err != nil {
				t.Fatal(err)
			}
			if has && !bytes.Equal(out, obj) {
				t.Errorf("%s:%d: re-splice changed the bytes:\n%s\n%s", f.display, line, obj, out)
			}
		}
	}

	// Set related everywhere.
	rel := newRelated(lib, 3)
	written, err = WriteRelated(lib, rel)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != len(lib.files) {
		t.Fatalf("wrote %v", written)
	}
	for _, f := range lib.files {
		want := map[int][]string{}
		for _, c := range lib.Cases {
			if c.src == f {
				want[c.Loc.Line] = rel[c.ID]
			}
		}
		checkFileSpliced(t, before[f.path], mustRead(t, f.path), f.lines, want)
	}
	for _, c := range lib.Cases {
		if !slices.Equal(c.Related, rel[c.ID]) {
			t.Fatalf("%s: Related not updated", c.ID)
		}
	}
	// The written files load again with the new lists.
	again, err := Load(paths, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range again.Cases {
		if !sameModel(c, lib.Cases[i]) {
			t.Fatalf("%s differs after reload", c.ID)
		}
	}
	// Writing the same lists again touches nothing.
	written, err = WriteRelated(lib, rel)
	if err != nil || len(written) != 0 {
		t.Fatalf("second write: %v %v", written, err)
	}
	// And writing with the library we just reloaded works too.
	rel2 := newRelated(again, 1)
	if _, err := WriteRelated(again, rel2); err != nil {
		t.Fatal(err)
	}
	// The first library is now stale.
	if _, err := WriteRelated(lib, rel); err == nil || !strings.Contains(err.Error(), "changed since it was loaded") {
		t.Fatalf("stale library: %v", err)
	}
}

// tmpFiles lists leftover temporary files in dir.
func tmpFiles(t testing.TB, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestWriteFailureLeavesOriginals(t *testing.T) {
	steps := []struct {
		step, file string // fail at this step of this file
		written    int    // files replaced before the failure
	}{
		{"write", "b.jsonl", 0},
		{"sync", "a.json", 0},
		{"sync", "b.jsonl", 0},
		{"rename", "a.json", 0},
		{"rename", "b.jsonl", 1},
	}
	for _, s := range steps {
		t.Run(s.step+"/"+s.file, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.jsonl")
			os.WriteFile(a, []byte(`{"id":"A","related":[]}`), 0o640)
			os.WriteFile(b, []byte("{\"id\":\"B\"}\n{\"id\":\"C\"}\n"), 0o600)
			lib, err := Load([]string{a, b}, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			origA, origB := mustRead(t, a), mustRead(t, b)
			injected := errors.New("injected failure")
			testHook = func(step, file string) error {
				if step == s.step && filepath.Base(file) == s.file {
					return injected
				}
				return nil
			}
			defer func() { testHook = nil }()
			written, err := WriteRelated(lib, map[string][]string{"A": {"B"}, "C": {"A", "B"}})
			if !errors.Is(err, injected) {
				t.Fatalf("error %v", err)
			}
			if len(written) != s.written {
				t.Fatalf("written %v", written)
			}
			if left := tmpFiles(t, dir); len(left) != 0 {
				t.Fatalf("temporary files left: %v", left)
			}
			if !bytes.Equal(mustRead(t, b), origB) {
				t.Fatal("b.jsonl changed")
			}
			if s.written == 0 && !bytes.Equal(mustRead(t, a), origA) {
				t.Fatal("a.json changed")
			}
			var wantA []string // a.json is written first
			if s.written == 1 {
				wantA = []string{"B"}
			}
			if !slices.Equal(lib.ByID("A").Related, wantA) {
				t.Fatalf("Related of A is %v, want %v", lib.ByID("A").Related, wantA)
			}
			if !slices.Equal(lib.ByID("C").Related, nil) {
				t.Fatal("Related updated after a failed write")
			}
			// The library still matches the files: the same request succeeds.
			testHook = nil
			if _, err := WriteRelated(lib, map[string][]string{"A": {"B"}, "C": {"A", "B"}}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestWriteModeAndMtime(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.json")
	os.WriteFile(p, []byte("{\n  \"id\": \"A\"\n}"), 0o640)
	os.Chmod(p, 0o640)
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	os.Chtimes(p, old, old)
	lib, err := Load([]string{p}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	written, err := WriteRelated(lib, map[string][]string{"A": {"X", "Y"}})
	if err != nil || !reflect.DeepEqual(written, []string{p}) {
		t.Fatalf("%v %v", written, err)
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", st.Mode())
	}
	if st.ModTime().Equal(old) {
		t.Fatal("mtime not updated by a write")
	}
	if got := string(mustRead(t, p)); got != "{\n  \"id\": \"A\",\n  \"related\": [\n    \"X\",\n    \"Y\"\n  ]\n}" {
		t.Fatalf("wrote %q", got)
	}
	// Same lists again: nothing written, mtime kept.
	os.Chtimes(p, old, old)
	lib, _ = Load([]string{p}, LoadOptions{})
	written, err = WriteRelated(lib, map[string][]string{"A": {"X", "Y"}})
	if err != nil || len(written) != 0 {
		t.Fatalf("%v %v", written, err)
	}
	if st, _ := os.Stat(p); !st.ModTime().Equal(old) {
		t.Fatal("mtime changed without a write")
	}
	// An empty list for a case without "related" is no change either.
	os.WriteFile(p, []byte(`{"id":"A"}`), 0o640)
	lib, _ = Load([]string{p}, LoadOptions{})
	if written, err := WriteRelated(lib, map[string][]string{"A": nil}); err != nil || len(written) != 0 {
		t.Fatalf("%v %v", written, err)
	}
}

func TestWriteRefusesChangedFile(t *testing.T) {
	for _, change := range []string{"size", "content"} {
		t.Run(change, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "c.jsonl")
			os.WriteFile(p, []byte("{\"id\":\"A\"}\n{\"id\":\"B\"}\n"), 0o644)
			lib, err := Load([]string{p}, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			st, _ := os.Stat(p)
			edited := []byte("{\"id\":\"A\"}\n{\"id\":\"C\"}\n") // same size
			if change == "size" {
				edited = append(edited, "{\"id\":\"D\"}\n"...)
			}
			os.WriteFile(p, edited, 0o644)
			os.Chtimes(p, st.ModTime(), st.ModTime()) // hide the change from mtime
			_, err = WriteRelated(lib, map[string][]string{"A": {"B"}})
			if err == nil || err.Error() != p+": file changed since it was loaded; load it again before writing related" {
				t.Fatalf("error %v", err)
			}
			if !bytes.Equal(mustRead(t, p), edited) || len(tmpFiles(t, dir)) != 0 {
				t.Fatal("file touched")
			}
		})
	}
}

func TestWriteRefusals(t *testing.T) {
	seedsLib, err := LoadSeeds()
	if err != nil {
		t.Fatal(err)
	}
	stdinLib, err := Load([]string{"-"}, LoadOptions{Stdin: strings.NewReader(`{"id":"S"}`)})
	if err != nil {
		t.Fatal(err)
	}
	fileLib, err := Load([]string{"testdata/ok/compact.json"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lib  *Library
		rel  map[string][]string
		want string
	}{
		{seedsLib, map[string][]string{"IL-0100": {"IL-0191"}}, `seeds/IL-0100.json:1: case "IL-0100": cannot write related: the embedded seed cases are read-only`},
		{stdinLib, map[string][]string{"S": {"X"}}, `<stdin>:1: case "S": cannot write related: the case was read from standard input`},
		{fileLib, map[string][]string{"nope": {"X"}}, `caselib: WriteRelated: no case "nope" in the library`},
		{fileLib, map[string][]string{"T-0001": {""}}, `testdata/ok/compact.json:1: case "T-0001": field "related": cannot write an empty id`},
		{&Library{Cases: []*Case{{ID: "H"}}, byID: map[string]*Case{}}, map[string][]string{"H": {"X"}}, `:0: case "H": cannot write related: the case was not loaded from a file`},
	}
	for _, tt := range tests {
		_, err := WriteRelated(tt.lib, tt.rel)
		if err == nil || !strings.HasSuffix(err.Error(), strings.TrimPrefix(tt.want, ":0")) {
			t.Errorf("error %v\nwant %s", err, tt.want)
		}
	}
	if _, err := WriteRelated(nil, nil); err == nil {
		t.Error("nil library accepted")
	}
}

func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte(`{"id":"A"}`), 0o644)
	sub := filepath.Join(dir, "lib")
	os.Mkdir(sub, 0o755)
	link := filepath.Join(sub, "link.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	lib, err := Load([]string{sub}, LoadOptions{})
	if err != nil || len(lib.Cases) != 1 {
		t.Fatalf("%v %v", lib, err)
	}
	if _, err := WriteRelated(lib, map[string][]string{"A": {"B"}}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("link replaced by a file")
	}
	if got := string(mustRead(t, real)); got != `{"id":"A","related":["B"]}` {
		t.Fatalf("target holds %q", got)
	}
}

// TestWriteIncidents writes related lists into all cases of the shared
// incident library (copied) and checks that nothing else changed.
func TestWriteIncidents(t *testing.T) {
	src := sharedData(t, "incidents/cases.jsonl")
	if src == "" {
		t.Skip("incident library not present")
	}
	// This test is about bytes, not durability: skip fsync of the 10 MB file,
	// which can take seconds on a busy disk.
	syncFile = func(*os.File) error { return nil }
	defer func() { syncFile = (*os.File).Sync }()
	dir := t.TempDir()
	p := copyTree(t, src, dir)
	old := mustRead(t, p)
	lib, err := Load([]string{p}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rel := newRelated(lib, 5)
	start := time.Now()
	written, err := WriteRelated(lib, rel)
	if err != nil || len(written) != 1 {
		t.Fatalf("%v %v", written, err)
	}
	t.Logf("wrote %d cases in %v", len(lib.Cases), time.Since(start))
	want := map[int][]string{}
	for _, c := range lib.Cases {
		want[c.Loc.Line] = rel[c.ID]
	}
	new := mustRead(t, p)
	checkFileSpliced(t, old, new, true, want)
	// Splicing the old (empty) lists back restores the original bytes.
	lines := bytes.Split(new, nl)
	for i, l := range lines {
		if len(l) > 0 {
			back, err := SpliceRelated(l, nil)
			if err != nil {
				t.Fatal(err)
			}
			lines[i] = back
		}
	}
	if !bytes.Equal(bytes.Join(lines, nl), old) {
		t.Fatal("restoring the related lists does not give the original bytes")
	}
	if fmt.Sprint(lib.Cases[0].Related) != fmt.Sprint(rel[lib.Cases[0].ID]) {
		t.Fatal("Related not updated")
	}
}

// TestWriteAfterDropText: a library whose text was dropped writes the same
// bytes as the library as loaded, and still refuses a file edited since.
func TestWriteAfterDropText(t *testing.T) {
	dir := t.TempDir()
	paths := []string{copyTree(t, "../../seeds", filepath.Join(dir, "a")), copyTree(t, "testdata/ok", filepath.Join(dir, "a"))}
	os.Remove(filepath.Join(paths[0], "seeds.go"))
	other := []string{copyTree(t, "../../seeds", filepath.Join(dir, "b")), copyTree(t, "testdata/ok", filepath.Join(dir, "b"))}
	os.Remove(filepath.Join(other[0], "seeds.go"))
	full, err := Load(paths, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	slim, err := Load(other, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	slim.DropText()
	for _, c := range slim.Cases {
		if c.Title.EN != "" || c.Summary.EN != "" || len(c.Remediation) > 0 || c.ID == "" {
			t.Fatalf("%s: text kept after DropText", c.ID)
		}
	}
	rel := newRelated(full, 3)
	if _, err := WriteRelated(full, rel); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteRelated(slim, rel); err != nil {
		t.Fatal(err)
	}
	for i, f := range full.files {
		if a, b := mustRead(t, f.path), mustRead(t, slim.files[i].path); !bytes.Equal(a, b) {
			t.Fatalf("%s: written bytes differ after DropText", f.display)
		}
	}
	// A file edited after loading is still refused.
	again, err := Load(other, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again.DropText()
	f := again.files[len(again.files)-1].path
	b := mustRead(t, f)
	if err := os.WriteFile(f, append(b, ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteRelated(again, newRelated(again, 1)); err == nil || !strings.Contains(err.Error(), "changed since it was loaded") {
		t.Fatalf("edited file after DropText: %v", err)
	}
}
