// Package sharedtest finds, for tests and benchmarks, the data that lives
// outside the repository: the ../shared folder beside the module's root
// (judged sets, corpora, the reference scorer). That data belongs to others
// and is never copied into the repository.
//
// Outside CI a test whose data is absent skips. With CASELINK_REQUIRE_SHARED=1
// (set by .ci/run, where ../shared is always present) it fails instead, so a
// CI run that lost the data cannot pass by skipping.
package sharedtest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// RequireEnv is the environment variable that turns absent shared data from
// a skip into a failure.
const RequireEnv = "CASELINK_REQUIRE_SHARED"

var root = sync.OnceValue(func() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(dir), "shared")
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
})

// Path returns the path of rel (slash-separated, e.g.
// "data/incidents/cases.jsonl") inside the shared folder, whether or not it
// exists.
func Path(rel string) string {
	r := root()
	if r == "" {
		return filepath.FromSlash("../shared/" + rel) // no module root: nothing will be found
	}
	return filepath.Join(r, filepath.FromSlash(rel))
}

// required reports whether absent shared data fails tests
// (CASELINK_REQUIRE_SHARED=1).
func required() bool { return os.Getenv(RequireEnv) == "1" }

// Present reports whether every path exists. When one does not and shared
// data is required, it fails tb; otherwise the caller decides (skip the
// test, or leave the data out).
func Present(tb testing.TB, paths ...string) bool {
	tb.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			if required() {
				tb.Fatalf("shared data absent (%s=1): %v", RequireEnv, err)
			}
			return false
		}
	}
	return true
}

// Need skips tb unless every path exists; with shared data required, it
// fails tb instead.
func Need(tb testing.TB, paths ...string) {
	tb.Helper()
	if !Present(tb, paths...) {
		tb.Skipf("shared data absent (%v); set it up beside the repository as ../shared", paths)
	}
}
