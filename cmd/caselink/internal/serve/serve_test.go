package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/seeds"
	"github.com/caselink/caselink/similarity/caselib"
)

// onCallPaste is what an on-call engineer might paste; IL-0191 is its case.
const onCallPaste = "distributor pods OOMKilled right after the rollout, only the new pods get write traffic, readiness probes failing"

func testOptions(paths ...string) Options {
	return Options{Paths: paths, MatchMinScore: 0.02, RelateMinScore: 0.2, DupesThreshold: 0.5, PollInterval: -1}
}

// newTestServer starts an httptest server over a Server built with opts.
func newTestServer(t testing.TB, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

// copySeeds writes the embedded seed cases into dir.
func copySeeds(t testing.TB, dir string) {
	t.Helper()
	err := fs.WalkDir(seeds.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(seeds.FS, p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, p), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// do sends a request and decodes a JSON answer into out (when not nil).
func do(t testing.TB, c *http.Client, method, url, body string, out any) *http.Response {
	t.Helper()
	resp, err := tryDo(c, method, url, body, out)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// tryDo is do for goroutines other than the test's: it returns the error.
func tryDo(c *http.Client, method, url, body string, out any) (*http.Response, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return resp, fmt.Errorf("%s %s: %d: not JSON: %v\n%s", method, url, resp.StatusCode, err, b)
		}
	}
	return resp, nil
}

func matchBody(text string, top int) string {
	b, _ := json.Marshal(api.MatchRequest{Text: text, Top: &top})
	return string(b)
}

func TestMatchSeeds(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	checkMatch(t, ts.URL)
}

func TestMatchTempLibrary(t *testing.T) {
	dir := t.TempDir()
	copySeeds(t, dir)
	_, ts := newTestServer(t, testOptions(dir))
	checkMatch(t, ts.URL)
}

func checkMatch(t *testing.T, base string) {
	t.Helper()
	var got api.HitList
	resp := do(t, http.DefaultClient, "POST", base+"/api/match", matchBody(onCallPaste, 3), &got)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
	if len(got.Hits) == 0 || got.Hits[0].ID != "IL-0191" {
		t.Fatalf("first hit is not IL-0191: %+v", got.Hits)
	}
	h := got.Hits[0]
	if h.Rank != 1 || h.Score <= 0 || h.Score > 1 || h.Title == "" || h.Org != "Grafana Labs" || h.Date != "2022-09-01" ||
		h.URL == "" || len(h.Why) == 0 || len(h.Tags) == 0 || h.Stage == "" {
		t.Errorf("first hit incomplete: %+v", h)
	}
	if len(got.Hits) > 3 {
		t.Errorf("top 3 gave %d hits", len(got.Hits))
	}
	for i, h := range got.Hits {
		if h.Rank != i+1 || h.Score < testOptions().MatchMinScore {
			t.Errorf("hit %d: rank %d score %v", i, h.Rank, h.Score)
		}
	}
}

func TestMatchFilters(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	var got api.HitList
	// A paste about the PostHog case (feature flag pods on small nodes), so
	// that the filtered hit clears the default minimum score.
	paste := "feature flags pods CPU throttled, nodes too small for the pods, latency up"
	body := `{"text":` + mustJSON(paste) + `,"filters":{"org":["PostHog"],"domain":"kubernetes","since":"2025","until":"2025-12-31"}}`
	if resp := do(t, http.DefaultClient, "POST", ts.URL+"/api/match", body, &got); resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	for _, h := range got.Hits {
		if h.Org != "PostHog" {
			t.Errorf("filtered match returned %s of %s", h.ID, h.Org)
		}
	}
	if len(got.Hits) == 0 {
		t.Errorf("no hit for the PostHog filter")
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestAPIErrors(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	big := `{"text":"` + strings.Repeat("a", MaxBodyBytes) + `"}`
	tests := []struct {
		name, method, path, body string
		status                   int
		allow                    string
	}{
		{"bad JSON", "POST", "/api/match", `{"text": "x"`, 400, ""},
		{"not JSON", "POST", "/api/match", `text=x`, 400, ""},
		{"empty body", "POST", "/api/match", ``, 400, ""},
		{"empty text", "POST", "/api/match", `{"text":""}`, 400, ""},
		{"blank text", "POST", "/api/match", `{"text":" \n\t "}`, 400, ""},
		{"no text", "POST", "/api/match", `{"top":3}`, 400, ""},
		{"unknown field", "POST", "/api/match", `{"text":"x","filter":{}}`, 400, ""},
		{"wrong type", "POST", "/api/match", `{"text":3}`, 400, ""},
		{"array body", "POST", "/api/match", `[]`, 400, ""},
		{"two objects", "POST", "/api/match", `{"text":"x"}{"text":"y"}`, 400, ""},
		{"top too big", "POST", "/api/match", `{"text":"x","top":1000}`, 400, ""},
		{"top negative", "POST", "/api/match", `{"text":"x","top":-1}`, 400, ""},
		// The CLI's contract: --top 0 and a paste of stop words are refused.
		{"top zero", "POST", "/api/match", `{"text":"pods OOMKilled","top":0}`, 400, ""},
		{"stop words only", "POST", "/api/match", `{"text":"the of and"}`, 400, ""},
		{"bad date", "POST", "/api/match", `{"text":"x","filters":{"since":"last week"}}`, 400, ""},
		{"too large", "POST", "/api/match", big, 413, ""},
		// encoding/json would read the 0xE9 as U+FFFD and match another text.
		{"paste not UTF-8", "POST", "/api/match", "{\"text\":\"pods OOMKilled caf\xe9\"}", 400, ""},
		{"unknown id", "GET", "/api/cases/IL-9999", "", 404, ""},
		{"unknown id related", "GET", "/api/cases/IL-9999/related", "", 404, ""},
		{"unknown endpoint", "GET", "/api/nothing", "", 404, ""},
		{"related bad top", "GET", "/api/cases/IL-0191/related?top=x", "", 400, ""},
		{"dupes bad limit", "GET", "/api/dupes?limit=0", "", 400, ""},
		{"match with GET", "GET", "/api/match", "", 405, "POST"},
		{"case with POST", "POST", "/api/cases/IL-0191", "{}", 405, "GET, HEAD"},
		{"related with DELETE", "DELETE", "/api/cases/IL-0191/related", "", 405, "GET, HEAD"},
		{"dupes with PUT", "PUT", "/api/dupes", "{}", 405, "GET, HEAD"},
		{"healthz with POST", "POST", "/healthz", "", 405, "GET, HEAD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e struct{ Error string }
			resp := do(t, http.DefaultClient, tt.method, ts.URL+tt.path, tt.body, &e)
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d (%q)", resp.StatusCode, tt.status, e.Error)
			}
			if e.Error == "" {
				t.Errorf("no error message")
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow %q, want %q", got, tt.allow)
			}
		})
	}
}

func TestCaseAndRelated(t *testing.T) {
	dir := t.TempDir()
	copySeeds(t, dir)
	// a near copy of IL-0191 under another id: related, and a probable duplicate
	b, err := os.ReadFile(filepath.Join(dir, "IL-0191.json"))
	if err != nil {
		t.Fatal(err)
	}
	dup := bytes.Replace(b, []byte(`"id":"IL-0191"`), []byte(`"id":"IL-0991"`), 1)
	if err := os.WriteFile(filepath.Join(dir, "IL-0991.json"), dup, 0o644); err != nil {
		t.Fatal(err)
	}
	_, ts := newTestServer(t, testOptions(dir))

	var cv api.CaseView
	if resp := do(t, http.DefaultClient, "GET", ts.URL+"/api/cases/IL-0191", "", &cv); resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if cv.ID != "IL-0191" || cv.Title == "" || cv.Summary == "" || cv.Symptoms == "" || len(cv.Tags) == 0 || len(cv.Sources) == 0 {
		t.Errorf("case view incomplete: %+v", cv)
	}
	if len(cv.Related) == 0 || cv.Related[0].ID != "IL-0991" || len(cv.Related[0].Why) == 0 {
		t.Errorf("related: %+v", cv.Related)
	}

	var rel api.HitList
	if resp := do(t, http.DefaultClient, "GET", ts.URL+"/api/cases/IL-0191/related?top=1", "", &rel); resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if len(rel.Hits) != 1 || rel.Hits[0].ID != "IL-0991" || rel.Hits[0].Rank != 1 {
		t.Errorf("related hits: %+v", rel.Hits)
	}

	var d api.DupesAnswer
	if resp := do(t, http.DefaultClient, "GET", ts.URL+"/api/dupes", "", &d); resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if d.Total != 1 || len(d.Pairs) != 1 || d.Pairs[0].A.ID != "IL-0191" || d.Pairs[0].B.ID != "IL-0991" ||
		len(d.Pairs[0].Evidence) == 0 || d.Threshold != 0.5 {
		t.Errorf("dupes: %+v", d)
	}
	if resp := do(t, http.DefaultClient, "GET", ts.URL+"/api/dupes?offset=1", "", &d); resp.StatusCode != 200 || len(d.Pairs) != 0 || d.Total != 1 {
		t.Errorf("dupes page 2: %d %+v", resp.StatusCode, d)
	}
}

func TestHealthz(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	var h api.Health
	if resp := do(t, http.DefaultClient, "GET", ts.URL+"/healthz", "", &h); resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if !h.OK || h.Status != "ok" || h.Cases != 4 || h.LastError != nil || h.Library != "embedded seeds" {
		t.Errorf("healthz: %+v", h)
	}
	if _, err := time.Parse(time.RFC3339, h.LoadedAt); err != nil {
		t.Errorf("loaded_at: %v", err)
	}
}

// A failed reload makes /healthz say "degraded" (the old index still
// serves); a good one makes it "ok" again.
func TestHealthzDegraded(t *testing.T) {
	dir := t.TempDir()
	copySeeds(t, dir)
	s, ts := newTestServer(t, testOptions(dir))
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte(`{"id": "X-1", "title": `), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Reload(); err == nil {
		t.Fatal("reload of a broken library succeeded")
	}
	var h api.Health
	// 503, so that a load balancer takes the replica out while it serves
	// an old library.
	if resp := do(t, http.DefaultClient, "GET", ts.URL+"/healthz", "", &h); resp.StatusCode != 503 {
		t.Fatalf("status %d, want 503", resp.StatusCode)
	}
	if h.OK || h.Status != "degraded" || h.LastError == nil || h.Cases != 4 {
		t.Errorf("healthz after a failed reload: %+v", h)
	}
	if err := os.Remove(broken); err != nil {
		t.Fatal(err)
	}
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	h = api.Health{}
	if resp := do(t, http.DefaultClient, "GET", ts.URL+"/healthz", "", &h); resp.StatusCode != 200 {
		t.Errorf("status %d after a good reload, want 200", resp.StatusCode)
	}
	if !h.OK || h.Status != "ok" || h.LastError != nil {
		t.Errorf("healthz after a good reload: %+v", h)
	}
}

func TestPages(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	get := func(path string) (int, string, http.Header) {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	code, body, hd := get("/")
	if code != 200 || !strings.Contains(body, `<textarea id="paste"`) || !strings.Contains(body, "autofocus") ||
		!strings.Contains(body, `<label for="paste">`) || !strings.Contains(body, `type="submit"`) {
		t.Errorf("/: %d\n%s", code, body)
	}
	if !strings.Contains(hd.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Errorf("no CSP: %v", hd)
	}
	code, body, _ = get("/cases/IL-0191")
	if code != 200 || !strings.Contains(body, "A label selector accidentally added") || !strings.Contains(body, "Related cases") ||
		!strings.Contains(body, "symptom:oom-killed") {
		t.Errorf("/cases/IL-0191: %d\n%s", code, body)
	}
	if code, _, _ = get("/cases/NOPE"); code != 404 {
		t.Errorf("/cases/NOPE: %d", code)
	}
	if code, _, _ = get("/nowhere"); code != 404 {
		t.Errorf("/nowhere: %d", code)
	}
	if code, _, _ = get("/static/"); code != 404 {
		t.Errorf("/static/: %d", code)
	}
	for _, p := range []string{"/static/app.js", "/static/style.css", "/static/favicon.svg"} {
		if code, body, _ = get(p); code != 200 || len(body) == 0 {
			t.Errorf("%s: %d", p, code)
		}
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(testOptions("-")); err == nil {
		t.Errorf("standard input accepted")
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"id": 3}`), 0o644)
	_, err := New(testOptions(bad))
	var le *caselib.Error
	if !errors.As(err, &le) {
		t.Errorf("bad library: %v, want a *caselib.Error", err)
	}
}

// TestReloadDuringRequests rewrites the library while clients keep asking:
// no request may fail, a new case becomes findable, and a broken file keeps
// the old index serving with last_error set.
func TestReloadDuringRequests(t *testing.T) {
	dir := t.TempDir()
	copySeeds(t, dir)
	opts := testOptions(dir)
	opts.PollInterval = 5 * time.Millisecond
	var logBuf syncBuffer
	opts.Log = &logBuf
	s, ts := newTestServer(t, opts)
	ctx, cancel := context.WithCancel(context.Background())
	watchDone := make(chan struct{})
	go func() { s.Watch(ctx); close(watchDone) }()
	defer func() { cancel(); <-watchDone }()

	client := ts.Client()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var requests, failures atomic.Int64
	for w := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				requests.Add(1)
				var err error
				switch (w + i) % 4 {
				case 0, 1:
					var got api.HitList
					resp, e := tryDo(client, "POST", ts.URL+"/api/match", matchBody(onCallPaste, 5), &got)
					if err = e; err == nil && (resp.StatusCode != 200 || len(got.Hits) == 0 || got.Hits[0].ID != "IL-0191") {
						err = fmt.Errorf("match: %d %+v", resp.StatusCode, got.Hits)
					}
				case 2:
					var cv api.CaseView
					resp, e := tryDo(client, "GET", ts.URL+"/api/cases/IL-0191", "", &cv)
					if err = e; err == nil && (resp.StatusCode != 200 || cv.ID != "IL-0191") {
						err = fmt.Errorf("case: %d %+v", resp.StatusCode, cv.ID)
					}
				case 3:
					var h api.Health
					resp, e := tryDo(client, "GET", ts.URL+"/healthz", "", &h)
					// 503 while degraded (the broken file below), and
					// then only: the old index keeps answering.
					if err = e; err == nil && ((resp.StatusCode == 200) != h.OK || (resp.StatusCode != 200 && resp.StatusCode != 503) || h.Cases < 4) {
						err = fmt.Errorf("healthz: %d %+v", resp.StatusCode, h)
					}
				}
				if err != nil {
					failures.Add(1)
					t.Errorf("request during reloads: %v", err)
				}
			}
		})
	}
	defer func() {
		close(stop)
		wg.Wait()
		if failures.Load() > 0 {
			t.Errorf("%d of %d requests failed during reloads", failures.Load(), requests.Load())
		}
		t.Logf("%d requests during reloads", requests.Load())
	}()

	health := func() api.Health {
		var h api.Health
		do(t, client, "GET", ts.URL+"/healthz", "", &h)
		return h
	}
	finds := func(text, id string) bool {
		var got api.HitList
		do(t, client, "POST", ts.URL+"/api/match", matchBody(text, 3), &got)
		return len(got.Hits) > 0 && got.Hits[0].ID == id
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; health %+v; log:\n%s", what, health(), logBuf.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	time.Sleep(50 * time.Millisecond) // let the clients get going

	// 1. a new case file appears
	newCase := filepath.Join(dir, "IL-9001.json")
	writeCase := func(title string) {
		c := map[string]any{"id": "IL-9001", "org": "Quokka Corp", "date": "2026-01-02",
			"title": map[string]string{"en": title}, "domain": []string{"networking"}}
		if err := os.WriteFile(newCase, []byte(mustJSON(c)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeCase("Zanzibar gateway certificate expired and every TLS handshake failed")
	waitFor("the new case to be findable", func() bool { return finds("zanzibar certificate expired", "IL-9001") })
	waitFor("a clean reload", func() bool { h := health(); return h.Cases == 5 && h.LastError == nil })

	// 2. the case file is rewritten
	writeCase("Marzipan queue consumers stalled after a broker failover")
	waitFor("the rewritten case to be findable", func() bool { return finds("marzipan consumers stalled", "IL-9001") })

	// 3. a broken file: the old index keeps serving, the error is reported
	broken := filepath.Join(dir, "IL-9002.json")
	if err := os.WriteFile(broken, []byte(`{"id": "IL-9002", "title": `), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor("last_error", func() bool { return health().LastError != nil })
	h := health()
	if h.Cases != 5 || !strings.Contains(*h.LastError, "IL-9002.json") || h.LastErrorAt == nil {
		t.Errorf("after a broken file: %+v (error %q)", h, *h.LastError)
	}
	if !finds("marzipan consumers stalled", "IL-9001") {
		t.Errorf("the old index stopped serving the case loaded before the broken file")
	}
	if !strings.Contains(logBuf.String(), "reload failed, still serving the 5 cases") {
		t.Errorf("no log line for the failed reload:\n%s", logBuf.String())
	}

	// 4. the broken file goes away: the error clears
	if err := os.Remove(broken); err != nil {
		t.Fatal(err)
	}
	waitFor("the error to clear", func() bool { h := health(); return h.LastError == nil && h.Cases == 5 })
}

// syncBuffer is a bytes.Buffer safe for concurrent use, for logs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestServeShutsDownGracefully(t *testing.T) {
	s, err := New(testOptions())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	var h api.Health
	if resp := do(t, http.DefaultClient, "GET", "http://"+ln.Addr().String()+"/healthz", "", &h); resp.StatusCode != 200 || !h.OK {
		t.Fatalf("healthz: %d %+v", resp.StatusCode, h)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after cancel: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Serve did not return after its context was cancelled")
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/healthz"); err == nil {
		t.Errorf("still answering after shutdown")
	}
}
