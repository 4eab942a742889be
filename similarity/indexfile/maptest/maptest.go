// Package maptest tells tests which files their process maps, read from
// /proc/self/maps (Linux), so that a test can check that an index file
// replaced on disk is given back (similarity.Index.Close) and not held for
// the life of a server. Elsewhere there is nothing to read: Available is
// false and the tests that need it skip.
package maptest

import (
	"os"
	"strings"
	"testing"
)

const mapsFile = "/proc/self/maps"

// deleted is what the kernel appends to the path of a file that was
// removed or renamed over since it was mapped.
const deleted = " (deleted)"

// Available reports whether the process's mappings can be read here.
func Available() bool {
	_, err := os.Stat(mapsFile)
	return err == nil
}

// paths returns the path of each file mapping, once per mapped region,
// and whether the file was deleted since.
func paths(t testing.TB) (out []string, gone []bool) {
	t.Helper()
	maps, err := os.ReadFile(mapsFile)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(maps)) {
		line = strings.TrimSuffix(line, "\n")
		// address perms offset dev inode path: the path is what follows
		// the fifth field, and may hold spaces.
		f := strings.Fields(line)
		if len(f) < 6 {
			continue
		}
		p := line[strings.Index(line, f[5]):]
		out = append(out, strings.TrimSuffix(p, deleted))
		gone = append(gone, strings.HasSuffix(p, deleted))
	}
	return out, gone
}

// Mapped reports whether the process maps the file at path, deleted since
// or not.
func Mapped(t testing.TB, path string) bool {
	t.Helper()
	ps, _ := paths(t)
	for _, p := range ps {
		if p == path {
			return true
		}
	}
	return false
}

// Under counts the mapped regions of files under dir: of files still there
// (live) and of files removed or renamed over since they were mapped
// (replaced).
func Under(t testing.TB, dir string) (live, replaced int) {
	t.Helper()
	ps, gone := paths(t)
	prefix := strings.TrimSuffix(dir, "/") + "/"
	for i, p := range ps {
		switch {
		case !strings.HasPrefix(p, prefix):
		case gone[i]:
			replaced++
		default:
			live++
		}
	}
	return live, replaced
}
