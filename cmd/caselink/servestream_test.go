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

	"github.com/caselink/caselink/cmd/caselink/internal/serve"
	"github.com/caselink/caselink/similarity/indexfile/maptest"
)

// serveOptionsOf returns the options `caselink serve args…` would serve.
func serveOptionsOf(t *testing.T, args ...string) serve.Options {
	t.Helper()
	var opts serve.Options
	serveOpened = func(o serve.Options) error { opts = o; return nil }
	defer func() { serveOpened = nil }()
	runCLI(t, append([]string{"serve", "--poll", "0"}, args...)...)
	return opts
}

// answers returns what a server answers to the requests a user makes of
// it, one after the other, each with its status.
func answers(t *testing.T, srv *serve.Server) string {
	t.Helper()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	var b strings.Builder
	for _, q := range []string{
		"POST /api/match {\"text\":\"pool exhausted database\",\"top\":10,\"explain\":true}",
		"POST /api/match {\"text\":\"pods OOM-killed after a rollout\",\"top\":5,\"filters\":{\"org\":[\"Org 3\"]}}",
		"GET /api/cases?limit=100", "GET /api/cases/FX-001", "GET /api/cases/FX-001/related?top=5",
		"GET /cases/FX-900", "GET /cases/FX-002", "GET /api/dupes?threshold=0&limit=50",
	} {
		status, _, out := ask(t, ts, q)
		b.WriteString(q + " → " + status + "\n")
		b.WriteString(out)
		b.WriteString("\n")
	}
	return b.String()
}

// ask makes the request q ("METHOD PATH [JSON BODY]") of ts and returns
// the answer's status line, status code and body.
func ask(t *testing.T, ts *httptest.Server, q string) (status string, code int, body string) {
	t.Helper()
	method, rest, _ := strings.Cut(q, " ")
	path, in, _ := strings.Cut(rest, " ")
	req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(in))
	if in != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.Status, resp.StatusCode, string(out)
}

// streamedLibrary is cacheLibrary with a case whose related link names no
// case, for the warning the server logs.
func streamedLibrary(t *testing.T) string {
	lib := cacheLibrary(t)
	extra := `{"id":"FX-900","org":"Org 1","date":"2023-05-01","title":{"en":"connection pool exhausted on the primary database again"},"summary":{"en":"the pool ran dry after a deploy"},"related":["FX-001","NOPE-1"]}` + "\n"
	if err := os.WriteFile(filepath.Join(lib, "extra.jsonl"), []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	return lib
}

// serve on a library of files indexes it without holding its cases, and
// answers as a server that loads it whole: match, case pages, related
// cases, dupes, byte for byte, with the same warnings in its log; whether
// it built the cache or opened it.
func TestServeStreamsLibraryOfFiles(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	lib := streamedLibrary(t)
	opts := serveOptionsOf(t, "--cases", lib)
	if opts.Stream == nil {
		t.Fatal("serve on a folder of case files does not stream it")
	}
	open := func(o serve.Options) (*serve.Server, string) {
		t.Helper()
		var log bytes.Buffer
		o.Log = &log
		srv, err := serve.New(o)
		if err != nil {
			t.Fatal(err)
		}
		return srv, log.String()
	}
	wholeOpts := opts
	wholeOpts.Stream = nil
	whole, wholeLog := open(wholeOpts)
	want := answers(t, whole)
	if !strings.Contains(want, `"FX-`) || !strings.Contains(wholeLog, "NOPE-1") {
		t.Fatalf("the whole server found nothing or warned of nothing: %s\nlog: %s", want, wholeLog)
	}
	for _, how := range []string{"built", "opened from the cache"} {
		streamed, log := open(opts)
		if got := answers(t, streamed); got != want {
			t.Errorf("streamed (%s) answers:\n%s\nwant (whole):\n%s", how, got, want)
		}
		if log != wholeLog {
			t.Errorf("streamed (%s) logs %q, want %q", how, log, wholeLog)
		}
		if streamed.Len() != whole.Len() {
			t.Errorf("streamed (%s) serves %d cases, want %d", how, streamed.Len(), whole.Len())
		}
	}
}

// streamedServer serves streamedLibrary as `caselink serve` would, with a
// cache folder of the test's own and no log, and returns the library, the
// options and the server.
func streamedServer(t *testing.T) (string, serve.Options, *serve.Server) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	lib := streamedLibrary(t)
	opts := serveOptionsOf(t, "--cases", lib)
	opts.Log = io.Discard
	srv, err := serve.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return lib, opts, srv
}

