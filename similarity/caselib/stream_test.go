package caselib

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Stream hands over the cases Load gives, in the same order, keeps none
// of them, and records the same spans; strict or lenient, on good and bad
// libraries, it says the same warnings and errors.
func TestStreamIsLoad(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		paths   []string
		lenient bool
	}{
		{[]string{"testdata/ok"}, false},
		{[]string{"testdata/ok/crlf.jsonl", "testdata/ok"}, false},
		{[]string{"testdata/bad"}, true},
		{[]string{"testdata/bad/dup.jsonl"}, false},
		{[]string{"testdata/bad/dupdir"}, true},
		{[]string{"testdata/bad/notutf8.json", "testdata/ok"}, true},
	} {
		name := fmt.Sprint(tc.paths, tc.lenient)
		var wantWarn, gotWarn []string
		lib, err := Load(tc.paths, LoadOptions{Lenient: tc.lenient, Warn: func(err error) { wantWarn = append(wantWarn, err.Error()) }})
		var ids []string
		slib, serr := Stream(tc.paths, LoadOptions{Lenient: tc.lenient, Warn: func(err error) { gotWarn = append(gotWarn, err.Error()) }},
			func(c *Case) error { ids = append(ids, c.ID); return nil })
		if fmt.Sprint(err) != fmt.Sprint(serr) || !reflect.DeepEqual(wantWarn, gotWarn) {
			t.Errorf("%s: Stream says %v, %q; Load %v, %q", name, serr, gotWarn, err, wantWarn)
			continue
		}
		if err != nil {
			continue
		}
		var want []string
		for _, c := range lib.Cases {
			want = append(want, c.ID)
		}
		if !reflect.DeepEqual(ids, want) || slib.Len() != lib.Len() || slib.Skipped != lib.Skipped || len(slib.Cases) != 0 {
			t.Errorf("%s: streamed %v (%d, skipped %d), loaded %v (skipped %d)", name, ids, slib.Len(), slib.Skipped, want, lib.Skipped)
		}
		f1, s1, ok1 := lib.Spans()
		f2, s2, ok2 := slib.Spans()
		if ok1 != ok2 || !reflect.DeepEqual(f1, f2) || !reflect.DeepEqual(s1, s2) {
			t.Errorf("%s: spans differ", name)
		}
		for _, id := range want {
			if !slib.Holds(id) || !lib.Holds(id) {
				t.Errorf("%s: %s not held", name, id)
			}
		}
		if slib.Holds("no such case") {
			t.Errorf("%s: holds a case it does not have", name)
		}
	}
}

// A lenient load skips a file that turns out not to be UTF-8 past its
// first chunk whole; cases of it already handed over cannot be taken
// back, so Stream says so instead of giving a library Load would not.
// Its caller's error stops it too.
func TestStreamRetracts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; b.Len() < 2*chunkSize; i++ {
		fmt.Fprintf(&b, `{"id":"C-%d","title":"case %d %s"}`+"\n", i, i, strings.Repeat("x", 200))
	}
	b.WriteString("{\"id\":\"BAD\",\"title\":\"\xff\"}\n")
	path := filepath.Join(dir, "big.jsonl")
	writeFile(t, path, b.String())
	if lib, err := Load([]string{path}, LoadOptions{Lenient: true, Warn: func(error) {}}); err != nil || lib.Len() != 0 || lib.Skipped != 1 {
		t.Fatalf("Load does not skip the file whole: %v", err)
	}
	n := 0
	_, err := Stream([]string{path}, LoadOptions{Lenient: true, Warn: func(error) {}}, func(*Case) error { n++; return nil })
	if !errors.Is(err, ErrRetracted) || n == 0 {
		t.Errorf("Stream after handing over %d cases: %v, want ErrRetracted", n, err)
	}
	stop := errors.New("stop")
	n = 0
	_, err = Stream([]string{path}, LoadOptions{}, func(*Case) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("the caller's error: %v after %d cases", err, n)
	}
}

// StreamForWrite keeps of each case only what WriteRelated needs, in load
// order, and the library it gives writes the same bytes as the library
// Load gives; a file edited since it was streamed is refused.
func TestStreamForWriteWritesAsLoad(t *testing.T) {
	dir := t.TempDir()
	tree := func(name string) []string {
		paths := []string{copyTree(t, "../../seeds", filepath.Join(dir, name)), copyTree(t, "testdata/ok", filepath.Join(dir, name))}
		os.Remove(filepath.Join(paths[0], "seeds.go"))
		return paths
	}
	loadedPaths, streamedPaths := tree("a"), tree("b")
	full, err := Load(loadedPaths, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	titled := 0
	slim, err := StreamForWrite(streamedPaths, LoadOptions{}, func(c *Case) error {
		if c.Title.EN != "" {
			titled++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if titled == 0 {
		t.Fatal("the cases were handed over without their text")
	}
	if len(slim.Cases) != len(full.Cases) || slim.Len() != full.Len() {
		t.Fatalf("streamed %d cases (Len %d), loaded %d", len(slim.Cases), slim.Len(), len(full.Cases))
	}
	for i, c := range slim.Cases {
		want := full.Cases[i]
		if c.ID != want.ID || !reflect.DeepEqual(c.Related, want.Related) || c.Loc.Line != want.Loc.Line || slim.ByID(c.ID) != c {
			t.Fatalf("case %d: streamed %s %v line %d, loaded %s %v line %d", i, c.ID, c.Related, c.Loc.Line, want.ID, want.Related, want.Loc.Line)
		}
		if c.Title.EN != "" || c.Summary.EN != "" || len(c.Remediation) > 0 {
			t.Fatalf("%s: text kept", c.ID)
		}
	}
	rel := newRelated(full, 3)
	if _, err := WriteRelated(full, rel); err != nil {
		t.Fatal(err)
	}
	written, err := WriteRelated(slim, rel)
	if err != nil || len(written) == 0 {
		t.Fatalf("writing the streamed library: %v, %v", written, err)
	}
	for i, f := range full.files {
		if a, b := mustRead(t, f.path), mustRead(t, slim.files[i].path); !bytes.Equal(a, b) {
			t.Fatalf("%s: the streamed library wrote other bytes", f.display)
		}
	}
	again, err := StreamForWrite(streamedPaths, LoadOptions{}, func(*Case) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	f := again.files[len(again.files)-1].path
	if err := os.WriteFile(f, append(mustRead(t, f), ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteRelated(again, newRelated(again, 1)); err == nil || !strings.Contains(err.Error(), "changed since it was loaded") {
		t.Fatalf("a file edited after streaming: %v", err)
	}
}
