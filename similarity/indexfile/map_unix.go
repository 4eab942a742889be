//go:build unix

package indexfile

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the file at path read-only and private. A file replaced
// by rename while mapped stays whole in the mapping; cache files are only
// ever replaced that way, never written in place.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := info.Size()
	if size == 0 {
		return nil, fmt.Errorf("%w: empty file", ErrCorrupt)
	}
	if size != int64(int(size)) {
		return nil, fmt.Errorf("%w: file too large to map", ErrCorrupt)
	}
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
}

// unmap releases a mapping of a file that was not used.
func unmap(data []byte) { syscall.Munmap(data) }

// dropPages tells the kernel that the process no longer needs the pages of
// a mapping it has read: they leave its resident memory and are read again
// (from the page cache, or the file) when next touched.
func dropPages(data []byte) { syscall.Madvise(data, syscall.MADV_DONTNEED) }
