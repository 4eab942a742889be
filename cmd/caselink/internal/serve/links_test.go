package serve

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
)

// hostileLibrary writes two near-identical cases (a probable duplicate
// pair) whose url and sources are javascript: and data: URLs beside one
// https source.
func hostileLibrary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	const c = `{"id":"%s","org":"Acme","date":"2024-05-01","url":"javascript:alert(1)",` +
		`"sources":[{"url":"JavaScript:alert(2)"},{"url":"data:text/html,<b>x</b>"},{"url":"https://example.com/pm"}],` +
		`"title":{"en":"Distributor pods OOMKilled after the rollout, write traffic on the new pods only"},` +
		`"summary":{"en":"The distributor pods were OOMKilled right after the rollout; only the new pods took write traffic."}}`
	for _, id := range []string{"X-1", "X-2"} {
		if err := os.WriteFile(filepath.Join(dir, id+".json"), []byte(strings.ReplaceAll(c, "%s", id)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestWebURL: only absolute http(s) URLs may become links.
func TestWebURL(t *testing.T) {
	for u, want := range map[string]bool{
		"https://example.com/pm": true, "HTTP://example.com": true,
		"javascript:alert(1)": false, "JavaScript:alert(1)": false, " javascript:alert(1)": false,
		"data:text/html,x": false, "vbscript:x": false, "//evil.example/x": false, "/cases/X": false,
		"https:///nohost": false, "": false, "file:///etc/passwd": false,
	} {
		if got := WebURL(u); got != want {
			t.Errorf("WebURL(%q) = %v, want %v", u, got, want)
		}
	}
}

// TestCasePageLinksOnlyWeb: the case page shows a javascript: or data: URL
// as text, and links the https source.
func TestCasePageLinksOnlyWeb(t *testing.T) {
	_, ts := newTestServer(t, testOptions(hostileLibrary(t)))
	resp, err := http.Get(ts.URL + "/cases/X-1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := string(b)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	for _, bad := range []string{`href="javascript`, `href="JavaScript`, `href="data:`, `#ZgotmplZ`} {
		if strings.Contains(page, bad) {
			t.Errorf("case page holds %s", bad)
		}
	}
	if !strings.Contains(page, `href="https://example.com/pm"`) {
		t.Error("the https source is not a link")
	}
	if !strings.Contains(page, `javascript:alert(1)`) {
		t.Error("the case's url is not shown as text")
	}
}

// TestSlackMessageLinksOnlyWeb: a notification links a hit's source only
// when it is a web address.
func TestSlackMessageLinksOnlyWeb(t *testing.T) {
	s := &Server{}
	ans := api.AlertsAnswer{Alerts: []api.AlertHits{{Status: "firing", Hits: []api.Hit{
		{ID: "X-1", Score: 0.5, Title: "t", URL: "javascript:alert(1)"},
		{ID: "X-2", Score: 0.4, Title: "t", URL: "https://example.com/pm?a=1&b=2"},
	}}}}
	msg := s.slackMessage(api.AlertmanagerMessage{}, ans, "https://caselink.internal").Text
	if strings.Contains(msg, "javascript") {
		t.Errorf("message links a javascript: URL:\n%s", msg)
	}
	if !strings.Contains(msg, "<https://example.com/pm?a=1&amp;b=2|source>") {
		t.Errorf("message does not link the https source:\n%s", msg)
	}
}

// TestBrowserLinksOnlyWeb: on the match page and the review page, no
// element links anything but http(s) and the server's own pages, while the
// https source stays a link.
func TestBrowserLinksOnlyWeb(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	opts := testOptions(hostileLibrary(t))
	opts.DupesThreshold = 0.1
	_, ts := newTestServer(t, opts)
	bctx := newBrowser(t, ctx)
	run, _ := pageSteps(t, bctx)
	eval := evaluator(t, bctx)
	badLinks := func() string {
		return eval(`[...document.querySelectorAll('a[href]')].map(a => a.protocol).filter(p => p !== 'http:' && p !== 'https:').join(' ')`)
	}
	run("matching a paste",
		chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.ID("paste")),
		chromedp.SetValue(chromedp.ID("paste"), "distributor pods OOMKilled after the rollout"),
		chromedp.Click(chromedp.ID("submit")),
		// In a library of two cases the hits may all be weak: the page
		// then says so and lists them on a click.
		chromedp.WaitVisible(chromedp.CSS("#results > li:first-child .hit, #show-weak")),
	)
	eval(`(document.getElementById('show-weak')?.click(), '')`)
	run("listing the hits", chromedp.WaitVisible(chromedp.CSS("#results > li:first-child .hit")))
	if bad := badLinks(); bad != "" {
		t.Errorf("match page links %s", bad)
	}
	run("reviewing the pair", chromedp.Navigate(ts.URL+"/dupes"), chromedp.WaitVisible(chromedp.CSS("#case-a .case-sources li")))
	if bad := badLinks(); bad != "" {
		t.Errorf("review page links %s", bad)
	}
	got := eval(`[...document.querySelectorAll('#case-a .case-sources li')].map(li => (li.querySelector('a') ? 'link ' : 'text ') + li.textContent).join('|')`)
	if want := "link https://example.com/pm"; got != want { // the API gives only web sources
		t.Errorf("review sources %q, want %q", got, want)
	}
}