// A streamed server reads the cases it shows from their files: until it
// reloads, a file replaced by a rename still reads as it was, and a case
// edited in place is a 500 naming it; the reload picks both
// edits up, and answers as a whole load of the edited library.
func TestServeStreamedReloadPicksUpEdit(t *testing.T) {
	lib, opts, srv := streamedServer(t)
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/api/cases/FX-002"); code != 200 || !strings.Contains(body, "certificate") {
		t.Fatalf("before the edit: %d %s", code, body)
	}
	// A file the server has read from, replaced by a rename (as relate
	// --write writes): the old index still reads the old file.
	fixture := filepath.Join(lib, "fixture.jsonl")
	b, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	renamed := strings.Replace(string(b), `"FX-003","org":"Org 3","date":"2023-04-04","domain":["d0"],"title":{"en":"`,
		`"FX-003","org":"Org 3","date":"2023-04-04","domain":["d0"],"title":{"en":"renamed `, 1)
	if renamed == string(b) {
		t.Fatal("FX-003 not found in the fixture")
	}
	if err := os.WriteFile(fixture+".tmp", []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(fixture+".tmp", fixture); err != nil {
		t.Fatal(err)
	}
	if code, body := get("/api/cases/FX-003"); code != 200 || strings.Contains(body, "renamed") {
		t.Errorf("a case of a file replaced by a rename, before the reload: %d %s, want the old case", code, body)
	}
	file := filepath.Join(lib, "extra.jsonl")
	b, err = os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "exhausted on the primary database again", "exhausted once more on the primary", 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, body := get("/api/cases/FX-900"); code != http.StatusInternalServerError || !strings.Contains(body, "FX-900") {
		t.Errorf("a case changed since it was indexed: %d %s, want 500 naming it", code, body)
	}
	if err := srv.Reload(); err != nil {
		t.Fatal(err)
	}
	if code, body := get("/api/cases/FX-900"); code != 200 || !strings.Contains(body, "once more") {
		t.Errorf("after the reload: %d %s, want the edited title", code, body)
	}
	if code, body := get("/api/cases/FX-003"); code != 200 || !strings.Contains(body, "renamed") {
		t.Errorf("after the reload: %d %s, want the renamed file's title", code, body)
	}
	wholeOpts := opts
	wholeOpts.Stream = nil
	whole, err := serve.New(wholeOpts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := answers(t, srv), answers(t, whole); got != want {
		t.Errorf("reloaded streamed server answers:\n%s\nwant (whole load of the edited library):\n%s", got, want)
	}
}

// A streamed server's reload analyzes only the cases that are new or whose
// text changed, says so in its log, and answers as a whole load of the
// edited library.
func TestServeStreamedReloadAnalyzesOnlyChanges(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	lib := streamedLibrary(t)
	opts := serveOptionsOf(t, "--cases", lib)
	var log bytes.Buffer
	opts.Log = &log
	srv, err := serve.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	before := srv.Len()
	file := filepath.Join(lib, "extra.jsonl")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "exhausted on the primary database again", "exhausted once more on the primary", 1) +
		`{"id":"FX-901","org":"Org 2","date":"2023-06-01","title":{"en":"certificate expired on the edge proxies"}}` + "\n"
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := srv.Reload(); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("reloaded %d cases", before+1); !strings.Contains(log.String(), want) ||
		!strings.Contains(log.String(), fmt.Sprintf("(2 analyzed, %d unchanged)", before-1)) {
		t.Errorf("log after a reload that changed one case and added one:\n%s\nwant %q and (2 analyzed, %d unchanged)", log.String(), want, before-1)
	}
	// The server answers from the index file the reload saved, mapped as
	// at a start, not from the index it built on the heap; the file it
	// replaced is given back (a library edited a moment before its
	// reload, as here, leaves its stamp untrusted).
	if maptest.Available() {
		if live, replaced := maptest.Under(t, cache); live == 0 || replaced > 0 {
			t.Errorf("after a reload the process maps %d index files in the cache and %d replaced ones; want the one saved, and none replaced", live, replaced)
		}
	}
	// A change of related lists only (relate --write) indexes nothing, and
	// the server keeps the index serving, its cases read anew: a case page
	// shown before the change shows the new list after it.
	ts := httptest.NewServer(srv.Handler())
	if status, _, _ := ask(t, ts, "GET /cases/FX-900"); !strings.Contains(status, "200") {
		t.Fatalf("FX-900's page: %s", status)
	}
	ts.Close()
	log.Reset()
	linked := strings.Replace(edited, `"related":["FX-001","NOPE-1"]`, `"related":["FX-001"]`, 1)
	if linked == edited {
		t.Fatal("FX-900's related list not found")
	}
	if err := os.WriteFile(file, []byte(linked), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := srv.Reload(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "reloaded") || !strings.Contains(log.String(), "(no text or tags changed)") {
		t.Errorf("log after a reload that changed related lists only:\n%s\nwant a reload that kept the index: (no text or tags changed)", log.String())
	}
	wholeOpts := opts
	wholeOpts.Stream, wholeOpts.Log = nil, io.Discard
	whole, err := serve.New(wholeOpts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := answers(t, srv), answers(t, whole); got != want {
		t.Errorf("reloaded streamed server answers:\n%s\nwant (whole load of the edited library):\n%s", got, want)
	}
}

// A streamed server whose library file is rewritten in place (not replaced
// by a rename) keeps answering until it reloads: a case whose bytes did not
// change is read from where they moved, and answers as a whole load of the
// library before the edit; the edited case is a 500 naming it. A second
// rewrite is followed as well. (The server keeps the cases it read last, so
// each round asks for cases it has not read yet.)
func TestServeStreamedReadsMovedCases(t *testing.T) {
	lib, opts, srv := streamedServer(t)
	wholeOpts := opts
	wholeOpts.Stream = nil
	whole, err := serve.New(wholeOpts)
	if err != nil {
		t.Fatal(err)
	}
	streamed, unedited := httptest.NewServer(srv.Handler()), httptest.NewServer(whole.Handler())
	defer streamed.Close()
	defer unedited.Close()
	do := func(ts *httptest.Server, q string) (int, string) {
		t.Helper()
		_, code, body := ask(t, ts, q)
		return code, body
	}
	rounds := [][]string{
		{"GET /api/cases/FX-010", "GET /cases/FX-040", "GET /api/cases/FX-012/related?top=3",
			`POST /api/match {"text":"pool exhausted database","top":10,"explain":true}`},
		{"GET /api/cases/FX-020", "GET /cases/FX-041",
			`POST /api/match {"text":"DNS resolution failed for internal services","top":10}`},
	}
	want := map[string]string{}
	for _, round := range rounds {
		for _, q := range round {
			code, body := do(unedited, q)
			if code != 200 || !strings.Contains(body, "FX-0") {
				t.Fatalf("%s, whole load before the edit: %d %s", q, code, body)
			}
			want[q] = body
		}
	}
	// The file is open in the streamed server before it is edited.
	if code, body := do(streamed, "GET /api/cases/FX-002"); code != 200 {
		t.Fatalf("before the edit: %d %s", code, body)
	}
	fixture := filepath.Join(lib, "fixture.jsonl")
	for r, edit := range []string{"at site 1, edited", "at site 1, edited twice over"} {
		b, err := os.ReadFile(fixture)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(b), `{"id":"FX-001"`)
		j := i + strings.Index(string(b[i:]), "\n")
		e := strings.Replace(string(b[i:j]), "at site 1", edit, 1)
		if i < 0 || e == string(b[i:j]) {
			t.Fatal("FX-001 not found in the fixture")
		}
		// Written in place: the same file, truncated, every later case moved.
		if err := os.WriteFile(fixture, []byte(string(b[:i])+e+string(b[j:])), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, q := range rounds[r] {
			if code, body := do(streamed, q); code != 200 || body != want[q] {
				t.Errorf("after %q: %s: %d %s\nwant as the whole load before the edit:\n%s", edit, q, code, body, want[q])
			}
		}
		if code, body := do(streamed, "GET /api/cases/FX-001"); code != http.StatusInternalServerError || !strings.Contains(body, "FX-001") {
			t.Errorf("after %q, the edited case: %d %s, want 500 naming it", edit, code, body)
		}
	}
	// Dupes read every case: the edited one fails them with a 500 naming
	// it (the server lives on), as often as they are asked for, until the
	// reload.
	for range 2 {
		if code, body := do(streamed, "GET /api/dupes?threshold=0&limit=50"); code != http.StatusInternalServerError || !strings.Contains(body, "FX-001") {
			t.Errorf("dupes with an edited case: %d %s, want 500 naming it", code, body)
		}
	}
	if err := srv.Reload(); err != nil {
		t.Fatal(err)
	}
	if code, body := do(streamed, "GET /api/dupes?threshold=0&limit=50"); code != 200 || !strings.Contains(body, "FX-0") {
		t.Errorf("dupes after the reload: %d %s", code, body)
	}
}
