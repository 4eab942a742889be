package serve

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// POST /api/match takes min_score and explain; every hit says what fixed
// the case and how long it took.
func TestMatchMinScoreExplainRemedy(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	var all, strict HitList
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"`+onCallPaste+`","top":4,"min_score":0}`, &all)
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"`+onCallPaste+`","top":4,"min_score":0.2}`, &strict)
	if len(all.Hits) != 4 || len(strict.Hits) == 0 || len(strict.Hits) >= len(all.Hits) {
		t.Fatalf("min_score 0: %d hits, 0.2: %d hits", len(all.Hits), len(strict.Hits))
	}
	for _, h := range strict.Hits {
		if h.Score < 0.2 {
			t.Errorf("min_score 0.2 returned %s at %v", h.ID, h.Score)
		}
	}
	top := all.Hits[0]
	if top.ID != "IL-0191" || top.ResolvedAfter != "25m" || len(top.Remediation) == 0 ||
		!strings.HasPrefix(top.Remediation[0], "scaled the distributor Deployment") || top.Explain != nil {
		t.Errorf("top hit: %+v", top)
	}
	var ex HitList
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"`+onCallPaste+`","top":1,"explain":true}`, &ex)
	if len(ex.Hits) != 1 || ex.Hits[0].Explain == nil || len(ex.Hits[0].Explain.Parts) == 0 || ex.Hits[0].Explain.Score != ex.Hits[0].Score {
		t.Errorf("explain: %+v", ex.Hits)
	}
	var e errorBody
	if resp := do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"x","min_score":2}`, &e); resp.StatusCode != 400 ||
		!strings.Contains(e.Error, `"min_score" must be between 0 and 1`) {
		t.Errorf("min_score 2: %d %q", resp.StatusCode, e.Error)
	}
}

// GET /api/cases lists the library in pages.
func TestListCases(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	var page CaseList
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
	var e errorBody
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
