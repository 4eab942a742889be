package serve

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// mapped reports whether the process maps the file at path.
func mapped(t *testing.T, path string) bool {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(maps), path)
}

// A streamed server's reload replaces an index opened from a file that the
// new one was saved over: the replaced file stays mapped while a request
// that started before the reload reads it, and is given back once that
// request has answered, or at once when none was reading it.
func TestReloadGivesBackReplacedIndexFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/maps")
	}
	dir, files := t.TempDir(), t.TempDir()
	copySeeds(t, dir)
	cfg := similarity.DefaultConfig()
	var saved []string
	opts := testOptions(dir)
	opts.Stream = func(prev *similarity.Index) (Streamed, bool, error) {
		lib, err := caselib.Load([]string{dir}, caselib.LoadOptions{})
		if err != nil {
			return Streamed{}, false, err
		}
		built, err := similarity.BuildCases(lib.Cases, cfg)
		if err != nil {
			return Streamed{}, false, err
		}
		key := similarity.CacheKeyOf(similarity.DocsSum(similarity.Documents(lib.Cases)), cfg, "test")
		path := filepath.Join(files, fmt.Sprintf("index-%d", len(saved)))
		if err := built.SaveCache(path, key); err != nil {
			return Streamed{}, false, err
		}
		ix, err := similarity.OpenCacheLazy(path, key, cfg, func(i int) (*caselib.Case, error) { return lib.Cases[i], nil })
		if err != nil {
			return Streamed{}, false, err
		}
		saved = append(saved, path)
		return Streamed{Index: ix}, true, os.Remove(path) // as the next save's rename over it does
	}
	s, ts := newTestServer(t, opts)

	request := s.acquire() // a request in flight across the reload
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if !mapped(t, saved[0]) {
		t.Fatal("the replaced index file was given back while a request still read it")
	}
	if r := request.ix.Match(similarity.Query{Text: onCallPaste, K: 3}); len(r.Hits) == 0 || r.Hits[0].ID != "IL-0191" {
		t.Errorf("the request in flight got %+v, want IL-0191 first", r.Hits)
	}
	request.release()
	if mapped(t, saved[0]) {
		t.Error("the replaced index file is still mapped after the last request reading it answered")
	}
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if mapped(t, saved[1]) {
		t.Error("a reload with no request in flight left the replaced index file mapped")
	}
	if !mapped(t, saved[2]) {
		t.Error("the index file serving is not mapped")
	}
	for range 3 { // requests' releases leave the serving index open
		checkMatch(t, ts.URL)
	}
}
