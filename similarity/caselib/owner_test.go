//go:build unix

package caselib

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A rewritten file keeps its owner and group (the process must be root to
// give a file to another user).
func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to own a file as another user")
	}
	path := filepath.Join(t.TempDir(), "decisions.tsv")
	if err := os.WriteFile(path, []byte("old\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 4242, 4343); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	sys := st.Sys().(*syscall.Stat_t)
	if sys.Uid != 4242 || sys.Gid != 4343 || st.Mode().Perm() != 0o640 {
		t.Errorf("after the rewrite: owner %d:%d mode %v, want 4242:4343 -rw-r-----", sys.Uid, sys.Gid, st.Mode().Perm())
	}
}
