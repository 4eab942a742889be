package serve

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/api"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/indexfile/maptest"
)

// A streamed server's reload replaces an index opened from a file that the
// new one was saved over: the replaced file stays mapped while a request
// that started before the reload reads it, and is given back once that
// request has answered, or at once when none was reading it.
func TestReloadGivesBackReplacedIndexFiles(t *testing.T) {
	s, ts, saved := fileIndexServer(t)

	request := s.acquire() // a request in flight across the reload
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if !maptest.Mapped(t, (*saved)[0]) {
		t.Fatal("the replaced index file was given back while a request still read it")
	}
	if r := request.ix.Match(similarity.Query{Text: onCallPaste, K: 3}); len(r.Hits) == 0 || r.Hits[0].ID != "IL-0191" {
		t.Errorf("the request in flight got %+v, want IL-0191 first", r.Hits)
	}
	request.release()
	if maptest.Mapped(t, (*saved)[0]) {
		t.Error("the replaced index file is still mapped after the last request reading it answered")
	}
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if maptest.Mapped(t, (*saved)[1]) {
		t.Error("a reload with no request in flight left the replaced index file mapped")
	}
	if !maptest.Mapped(t, (*saved)[2]) {
		t.Error("the index file serving is not mapped")
	}
	for range 3 { // requests' releases leave the serving index open
		checkMatch(t, ts.URL)
	}
}

// fileIndexServer starts a server of the seeds whose every load saves its
// index to a file of its own and serves it opened from there, as the
// CLI's streaming build does; saved lists the files, each removed once
// opened, as the next save's rename over it does. The test is skipped
// where the process's mappings cannot be read.
func fileIndexServer(t *testing.T) (s *Server, ts *httptest.Server, saved *[]string) {
	if !maptest.Available() {
		t.Skip("cannot read the process's mappings here")
	}
	saved = new([]string)
	dir, files := t.TempDir(), t.TempDir()
	copySeeds(t, dir)
	cfg := similarity.DefaultConfig()
	var mu sync.Mutex
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
		mu.Lock()
		path := filepath.Join(files, fmt.Sprintf("index-%d", len(*saved)))
		*saved = append(*saved, path)
		mu.Unlock()
		if err := built.SaveCache(path, key); err != nil {
			return Streamed{}, false, err
		}
		ix, err := similarity.OpenCacheLazy(path, key, cfg, func(i int) (*caselib.Case, error) { return lib.Cases[i], nil })
		if err != nil {
			return Streamed{}, false, err
		}
		return Streamed{Index: ix}, true, os.Remove(path)
	}
	s, ts = newTestServer(t, opts)
	return s, ts, saved
}

// Requests answer while reloads replace the index under them, each
// reading the index it started on to the end, and the replaced files are
// all given back once the requests are done.
func TestRequestsAcrossReloads(t *testing.T) {
	s, ts, saved := fileIndexServer(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				var got api.HitList
				resp, err := tryDo(http.DefaultClient, "POST", ts.URL+"/api/match", matchBody(onCallPaste, 3), &got)
				if err == nil && (resp.StatusCode != 200 || len(got.Hits) == 0 || got.Hits[0].ID != "IL-0191") {
					err = fmt.Errorf("status %d, hits %+v", resp.StatusCode, got.Hits)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for range 10 {
		if err := s.Reload(); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a request during the reloads: %v", err)
	}
	for _, path := range (*saved)[:len(*saved)-1] {
		if maptest.Mapped(t, path) {
			t.Errorf("%s, replaced, is still mapped after the requests answered", filepath.Base(path))
		}
	}
}
