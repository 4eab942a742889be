package caselib

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestStampFollowsLoadRules: the stamp changes when a file Load reads
// changes, appears or goes, and not when a file Load skips does.
func TestStampFollowsLoadRules(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, age time.Duration) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(age)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	write("a.json", `{"id":"A"}`, 0)
	write("sub/b.jsonl", `{"id":"B"}`, 0)
	paths := []string{dir}
	base := Stamp(paths)
	if base == 0 || Stamp(paths) != base {
		t.Fatalf("stamp of an unchanged folder: %x then %x", base, Stamp(paths))
	}
	for _, skipped := range []string{"notes.md", ".hidden.json", ".git/x.json", "sub/README"} {
		write(skipped, "x", 0)
		if got := Stamp(paths); got != base {
			t.Errorf("writing %s (not a case file) changed the stamp", skipped)
		}
	}
	for _, tt := range []struct {
		what string
		do   func()
	}{
		{"a newer a.json", func() { write("a.json", `{"id":"A"}`, time.Second) }},
		{"a longer sub/b.jsonl", func() { write("sub/b.jsonl", `{"id":"B2"}`, time.Second) }},
		{"a new c.txt", func() { write("c.txt", "id: C", 0) }},
		{"a.json removed", func() { os.Remove(filepath.Join(dir, "a.json")) }},
	} {
		tt.do()
		if got := Stamp(paths); got == base {
			t.Errorf("%s left the stamp unchanged", tt.what)
		} else {
			base = got
		}
	}
	if Stamp(nil) != 0 {
		t.Error("Stamp(nil) != 0")
	}
}
