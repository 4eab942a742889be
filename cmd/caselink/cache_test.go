package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/caselink/caselink/cmd/caselink/internal/serve"
	"github.com/caselink/caselink/seeds"
	"github.com/caselink/caselink/similarity"
)

// cacheLibrary writes a library folder: the seed cases and cases of a few
// organisations sharing words, tags and days, so that match, relate and
// dupes all have something to say.
func cacheLibrary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	ents, err := os.ReadDir(seedsDir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".json") {
			b, err := seeds.FS.ReadFile(e.Name())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	what := []string{"connection pool exhausted on the primary database", "pods OOM-killed after a rollout",
		"certificate expired on the load balancer", "DNS resolution failed for internal services",
		"disk full on the logging nodes", "queue backlog after a consumer deploy"}
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, `{"id":"FX-%03d","org":"Org %d","date":"2023-%02d-%02d","domain":["d%d"],"title":{"en":"%s at site %d"},"summary":{"en":"%s; customers in region %d saw errors until it was mitigated."},"related":[]}`+"\n",
			i, i%7, 1+i%12, 1+i%5, i%3, what[i%len(what)], i%9, what[(i+1)%len(what)], i%4)
	}
	if err := os.WriteFile(filepath.Join(dir, "fixture.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// seedsDir is the folder of the embedded seed cases.
func seedsDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("../../seeds")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// runCached runs caselink and returns its stdout and stderr, failing on
// a non-zero exit.
func runCached(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"caselink"}, args...), strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("caselink %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String() + "\n--- stderr\n" + errb.String()
}

// The cache changes no answer: match, relate and dupes print the same bytes
// with --no-cache, on the run that builds the cache and on the run that
// opens it, on the seeds and on a fixture library.
// The third run of each match and dupes opens the index without reading
// the library (its files were written before the test's stamps, so the stamps
// are trusted at once: racyWindow 0).
func TestCacheChangesNoAnswer(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	defer setRacyWindow(0)()
	queries := filepath.Join(t.TempDir(), "q.jsonl")
	if err := os.WriteFile(queries, []byte(`{"id":"q1","text":"disk full logging nodes"}`+"\n"+
		`{"id":"q2","text":"certificate expired","candidates":["FX-002","IL-0100","NOPE-1"]}`+"\n"+`{"id":"q3","text":""}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commands := [][]string{
		{"match", "pods oomkilled after rollout"},
		{"match", "--json", "--explain", "--top", "10", "conection pool exausted primary database"},
		{"match", "--like", "IL-0100", "--min-score", "0"},
		{"match", "--like", "FX-004", "--domain", "d1", "--json", "--explain"},
		{"match", "--domain", "d1", "--since", "2023-03", "--until", "2023-10", "--long", "disk full logging nodes"},
		{"match", "--org", "org 3", "--org", "PostHog", "--min-score", "0", "certificate expired load balancer"},
		{"match", "--json", "--top", "8", "파드가 메모리 부족으로 재시작됨"},
		{"match", "--long", "--top", "5", "primry databse conection pool exausted"},
		{"match", "--queries", queries, "--explain"},
		{"match", "--like", "NOPE-1"},
		{"relate"},
		{"relate", "--json", "--min-score", "0"},
		{"dupes"},
		{"dupes", "--threshold", "0.2"},
	}
	for _, lib := range []struct {
		name string
		args []string
	}{{"seeds", nil}, {"fixture", []string{"--cases", cacheLibrary(t)}}} {
		t.Run(lib.name, func(t *testing.T) {
			for _, cmd := range commands {
				// Flags go before the paste: after it they would be text.
				args := append(append([]string{cmd[0]}, lib.args...), cmd[1:]...)
				fresh := runAny(t, append([]string{cmd[0], "--no-cache"}, args[1:]...)...)
				build := runAny(t, args...)
				files, _ := filepath.Glob(filepath.Join(cache, "caselink", "*.idx"))
				if len(files) == 0 {
					t.Fatalf("%v: no cache file written", cmd)
				}
				before := modTimes(t, files)
				lazy := lazyOpens.Load()
				opened := runAny(t, args...)
				if after := modTimes(t, files); after != before {
					t.Errorf("%v: the second run rewrote the cache instead of using it", cmd)
				}
				if got := lazyOpens.Load() - lazy; (cmd[0] != "relate") != (got == 1) {
					t.Errorf("%v: %d runs opened the index without the library", cmd, got)
				}
				if build != fresh || opened != fresh {
					t.Errorf("%v: output differs with the cache\n--- no cache:\n%s\n--- building:\n%s\n--- opened:\n%s", cmd, fresh, build, opened)
				}
			}
		})
	}
}

// runAny runs caselink and returns its exit code, stdout and stderr.
func runAny(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"caselink"}, args...), strings.NewReader(""), &out, &errb)
	return fmt.Sprintf("exit %d\n%s\n--- stderr\n%s", code, out.String(), errb.String())
}

// setRacyWindow sets racyWindow for a test and returns what restores it.
func setRacyWindow(d time.Duration) func() {
	old := racyWindow
	racyWindow = d
	return func() { racyWindow = old }
}

// flip returns b with the byte at i changed.
func flip(b []byte, i int) []byte {
	out := append([]byte(nil), b...)
	out[i] ^= 0x20
	return out
}

func modTimes(t *testing.T, files []string) string {
	t.Helper()
	var b strings.Builder
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %d\n", f, info.Size(), info.ModTime().UnixNano())
	}
	return b.String()
}

// A damaged, truncated or out-of-date cache file is rebuilt, and the
// answers stay those of a fresh index.
func TestCacheRebuilds(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	defer setRacyWindow(0)() // the stamps are trusted: damage must be caught without them
	lib := cacheLibrary(t)
	index := func() (path, state string) {
		t.Helper()
		out := runCached(t, "index", "--cases", lib)
		path, rest, ok := strings.Cut(strings.SplitN(out, "\n", 2)[0], ": ")
		if !ok {
			t.Fatalf("index printed %q", out)
		}
		return path, strings.SplitN(rest, " (", 2)[0]
	}
	match := []string{"--json", "--explain", "--top", "10", "--min-score", "0", "--cases", lib, "pool exhausted database"}
	check := func(what string) {
		t.Helper()
		got := runCached(t, append([]string{"match"}, match...)...)
		if want := runCached(t, append([]string{"match", "--no-cache"}, match...)...); got != want {
			t.Errorf("%s: match differs from a fresh index:\n%s\nwant:\n%s", what, got, want)
		}
		if _, state := index(); state != "up to date" {
			t.Errorf("%s: after match, index says %q, want up to date", what, state)
		}
	}
	path, state := index()
	if state != "built" {
		t.Fatalf("first index: %q", state)
	}
	if _, state := index(); state != "up to date" {
		t.Fatalf("second index: %q", state)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{5, 30, len(good) / 2, len(good) - 1} {
		bad := append([]byte(nil), good...)
		bad[at] ^= 1
		if err := os.WriteFile(path, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("byte %d flipped", at))
	}
	if err := os.WriteFile(path, good[:len(good)/3], 0o600); err != nil {
		t.Fatal(err)
	}
	check("truncated")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	check("empty")

	// A damaged or foreign stamp file is not trusted: the library is read.
	stamp := stampPath(path)
	goodStamp, err := os.ReadFile(stamp)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{flip(goodStamp, 10), flip(goodStamp, len(goodStamp)/2), flip(goodStamp, len(goodStamp)-1),
		goodStamp[:len(goodStamp)-8], []byte("CLSTAMP\n"), nil} {
		if err := os.WriteFile(stamp, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		opens := lazyOpens.Load()
		runCached(t, append([]string{"match"}, match...)...)
		if lazyOpens.Load() != opens {
			t.Errorf("a damaged stamp file (%d bytes) was trusted", len(bad))
		}
		check(fmt.Sprintf("stamp of %d bytes damaged", len(bad)))
	}

	// A case's text changed; then a weight in caselink.toml.
	f := filepath.Join(lib, "fixture.jsonl")
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, bytes.Replace(b, []byte("site 3"), []byte("site 3 pool exhausted"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	// The file of the library before the change lends its analysis of
	// the cases that did not change: one case is tokenized again.
	out := runCached(t, "index", "--cases", lib)
	if !strings.Contains(out, ": built (") || !strings.Contains(out, "; 1 analyzed, 63 unchanged)") {
		t.Errorf("library changed: index says %q, want built, 1 analyzed, 63 unchanged", out)
	}
	check("library changed")
	if err := os.WriteFile(filepath.Join(lib, "caselink.toml"), []byte("[weights]\nsymptoms = 0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, state := index(); state != "built" {
		t.Errorf("weight changed: index says %q, want built", state)
	}
	check("weight changed")
}

// serve starts from the library's cache file: the first server writes it,
// the next opens it without rewriting it, and both answer as a server
// that indexes from scratch.
func TestServeStartsFromCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	lib := cacheLibrary(t)
	answer := func(build func([]similarity.Document, similarity.Config) (*similarity.Index, error)) string {
		t.Helper()
		srv, err := serve.New(serve.Options{Paths: []string{lib}, PollInterval: -1, Build: build,
			MatchMinScore: 0.02, RelateMinScore: 0.15, DupesThreshold: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		var b strings.Builder
		for _, q := range []string{"/api/match", "/api/dupes?threshold=0&limit=50"} {
			var resp *http.Response
			var err error
			if q == "/api/match" {
				resp, err = http.Post(ts.URL+q, "application/json", strings.NewReader(`{"text":"pool exhausted database","top":10}`))
			} else {
				resp, err = http.Get(ts.URL + q)
			}
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d %s", q, resp.StatusCode, body)
			}
			b.Write(body)
		}
		return b.String()
	}
	built := answer(cachedBuild([]string{lib}, false))
	if !strings.Contains(built, `"FX-`) {
		t.Fatalf("serve found nothing: %s", built)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "caselink", "*.idx"))
	if len(files) != 1 {
		t.Fatalf("serve left %d cache files, want 1", len(files))
	}
	before := modTimes(t, files)
	opened := answer(cachedBuild([]string{lib}, false))
	if modTimes(t, files) != before {
		t.Error("the second server rewrote the cache instead of opening it")
	}
	if fresh := answer(nil); built != fresh || opened != fresh {
		t.Errorf("serve answers differ with the cache:\nfresh:  %s\nbuilt:  %s\nopened: %s", fresh, built, opened)
	}
}
