package caselib

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// Every case of a library is read again from its span as Load decoded it,
// in every shape of file: JSON Lines (with a byte order mark and CRLF), one
// case per file, a pretty-printed file, a list of cases, and the seeds.
func TestReadCaseAtSpan(t *testing.T) {
	dir := copyTree(t, "testdata/ok", t.TempDir())
	list := `[` + "\n" + `  {"id":"L-1","title":"first of a list"},` + "\n" + `  {"id":"L-2","title":{"en":"second","ko":"둘째"}}` + "\n]\n"
	writeFile(t, filepath.Join(dir, "list.json"), list)
	writeFile(t, filepath.Join(dir, "bom.jsonl"), "\xef\xbb\xbf"+`{"id":"B-1","title":"bom line"}`+"\r\n\n"+`{"id":"B-2","org":"x"}`+"\n")
	for _, load := range []func() (*Library, error){
		func() (*Library, error) { return Load([]string{dir}, LoadOptions{}) },
		LoadSeeds,
	} {
		lib, err := load()
		if err != nil {
			t.Fatal(err)
		}
		files, spans, ok := lib.Spans()
		if !ok || len(spans) != len(lib.Cases) {
			t.Fatalf("Spans: ok %v, %d spans for %d cases", ok, len(spans), len(lib.Cases))
		}
		for i, c := range lib.Cases {
			sp := spans[i]
			name := files[sp.File]
			if name != c.Loc.File {
				t.Fatalf("%s: span names %s", c.Loc, name)
			}
			var r interface {
				ReadAt([]byte, int64) (int, error)
			}
			if rs, err := SeedReader(name); err == nil && filepath.Dir(name) == "seeds" {
				r = rs
			} else {
				f, err := os.Open(name)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				r = f
			}
			got, err := ReadCase(r, name, sp)
			if err != nil {
				t.Fatalf("%s: %v", c.Loc, err)
			}
			if !sameModel(got, c) || got.Loc != c.Loc {
				t.Errorf("%s: read again as\n%+v\nloaded as\n%+v", c.Loc, got, c)
			}
		}
	}
}

// A span whose bytes changed is refused with ErrChanged, not misread.
func TestReadCaseRefusesChangedBytes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.jsonl")
	writeFile(t, p, `{"id":"A-1","title":"disk full"}`+"\n"+`{"id":"A-2","title":"cert expired"}`+"\n")
	lib, err := Load([]string{p}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, spans, _ := lib.Spans()
	writeFile(t, p, `{"id":"A-1","title":"disk fall"}`+"\n"+`{"id":"A-2","title":"cert expired"}`+"\n")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := ReadCase(f, p, spans[0]); !errors.Is(err, ErrChanged) {
		t.Errorf("changed bytes: %v, want ErrChanged", err)
	}
	if c, err := ReadCase(f, p, spans[1]); err != nil || c.ID != "A-2" {
		t.Errorf("unchanged case: %v, %v", c, err)
	}
	writeFile(t, p, `{"id":"A-1"}`)
	if _, err := ReadCase(f, p, spans[1]); !errors.Is(err, ErrChanged) {
		t.Errorf("file cut short: %v, want ErrChanged", err)
	}
}

// FileStamps tells apart what size and modification time alone do not: an
// edit that keeps the size and sets the time back, and a file replaced by
// another through a rename.
func TestFileStampsSeeWhatTimesHide(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.jsonl")
	writeFile(t, p, `{"id":"A-1","title":"disk full"}`+"\n")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	before := FileStamps([]string{dir})
	if len(before) != 1 || before[0].Name != p || before[0].Err != "" {
		t.Fatalf("stamps %+v", before)
	}
	if again := FileStamps([]string{dir}); !reflect.DeepEqual(again, before) {
		t.Fatal("stamps of an unchanged folder differ")
	}
	time.Sleep(20 * time.Millisecond) // past the clock's tick
	writeFile(t, p, `{"id":"A-1","title":"disk fall"}`+"\n")
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	after := FileStamps([]string{dir})
	if after[0].Size != before[0].Size || after[0].MTime != before[0].MTime {
		t.Fatal("the test's edit should keep size and time")
	}
	if hasSysStamps && reflect.DeepEqual(after, before) {
		t.Error("an edit of the same size with its time set back leaves the stamps equal")
	}
	tmp := filepath.Join(dir, ".new")
	writeFile(t, tmp, `{"id":"A-1","title":"disk full"}`+"\n")
	os.Chtimes(tmp, old, old)
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	if renamed := FileStamps([]string{dir}); hasSysStamps && renamed[0].Ino == after[0].Ino {
		t.Error("a file replaced by a rename keeps its inode in the stamps")
	}
	writeFile(t, filepath.Join(dir, "more.json"), `{"id":"A-2"}`)
	if grown := FileStamps([]string{dir}); len(grown) != 2 {
		t.Errorf("a folder gaining a file: %d stamps", len(grown))
	}
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
