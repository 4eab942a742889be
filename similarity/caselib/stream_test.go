package caselib

import (
	"errors"
	"fmt"
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
