//go:build unix

package maptest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A file mapped shows as mapped and live; removed, as mapped and
// replaced; unmapped, not at all.
func TestMappedAndUnder(t *testing.T) {
	if !Available() {
		t.Skip("no /proc/self/maps here")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "with space.idx")
	if err := os.WriteFile(path, make([]byte, 8192), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, 8192, syscall.PROT_READ, syscall.MAP_SHARED)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if live, replaced := Under(t, dir); !Mapped(t, path) || live != 1 || replaced != 0 {
		t.Errorf("mapped: Mapped %v, Under %d live %d replaced; want true, 1, 0", Mapped(t, path), live, replaced)
	}
	if Mapped(t, path[:len(path)-1]) {
		t.Error("a prefix of the path counts as mapped")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if live, replaced := Under(t, dir); !Mapped(t, path) || live != 0 || replaced != 1 {
		t.Errorf("removed: Mapped %v, Under %d live %d replaced; want true, 0, 1", Mapped(t, path), live, replaced)
	}
	if err := syscall.Munmap(data); err != nil {
		t.Fatal(err)
	}
	if live, replaced := Under(t, dir); Mapped(t, path) || live+replaced != 0 {
		t.Errorf("unmapped: Mapped %v, Under %d live %d replaced; want false, 0, 0", Mapped(t, path), live, replaced)
	}
}
