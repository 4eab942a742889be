package caselib

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// WriteFileAtomic keeps the mode of the file it replaces, writes through a
// symbolic link, creates a new file with perm, and leaves the file as it was
// when any step fails.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "decisions.tsv")
	if err := WriteFileAtomic(p, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Fatalf("new file mode %v, want 0644", st.Mode().Perm())
	}
	os.Chmod(p, 0o664)
	if err := WriteFileAtomic(p, []byte("two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o664 || !bytes.Equal(mustRead(t, p), []byte("two\n")) {
		t.Fatalf("after rewrite: mode %v, content %q; want 0664, \"two\\n\"", st.Mode().Perm(), mustRead(t, p))
	}
	link := filepath.Join(dir, "link.tsv")
	if err := os.Symlink("decisions.tsv", link); err != nil {
		t.Skip("no symbolic links here")
	}
	if err := WriteFileAtomic(link, []byte("three\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 || !bytes.Equal(mustRead(t, p), []byte("three\n")) {
		t.Fatal("writing through the link replaced the link or missed its target")
	}
	for _, step := range []string{"write", "sync", "rename"} {
		injected := errors.New("injected")
		testHook = func(s, file string) error {
			if s == step {
				return injected
			}
			return nil
		}
		err := WriteFileAtomic(p, []byte("four\n"), 0o644)
		testHook = nil
		if !errors.Is(err, injected) {
			t.Fatalf("%s: error %v, want the injected failure", step, err)
		}
		if !bytes.Equal(mustRead(t, p), []byte("three\n")) {
			t.Fatalf("%s: the file changed after a failed write", step)
		}
		if left := tmpFiles(t, dir); len(left) != 0 {
			t.Fatalf("%s: temporary files left: %v", step, left)
		}
	}
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "x.tsv"), []byte("x"), 0o644); err == nil {
		t.Fatal("writing into a missing folder succeeded")
	}
}

// WriteFile streams into the file; a failing write leaves the file, its
// mode and its folder as they were.
func TestWriteFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "out.jsonl")
	if err := WriteFile(name, 0o640, func(w io.Writer) error { _, err := io.WriteString(w, "one\n"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(name, 0o640, func(w io.Writer) error { io.WriteString(w, "partial"); return boom })
	if err != boom {
		t.Errorf("a failing write gave %v", err)
	}
	b, _ := os.ReadFile(name)
	st, _ := os.Stat(name)
	ents, _ := os.ReadDir(filepath.Dir(name))
	if string(b) != "one\n" || st.Mode().Perm() != 0o640 || len(ents) != 1 {
		t.Errorf("after a failed write: %q, mode %v, %d entries in the folder", b, st.Mode().Perm(), len(ents))
	}
}
