package caselib

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// addSeeds adds the small fixtures to a fuzz corpus. Big inputs (the seed
// cases) are left out: the fuzzing engine spends minutes minimizing them.
func addSeeds(f *testing.F, add func(b []byte)) {
	for _, dir := range []string{"testdata/ok", "testdata/ok/sub", "testdata/bad"} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if b, err := os.ReadFile(dir + "/" + e.Name()); err == nil && !e.IsDir() && len(b) <= 2048 {
				add(b)
			}
		}
	}
}

// FuzzLoad: loading arbitrary bytes never panics, and every case it accepts
// decodes the same way with encoding/json.
func FuzzLoad(f *testing.F) {
	addSeeds(f, func(b []byte) { f.Add(b) })
	f.Add([]byte("{\"id\":\"a\"}\n\n{\"id\":\"b\",\"related\":[\"a\"]}\r\n"))
	f.Add([]byte("[\n {\"id\":\"a\"},\n {\"id\":\"b\",\"date\":\"2024-02\"}\n]"))
	f.Add([]byte(`{"id":"a","title":{"en":"\ud800x","ko":"\u00e9"},"remediation":[{"text":"t"},{"en":"e"},"s",null]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var warns int
		lenient, err := Load([]string{"-"}, LoadOptions{Stdin: bytes.NewReader(data), Lenient: true, Warn: func(error) { warns++ }})
		if err != nil {
			t.Fatalf("lenient load failed: %v", err)
		}
		if lenient.Skipped != warns {
			t.Fatalf("Skipped %d, %d warnings", lenient.Skipped, warns)
		}
		lib, err := Load([]string{"-"}, LoadOptions{Stdin: bytes.NewReader(data)})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("bad error %q", err)
			}
			return
		}
		if !utf8.Valid(data) || lenient.Skipped != 0 || len(lenient.Cases) != len(lib.Cases) {
			t.Fatalf("strict load accepted what lenient load skipped (%d)", lenient.Skipped)
		}
		var elems []json.RawMessage
		if lib.files[0].list {
			if err := json.Unmarshal(data, &elems); err != nil {
				t.Fatalf("accepted an invalid list: %v", err)
			}
		}
		objs := objects(t, data, lib.files[0].lines)
		if n := max(len(objs), len(elems)); lib.files[0].list && len(elems) != len(lib.Cases) || !lib.files[0].list && len(objs) != len(lib.Cases) {
			t.Fatalf("%d cases from %d objects", len(lib.Cases), n)
		}
		for i, c := range lib.Cases {
			obj := objs[c.Loc.Line]
			if lib.files[0].list {
				obj = elems[i]
			}
			if !json.Valid(obj) {
				t.Fatalf("accepted invalid JSON %q", obj)
			}
			if c.ID == "" || !sameModel(c, refCase(t, obj)) {
				t.Fatalf("case %+v differs from encoding/json's %+v", *c, *refCase(t, obj))
			}
		}
	})
}

// FuzzSpliceRelated: splicing never panics; on a valid JSON object it gives
// a valid object whose "related" is the ids and whose other bytes are kept.
func FuzzSpliceRelated(f *testing.F) {
	addSeeds(f, func(b []byte) { f.Add(b, "IL-0191\x00IL-0100") })
	f.Add([]byte(`{}`), "")
	f.Add([]byte("{\n  \"a\": [\n    1,\n    2\n  ]\n}"), "x")
	f.Add([]byte(`{"related":1,"rel\u0061ted":2}`), "x")
	f.Fuzz(func(t *testing.T, obj []byte, joined string) {
		var ids []string
		if joined != "" {
			ids = strings.Split(joined, "\x00")
		}
		out, err := SpliceRelated(obj, ids)
		var m map[string]json.RawMessage
		isObject := json.Valid(obj) && json.Unmarshal(obj, &m) == nil
		validIDs := true
		for _, id := range ids {
			validIDs = validIDs && utf8.ValidString(id)
		}
		if err != nil {
			if isObject && validIDs && !strings.Contains(err.Error(), `two "related" members`) {
				t.Fatalf("valid object refused: %v", err)
			}
			return
		}
		if !isObject || !validIDs {
			t.Fatalf("accepted bad input %q %q", obj, ids)
		}
		if !json.Valid(out) {
			t.Fatalf("invalid result %q", out)
		}
		var got struct{ Related []string }
		var gm map[string]json.RawMessage
		json.Unmarshal(out, &gm)
		json.Unmarshal(gm["related"], &got.Related)
		if len(ids) == 0 && len(got.Related) == 0 {
			got.Related = ids
		}
		if !reflect.DeepEqual(got.Related, ids) {
			t.Fatalf("related %q, want %q", got.Related, ids)
		}
		checkSpliced(t, obj, out, ids)
	})
}

// FuzzDecisionFile: a decisions file a curator edited by hand either loads,
// every decision in it valid, or gives a one-line error that names the file;
// it never panics. A decision recorded into a file that loads keeps every
// other pair's decision and the comments, and reads back.
func FuzzDecisionFile(f *testing.F) {
	f.Add([]byte(decisionsHeader+"\na\tb\tnot-duplicate\t2024-01-02\n"), "c", "d")
	f.Add([]byte("a\tb\tduplicate\r\n\n# note\nb\ta\tnot-duplicate\t2024-02-30\n"), "a", "b")
	f.Add([]byte("a\tb\n"), "x", "y")
	f.Fuzz(func(t *testing.T, data []byte, a, b string) {
		path := fuzzFile(t, "decisions.tsv", data)
		s := NewDecisionFile(path)
		s.Now = fuzzNow
		ds, err := s.Load()
		if err != nil {
			checkFileError(t, path, err)
			return
		}
		for _, d := range ds {
			if err := d.Check(); err != nil {
				t.Fatalf("loaded an invalid decision %+v: %v", d, err)
			}
		}
		d := Decision{A: a, B: b, Verdict: Duplicate}
		if d.Check() != nil {
			return
		}
		if err := s.Record(d); err != nil {
			t.Fatalf("record into a file that loads: %v", err)
		}
		after, err := s.Load()
		if err != nil {
			t.Fatalf("the file written does not load: %v", err)
		}
		k := PairKey(a, b)
		want := slices.DeleteFunc(slices.Clone(ds), func(x Decision) bool { return PairKey(x.A, x.B) == k })
		var got []Decision
		found := false
		for _, x := range after {
			if PairKey(x.A, x.B) == k {
				found = x.Verdict == Duplicate
				continue
			}
			got = append(got, x)
		}
		if !found || !slices.Equal(got, want) {
			t.Fatalf("after recording %v: %+v, want %+v and the pair", k, after, want)
		}
		written, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		before := comments(data)
		if before == nil && !bytes.Equal(written, data) {
			before = []string{decisionsHeader} // a file rewritten gets the header
		}
		if c := comments(written); !reflect.DeepEqual(c, before) {
			t.Fatalf("comments %q, want %q", c, before)
		}
	})
}

// comments returns the comment lines of a decisions file: those that start
// with # and are not a decision of an id starting with #.
func comments(data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimRight(l, "\r"); strings.HasPrefix(l, "#") && !decisionLine(l) {
			out = append(out, l)
		}
	}
	return out
}

// FuzzFeedbackFile: a feedback file either loads or gives a one-line error
// naming the file and line; it never panics. Feedback recorded into a file
// that loads reads back after what was there, which is kept.
func FuzzFeedbackFile(f *testing.F) {
	f.Add([]byte(`{"paste":"p","id":"A","helpful":true,"date":"2025-01-02"}`+"\n"), "disk full\n", "#4711")
	f.Add([]byte("\n{\"paste\":\"q\",\"id\":\"B\",\"helpful\":false,\"date\":\"2025-01-02\"}\r\n"), "x", "B")
	f.Add([]byte("{\"paste\":\"q\""), "x", "B")
	f.Fuzz(func(t *testing.T, data []byte, paste, id string) {
		path := fuzzFile(t, FeedbackName, data)
		s := NewFeedbackFile(path)
		s.Now = fuzzNow
		before, err := s.Load()
		if err != nil {
			checkFileError(t, path, err)
			return
		}
		fb := Feedback{Paste: paste, ID: id, Helpful: true}
		if err := s.Record(fb); err != nil {
			if strings.TrimSpace(paste) != "" && id != "" {
				t.Fatalf("record: %v", err)
			}
			return
		}
		after, err := s.Load()
		if err != nil {
			t.Fatalf("the file written does not load: %v", err)
		}
		fb.Date = "2025-03-04"
		if !utf8.ValidString(paste) || !utf8.ValidString(id) {
			// encoding/json writes invalid UTF-8 as U+FFFD: compare lengths only.
			if len(after) != len(before)+1 {
				t.Fatalf("%d feedback after recording into %d", len(after), len(before))
			}
			return
		}
		if want := append(slices.Clone(before), fb); !reflect.DeepEqual(after, want) {
			t.Fatalf("after recording: %+v, want %+v", after, want)
		}
	})
}

// fuzzFile writes data to a file named name in a new folder and returns its
// path.
func fuzzFile(t *testing.T, name string, data []byte) string {
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fuzzNow is the fixed clock of the fuzz targets that record.
func fuzzNow() time.Time { return time.Date(2025, 3, 4, 0, 0, 0, 0, time.UTC) }

// checkFileError fails t unless err is one line that names the file.
func checkFileError(t *testing.T, path string, err error) {
	t.Helper()
	if !strings.HasPrefix(err.Error(), path) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("bad error %q", err)
	}
}
