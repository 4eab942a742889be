//go:build !unix

package indexfile

import "os"

// mapFile reads the file at path whole where mmap is not available.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }

// unmap has nothing to release for a file read into memory.
func unmap([]byte) {}

// dropPages has nothing to drop for a file read into memory.
func dropPages([]byte) {}
