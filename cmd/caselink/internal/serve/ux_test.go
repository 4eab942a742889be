package serve

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
)

// POST /api/match takes min_score and explain; every hit says what fixed
// the case and how long it took.
func TestMatchMinScoreExplainRemedy(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	var all, strict api.HitList
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"`+onCallPaste+`","top":4,"min_score":0}`, &all)
	if len(all.Hits) != 4 || all.Hits[0].Score <= all.Hits[1].Score {
		t.Fatalf("min_score 0: %+v", all.Hits)
	}
	// a bar between the best two scores keeps the best hit only
	bar := (all.Hits[0].Score + all.Hits[1].Score) / 2
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", fmt.Sprintf(`{"text":%q,"top":4,"min_score":%v}`, onCallPaste, bar), &strict)
	if len(strict.Hits) != 1 || strict.Hits[0].ID != all.Hits[0].ID {
		t.Errorf("min_score %v: %+v", bar, strict.Hits)
	}
	top := all.Hits[0]
	if top.ID != "IL-0191" || top.ResolvedAfter != "25m" || len(top.Remediation) == 0 ||
		!strings.HasPrefix(top.Remediation[0], "scaled the distributor Deployment") || top.Explain != nil {
		t.Errorf("top hit: %+v", top)
	}
	var ex api.HitList
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"`+onCallPaste+`","top":1,"explain":true}`, &ex)
	if len(ex.Hits) != 1 || ex.Hits[0].Explain == nil || len(ex.Hits[0].Explain.Parts) == 0 || ex.Hits[0].Explain.Score != ex.Hits[0].Score {
		t.Errorf("explain: %+v", ex.Hits)
	}
	var e api.ErrorBody
	if resp := do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"x","min_score":2}`, &e); resp.StatusCode != 400 ||
		!strings.Contains(e.Error, `"min_score" must be between 0 and 1`) {
		t.Errorf("min_score 2: %d %q", resp.StatusCode, e.Error)
	}
}

// GET /api/cases lists the library in pages.
func TestListCases(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	var page api.CaseList
	if resp := do(t, http.DefaultClient, "GET", ts.URL+"/api/cases?limit=3", "", &page); resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if page.Total != 4 || page.Offset != 0 || len(page.Cases) != 3 || page.Cases[0].ID != "IL-0100" || page.Cases[0].Title == "" {
		t.Errorf("page 1: %+v", page)
	}
	do(t, http.DefaultClient, "GET", ts.URL+"/api/cases?offset=3&limit=3", "", &page)
	if page.Total != 4 || page.Offset != 3 || len(page.Cases) != 1 || page.Cases[0].ID != "IL-0371" {
		t.Errorf("page 2: %+v", page)
	}
	do(t, http.DefaultClient, "GET", ts.URL+"/api/cases?offset=10", "", &page)
	if len(page.Cases) != 0 || page.Cases == nil {
		t.Errorf("past the end: %+v", page)
	}
	var e api.ErrorBody
	if resp := do(t, http.DefaultClient, "GET", ts.URL+"/api/cases?limit=0", "", &e); resp.StatusCode != 400 {
		t.Errorf("limit 0: %d", resp.StatusCode)
	}
}

// /?q=… opens the page with the paste in the text area (escaped), so that a
// search can be shared as a link; the page's script matches it on load.
func TestPageKeepsPasteInURL(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	resp, err := http.Get(ts.URL + "/?q=" + url.QueryEscape(`pods OOMKilled <b>"x"</b>`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `>pods OOMKilled &lt;b&gt;&#34;x&#34;&lt;/b&gt;</textarea>`) {
		t.Errorf("status %d; the text area does not hold the paste:\n%s", resp.StatusCode, body)
	}
}

// A library with a related link to no case loads, and the log says so.
func TestServeWarnsDanglingLinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"id":"A-1","title":"pool exhausted","related":["NO-SUCH"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	opts := testOptions(dir)
	opts.Log = &log
	if _, err := New(opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), `warning: `) || !strings.Contains(log.String(), `links to "NO-SUCH", which is no case of the library; run caselink check`) {
		t.Errorf("log:\n%s", log.String())
	}
}
