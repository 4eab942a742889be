package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/similarity/caselib"
)

const (
	readToken   = "read-0123456789abcdef"
	curateToken = "curate-0123456789abcdef"
)

func testTokens(t *testing.T) *Tokens {
	t.Helper()
	tok, err := ParseTokens([]byte("# who may do what\nread " + readToken + "\n\ncurate " + curateToken + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// send sends a request with the given headers and returns the status and
// body.
func send(t *testing.T, method, u, body string, hdr map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func bearerOf(tok string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}
}

func TestTokens(t *testing.T) {
	dir, _ := dupeLibrary(t)
	opts := testOptions(dir)
	opts.Service.Tokens = testTokens(t)
	_, ts := newTestServer(t, opts)
	decision := `{"a":"IL-0100","b":"IL-0191","verdict":"not-duplicate"}`
	for _, c := range []struct {
		name, method, path, body string
		hdr                      map[string]string
		want                     int
	}{
		{"match without token", "POST", "/api/match", matchBody(onCallPaste, 3), map[string]string{"Content-Type": "application/json"}, 401},
		{"match, wrong token", "POST", "/api/match", matchBody(onCallPaste, 3), bearerOf("nope-0123456789abcdef"), 401},
		{"match, read token", "POST", "/api/match", matchBody(onCallPaste, 3), bearerOf(readToken), 200},
		{"cases, read token", "GET", "/api/cases", "", bearerOf(readToken), 200},
		{"healthz without token", "GET", "/healthz", "", nil, 401},
		{"metrics without token", "GET", "/metrics", "", nil, 401},
		{"metrics, read token", "GET", "/metrics", "", bearerOf(readToken), 200},
		{"dupes page API, read token", "GET", "/api/dupes", "", bearerOf(readToken), 200},
		{"decision without token", "POST", "/api/dupes/decisions", decision, map[string]string{"Content-Type": "application/json"}, 401},
		{"decision, read token", "POST", "/api/dupes/decisions", decision, bearerOf(readToken), 403},
		{"decision, curate token", "POST", "/api/dupes/decisions", decision, bearerOf(curateToken), 200},
		{"match, curate token", "POST", "/api/match", matchBody(onCallPaste, 3), bearerOf(curateToken), 200},
		{"style sheet without token", "GET", "/static/style.css", "", nil, 200},
		// The liveness probe needs no token and says nothing of the library.
		{"livez without token", "GET", "/livez", "", nil, 200},
		{"livez by another name", "GET", "/livez", "", map[string]string{"Host": "10.1.2.3:8080"}, 200},
		{"healthz by another name", "GET", "/healthz", "", map[string]string{"Host": "10.1.2.3:8080"}, 421},
	} {
		got, body := send(t, c.method, ts.URL+c.path, c.body, c.hdr)
		if got != c.want {
			t.Errorf("%s: status %d, want %d: %s", c.name, got, c.want, body)
		}
		if c.path == "/livez" && strings.TrimSpace(body) != `{"ok":true}` && strings.TrimSpace(body) != "{\n  \"ok\": true\n}" {
			t.Errorf("%s: body %q: want only that it answers", c.name, body)
		}
	}
}

// TestSignIn: a browser without a token is asked for one, and once signed
// in reads the page; a read token's cookie cannot record decisions.
func TestSignIn(t *testing.T) {
	opts := testOptions()
	opts.Service.Tokens = testTokens(t)
	_, ts := newTestServer(t, opts)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	get := func() (int, string) {
		req, _ := http.NewRequest("GET", ts.URL+"/cases/IL-0191", nil)
		req.Header.Set("Accept", "text/html,application/xhtml+xml")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	status, page := get()
	if status != 401 || !strings.Contains(page, `name="token"`) || !strings.Contains(page, `value="/cases/IL-0191"`) {
		t.Fatalf("page without a token: status %d, want 401 with the sign-in form:\n%s", status, page)
	}
	if strings.Contains(page, "Grafana") {
		t.Errorf("the sign-in page shows library data")
	}
	post := func(tok string) int {
		req, _ := http.NewRequest("POST", ts.URL+signInPath, strings.NewReader(url.Values{"token": {tok}, "next": {"/cases/IL-0191"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", ts.URL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := post("wrong-0123456789abcdef"); got != 401 {
		t.Errorf("sign-in with an unknown token: status %d, want 401", got)
	}
	if got := post(readToken); got != 200 { // 303 to the page, followed
		t.Fatalf("sign-in with the read token: status %d", got)
	}
	if status, page := get(); status != 200 || !strings.Contains(page, "Grafana") {
		t.Fatalf("page after sign-in: status %d", status)
	}
	resp, err := c.Post(ts.URL+"/api/dupes/decisions", "application/json", strings.NewReader(`{"a":"IL-0100","b":"IL-0191","verdict":"dismiss"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("decision with a read token's cookie: status %d, want 403", resp.StatusCode)
	}
}

func TestLoadTokens(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "tokens")
	if err := os.WriteFile(f, []byte("read "+readToken+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTokens(f); err == nil || !strings.Contains(err.Error(), "readable by group or others") {
		t.Errorf("a world-readable tokens file: err %v, want it refused", err)
	}
	os.Chmod(f, 0o600)
	if tok, err := LoadTokens(f); err != nil || tok.Role(readToken) != RoleRead || tok.Role(curateToken) != RoleNone {
		t.Errorf("mode 600: %v", err)
	}
	for _, bad := range []string{"admin " + readToken, "read short", "read", "read a b c"} {
		os.WriteFile(f, []byte(bad+"\n"), 0o600)
		_, err := LoadTokens(f)
		if err == nil || !strings.HasPrefix(err.Error(), f+":1: ") || strings.Contains(err.Error(), readToken) {
			t.Errorf("%q: err %v, want one naming the file and line, not the token", bad, err)
		}
	}
}

// TestCrossSiteWrites: what a page on another site can make a browser
// send is refused, and records nothing.
func TestCrossSiteWrites(t *testing.T) {
	dir, decisions := dupeLibrary(t)
	_, ts := newTestServer(t, testOptions(dir))
	decision := `{"a":"IL-0100","b":"IL-0191","verdict":"not-duplicate"}`
	for _, c := range []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"text/plain form", map[string]string{"Content-Type": "text/plain"}, 415},
		{"urlencoded form", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415},
		{"other origin", map[string]string{"Content-Type": "text/plain", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, 403},
		{"other origin, JSON", map[string]string{"Content-Type": "application/json", "Origin": "http://evil.example"}, 403},
		{"cross-site fetch", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403},
		{"same-site, other port", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "same-site"}, 403},
		// The same host by https, posting to a plain-HTTP server: another origin.
		{"https origin, plain server", map[string]string{"Content-Type": "application/json", "Origin": "https" + strings.TrimPrefix(ts.URL, "http")}, 403},
	} {
		if got, body := send(t, "POST", ts.URL+"/api/dupes/decisions", decision, c.hdr); got != c.want {
			t.Errorf("%s: status %d, want %d: %s", c.name, got, c.want, body)
		}
	}
	if b, err := os.ReadFile(decisions); err == nil && strings.Contains(string(b), "IL-0191") {
		t.Fatalf("a refused request recorded a decision:\n%s", b)
	}
	ok := map[string]string{"Content-Type": "application/json; charset=utf-8", "Origin": ts.URL, "Sec-Fetch-Site": "same-origin"}
	if got, body := send(t, "POST", ts.URL+"/api/dupes/decisions", decision, ok); got != 200 {
		t.Errorf("same-origin JSON: status %d: %s", got, body)
	}
	// Without Sec-Fetch-Site (an older browser), an Origin of the same
	// scheme is taken, and https behind a TLS-terminating proxy.
	for _, hdr := range []map[string]string{
		{"Content-Type": "application/json", "Origin": ts.URL},
		{"Content-Type": "application/json", "Origin": "https" + strings.TrimPrefix(ts.URL, "http"), "X-Forwarded-Proto": "https"},
	} {
		if got, body := send(t, "POST", ts.URL+"/api/dupes/decisions", decision, hdr); got != 200 {
			t.Errorf("%v: status %d: %s", hdr, got, body)
		}
	}
}

// TestHostCheck: a name the server was not told it has (a DNS-rebinding
// page's) is refused with 421; the listen address, localhost and --host
// names are answered.
func TestHostCheck(t *testing.T) {
	opts := testOptions()
	opts.Service.Hosts = []string{"caselink.internal"}
	_, ln := serveLoopback(t, opts)
	base := "http://" + ln.Addr().String()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for host, want := range map[string]int{
		ln.Addr().String():         200,
		"localhost:" + port:        200,
		"LOCALHOST":                200,
		"caselink.internal":        200,
		"caselink.internal:443":    200,
		"evil.example":             421,
		"evil.example:" + port:     421,
		"caselink.internal.evil":   421,
		"127.0.0.1.evil.example:1": 421,
	} {
		if got, body := send(t, "GET", base+"/api/cases", "", map[string]string{"Host": host}); got != want {
			t.Errorf("Host %q: status %d, want %d: %s", host, got, want, body)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "[::1]:80": true, "localhost:80": true,
		":8080": false, "0.0.0.0:8080": false, "[::]:8080": false, "192.0.2.1:80": false,
	} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v", addr, got)
		}
	}
}

func TestMaxPaste(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	big := strings.Repeat("pods OOMKilled after rollout ", DefaultMaxPaste/29+1)
	status, body := send(t, "POST", ts.URL+"/api/match", matchBody(big, 3), map[string]string{"Content-Type": "application/json"})
	if status != 413 || !strings.Contains(body, "64 KiB") {
		t.Errorf("a paste over 64 KiB: status %d, want 413 naming the limit: %s", status, body)
	}
	status, _ = send(t, "POST", ts.URL+"/api/match", matchBody(big[:DefaultMaxPaste], 3), map[string]string{"Content-Type": "application/json"})
	if status != 200 {
		t.Errorf("a paste of exactly 64 KiB: status %d, want 200", status)
	}
	// Many large pastes at once all get answered (a few at a time).
	var wg sync.WaitGroup
	var bad atomic.Int32
	for range 8 {
		wg.Go(func() {
			resp, err := tryDo(http.DefaultClient, "POST", ts.URL+"/api/match", matchBody(big[:DefaultMaxPaste], 3), nil)
			if err != nil || resp.StatusCode != 200 {
				bad.Add(1)
			}
		})
	}
	wg.Wait()
	if bad.Load() != 0 {
		t.Errorf("%d of 8 concurrent large pastes failed", bad.Load())
	}
}

// TestDupesNaN: threshold=NaN (or Inf) is a 400, and does not poison the
// answers that follow.
func TestDupesNaN(t *testing.T) {
	dir, _ := dupeLibrary(t)
	_, ts := newTestServer(t, testOptions(dir))
	var before api.DupesAnswer
	do(t, http.DefaultClient, "GET", ts.URL+"/api/dupes", "", &before)
	if before.Total == 0 {
		t.Fatal("the fixture has no probable duplicates")
	}
	for _, v := range []string{"NaN", "nan", "Inf", "-Inf", "+Inf", "1e400"} {
		if got, body := send(t, "GET", ts.URL+"/api/dupes?threshold="+url.QueryEscape(v), "", nil); got != 400 {
			t.Errorf("threshold=%s: status %d, want 400: %s", v, got, body)
		}
	}
	var after api.DupesAnswer
	do(t, http.DefaultClient, "GET", ts.URL+"/api/dupes", "", &after)
	if after.Total != before.Total {
		t.Errorf("after threshold=NaN, /api/dupes lists %d pairs, before %d", after.Total, before.Total)
	}
}

func TestMetrics(t *testing.T) {
	dir, _ := dupeLibrary(t)
	s, ts := newTestServer(t, testOptions(dir))
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", matchBody(onCallPaste, 3), nil)
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", matchBody(onCallPaste, 3), nil)
	do(t, http.DefaultClient, "GET", ts.URL+"/api/cases/IL-9999", "", nil)
	do(t, http.DefaultClient, "POST", ts.URL+"/api/dupes/decisions", `{"a":"IL-0100","b":"IL-0191","verdict":"dismiss"}`, nil)
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "IL-0100.json"), []byte("{"), 0o644)
	s.Reload()
	_, text := send(t, "GET", ts.URL+"/metrics", "", nil)
	for _, want := range []string{
		`caselink_http_requests_total{code="200",route="POST /api/match"} 2`,
		`caselink_http_requests_total{code="404",route="GET /api/cases/{id}"} 1`,
		`caselink_http_request_duration_seconds_bucket{route="POST /api/match",le="+Inf"} 2`,
		"caselink_cases_indexed " + fmt.Sprint(s.Len()),
		"caselink_terms_indexed ",
		"caselink_reloads_total 1",
		"caselink_reload_failures_total 1",
		"caselink_last_good_reload_timestamp_seconds ",
		`caselink_decisions_recorded_total{verdict="not-duplicate"} 1`,
		"caselink_process_resident_memory_bytes ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "caselink_") {
			t.Errorf("metric not named caselink_…: %s", line)
		}
	}
}

func TestRequestLogJSON(t *testing.T) {
	var logBuf syncBuffer
	opts := testOptions()
	opts.Log = &logBuf
	opts.Service.LogFormat = "json"
	opts.Service.Tokens = testTokens(t)
	_, ts := newTestServer(t, opts)
	req, _ := http.NewRequest("GET", ts.URL+"/api/cases?q=secret-paste", nil)
	req.Header.Set("Authorization", "Bearer "+readToken)
	req.Header.Set("X-Request-Id", "lb-42")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if id := resp.Header.Get("X-Request-Id"); id != "lb-42" {
		t.Errorf("X-Request-Id %q, want the client's lb-42", id)
	}
	resp, _ = http.Get(ts.URL + "/api/cases")
	resp.Body.Close()
	generated := resp.Header.Get("X-Request-Id")
	if len(generated) != 16 {
		t.Errorf("generated request id %q", generated)
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logBuf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", l)
		}
		if m["msg"] == "request" {
			lines = append(lines, m)
		}
	}
	if len(lines) != 2 {
		t.Fatalf("want 2 request lines, got %d:\n%s", len(lines), logBuf.String())
	}
	if l := lines[0]; l["id"] != "lb-42" || l["status"] != 200.0 || l["path"] != "/api/cases" || l["route"] != "GET /api/cases" || l["role"] != "read" {
		t.Errorf("first line: %v", l)
	}
	if l := lines[1]; l["id"] != generated || l["status"] != 401.0 || l["role"] != "none" {
		t.Errorf("second line: %v", l)
	}
	if strings.Contains(logBuf.String(), "secret-paste") || strings.Contains(logBuf.String(), readToken) {
		t.Errorf("the log holds the query or the token")
	}
}

// alertmanagerBody is an Alertmanager webhook message (version 4) with
// one firing alert like the seed case IL-0191.
func alertmanagerBody(status string) string {
	return `{"version":"4","groupKey":"{}:{alertname=\"DistributorOOM\"}","truncatedAlerts":0,"status":"` + status + `",
"receiver":"caselink","groupLabels":{"alertname":"DistributorOOM"},"commonLabels":{"alertname":"DistributorOOM"},
"commonAnnotations":{},"externalURL":"http://am.example:9093","alerts":[{"status":"` + status + `",
"labels":{"alertname":"DistributorOOM","namespace":"mimir","severity":"critical"},
"annotations":{"summary":"distributor pods OOMKilled after the rollout","description":"only the new pods get write traffic, readiness probes failing"},
"startsAt":"2026-01-01T00:00:00Z","endsAt":"0001-01-01T00:00:00Z","generatorURL":"http://prom.example/graph","fingerprint":"c0ffee0123456789"}]}`
}

func TestAlerts(t *testing.T) {
	got := make(chan api.SlackMessage, 4)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m api.SlackMessage
		json.NewDecoder(r.Body).Decode(&m)
		got <- m
	}))
	defer receiver.Close()
	opts := testOptions()
	opts.Service.Notify = receiver.URL + "/services/T000/B000/XXXX"
	_, ts := newTestServer(t, opts)
	var ans api.AlertsAnswer
	resp := do(t, http.DefaultClient, "POST", ts.URL+"/api/alerts", alertmanagerBody("firing"), &ans)
	if resp.StatusCode != 200 || len(ans.Alerts) != 1 {
		t.Fatalf("status %d, %d alerts", resp.StatusCode, len(ans.Alerts))
	}
	a := ans.Alerts[0]
	if a.Fingerprint != "c0ffee0123456789" || a.Labels["alertname"] != "DistributorOOM" || len(a.Hits) == 0 || a.Hits[0].ID != "IL-0191" {
		t.Fatalf("answer: %+v", a)
	}
	select {
	case m := <-got:
		if !strings.Contains(m.Text, "DistributorOOM") || !strings.Contains(m.Text, ts.URL+"/cases/IL-0191|IL-0191>") ||
			!strings.Contains(m.Text, "score 0.") {
			t.Errorf("notification: %s", m.Text)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notification within 10s")
	}
	// A resolved group is answered but not notified.
	do(t, http.DefaultClient, "POST", ts.URL+"/api/alerts", alertmanagerBody("resolved"), &ans)
	select {
	case m := <-got:
		t.Errorf("a resolved group was notified: %s", m.Text)
	case <-time.After(300 * time.Millisecond):
	}
	if status, _ := send(t, "POST", ts.URL+"/api/alerts", `{"version":"3","alerts":[]}`, map[string]string{"Content-Type": "application/json"}); status != 400 {
		t.Errorf("version 3: status %d, want 400", status)
	}
}

// TestReloadWaitsForStillness: a library whose fingerprint changes at
// every poll (a writer still at it) is not loaded until it holds still.
func TestReloadWaitsForStillness(t *testing.T) {
	// A writer that changes the library between every two looks, for 30
	// looks, then stops: the fingerprint moves with each call, so the test
	// does not depend on how the scheduler spaces the polls.
	const writes = 30
	var looks atomic.Int32
	stamp := func() uint64 {
		if n := looks.Add(1); n <= writes {
			return uint64(100 + n)
		}
		return 1000
	}
	var mu sync.Mutex
	var loadedAt []int32 // the looks taken when each load ran
	opts := testOptions("library")
	opts.PollInterval = 5 * time.Millisecond
	opts.Stamp = stamp
	opts.Library = func(func(error)) (*caselib.Library, error) {
		mu.Lock()
		loadedAt = append(loadedAt, looks.Load())
		mu.Unlock()
		return caselib.LoadSeeds()
	}
	s := watching(t, opts)
	deadline := time.Now().Add(10 * time.Second)
	for s.health().Reloads == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the library was not reloaded after it held still")
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	// The load at New, then loads only once the writer had stopped.
	for _, at := range loadedAt[1:] {
		if at <= writes {
			t.Errorf("a reload ran at look %d, while the library was still changing (until look %d); loads at %v", at, writes, loadedAt)
		}
	}
}

// BenchmarkMiddleware measures what the service middleware (request id,
// log line, metrics, Host and origin checks, and the token lookup when
// tokens are on) adds to a request, on a route that does nothing else.
func BenchmarkMiddleware(b *testing.B) {
	for _, tokens := range []bool{false, true} {
		b.Run(fmt.Sprintf("tokens=%v", tokens), func(b *testing.B) {
			opts := testOptions()
			opts.Log = io.Discard
			if tokens {
				tok, _ := ParseTokens([]byte("read " + readToken + "\n"))
				opts.Service.Tokens = tok
			}
			s, err := New(opts)
			if err != nil {
				b.Fatal(err)
			}
			h := s.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
			req := httptest.NewRequest("POST", "http://127.0.0.1:8080/api/match", strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+readToken)
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != 204 {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}

// TestReloadSkipsHalfWrittenFile: a JSON Lines library rewritten in place
// by a writer that is not atomic (truncate, then a few lines at a time) is
// never served half written: the server keeps the old library until the
// file holds still for a poll, then serves the whole new one.
func TestReloadSkipsHalfWrittenFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cases.jsonl")
	const n = 40
	lines := func(gen int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf(`{"id":"C-%02d","title":{"en":"pool exhausted, generation %d, case %d"}}`, i, gen, i))
		}
		return out
	}
	os.WriteFile(path, []byte(strings.Join(lines(1), "\n")+"\n"), 0o644)
	opts := testOptions(path)
	opts.PollInterval = 40 * time.Millisecond
	s := watching(t, opts)

	var fewest atomic.Int64
	fewest.Store(n)
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if l := int64(s.Len()); l < fewest.Load() {
				fewest.Store(l)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	// The rewrite: truncate, then two lines every 10 ms (a quarter of a
	// poll), whole lines only, so that every half-written state loads.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lines(2) {
		f.WriteString(l + "\n")
		if i%2 == 1 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	f.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ix := s.cur.Load().ix
		if ix.Len() == n && strings.Contains(ix.Case(0).Title.EN, "generation 2") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the rewritten library was not served within 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(stop)
	<-sampled
	if f := fewest.Load(); f < n {
		t.Errorf("served %d of %d cases while the file was being rewritten", f, n)
	}
}

// TestReloadCatchesEditWithTimeSetBack: an edit that keeps the file's
// size and sets its modification time back (a restore from a backup, a
// careful script) is still seen and served, as the CLI sees it: the server
// watches the same file stamps (caselib.Stamp is a hash of FileStamps,
// change time and inode included).
func TestReloadCatchesEditWithTimeSetBack(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cases.jsonl")
	write := func(site string) {
		t.Helper()
		line := `{"id":"C-01","title":{"en":"pool exhausted at site ` + site + `"}}` + "\n"
		if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("7")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)
	opts := testOptions(path)
	opts.PollInterval = 20 * time.Millisecond
	s := watching(t, opts)
	write("5") // same size
	os.Chtimes(path, old, old)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.cur.Load().ix.Case(0).Title.EN, "site 5") {
		if time.Now().After(deadline) {
			t.Fatal("a same-size edit with its time set back was not served within 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// serveLoopback starts a server with opts on a free loopback port, as
// caselink serve does (its own listener, Host checks and all), and stops it
// when the test ends.
func serveLoopback(t *testing.T, opts Options) (*Server, net.Listener) {
	t.Helper()
	s, err := New(opts)
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
	t.Cleanup(func() { cancel(); <-done })
	return s, ln
}

// watching returns a server of opts whose Watch runs until the test ends.
func watching(t *testing.T, opts Options) *Server {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Watch(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return s
}
