package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/similarity/caselib"
)

// shot saves a full-page screenshot as name in $CASELINK_SCREENSHOTS, when
// set, to look at.
func shot(t *testing.T, bctx context.Context, name string) { saveShot(t, bctx, name, true) }

// viewShot saves what the screen shows (not the whole page) as name in
// $CASELINK_SCREENSHOTS, when set: on a phone, what is above the fold.
func viewShot(t *testing.T, bctx context.Context, name string) { saveShot(t, bctx, name, false) }

func saveShot(t *testing.T, bctx context.Context, name string, full bool) {
	t.Helper()
	dir := os.Getenv("CASELINK_SCREENSHOTS")
	if dir == "" {
		return
	}
	capture := chromedp.CaptureScreenshot()
	if full {
		capture = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(bctx, capture)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserTrust checks what an on-call engineer reads at a glance: the
// library by its folder's name and case count, scores relative to the best
// hit with the paste / neighbour split, the hits the minimum score hid, a
// paste box that keeps a table's columns, Korean labels with ?lang=ko, and a
// header of one line on a phone.
func TestBrowserTrust(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "oncall-library")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	copySeeds(t, dir)
	_, ts := newTestServer(t, testOptions(dir))
	bctx := newBrowser(t, ctx)
	run, text := pageSteps(t, bctx)
	eval := evaluator(t, bctx)

	paste := "kube-apiserver restarted, etcd memory tripled, pods OOMKilled during the rollout"
	table := "\nNAME                      READY   STATUS      RESTARTS   AGE\napi-7f9c-xk2             0/1     OOMKilled   14         3m"
	run("matching a paste",
		chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.ID("paste")),
		chromedp.SetValue(chromedp.ID("paste"), paste),
		chromedp.Click(chromedp.ID("submit")),
		chromedp.WaitVisible(chromedp.CSS("#results > li:nth-child(2) .hit")),
	)
	lib := text("header.site .library")
	if !strings.Contains(lib, "oncall-library") || !strings.Contains(lib, "4 cases") || strings.Contains(lib, dir) {
		t.Errorf("header %q: want the folder's base name and the case count, not %s", lib, dir)
	}
	// Each hit shows its band, as the API gives it, never a share of the
	// best hit (a weak best hit used to read 100%).
	ans := apiHitList(t, ts.URL, paste)
	for i, h := range ans.Hits[:2] {
		sel := fmt.Sprintf("#results > li:nth-child(%d) .score-num", i+1)
		if s := text(sel); s != h.Band || strings.Contains(s, "%") {
			t.Errorf("hit %d shows %q, want its band %q", i+1, s, h.Band)
		}
	}
	if s := text("#results > li:nth-child(2) .split"); !strings.Contains(s, "% from the paste") || !strings.Contains(s, "% like IL-0194") {
		t.Errorf("second hit's split %q, want 'N%% from the paste, M%% like IL-0194'", s)
	}
	// The page says what the API says the minimum score hid.
	if ans.Hidden == 0 || len(ans.Hits) < 2 {
		t.Fatalf("the API shows %d hits and hides %d: the paste no longer tests hidden hits", len(ans.Hits), ans.Hidden)
	}
	if s, want := text("#hidden-note"), fmt.Sprintf("%d more cases scored below the minimum score 0.02", ans.Hidden); !strings.Contains(s, want) {
		t.Errorf("hidden note %q, want %q", s, want)
	}
	run("showing the hidden hits", chromedp.Click(chromedp.ID("show-hidden")),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf("#results > li:nth-child(%d) .hit", len(ans.Hits)+ans.Hidden))))
	if n, want := eval(`String(document.querySelectorAll('#results > li').length)`), fmt.Sprint(len(ans.Hits)+ans.Hidden); n != want {
		t.Errorf("after Show them: %s hits, want all %s", n, want)
	}
	// Prose wraps (a long Slack line stays in view); a table keeps its
	// columns (below).
	if ws := eval(`getComputedStyle(document.getElementById('paste')).whiteSpace`); ws != "pre-wrap" {
		t.Errorf("paste box white-space %q with prose, want pre-wrap", ws)
	}
	if ff := eval(`getComputedStyle(document.getElementById('paste')).fontFamily`); !strings.Contains(strings.ToLower(ff), "mono") {
		t.Errorf("paste box font %q, want monospace", ff)
	}
	run("a kubectl table in the paste box", chromedp.SetValue(chromedp.ID("paste"), paste+table))
	if ws := eval(`getComputedStyle(document.getElementById('paste')).whiteSpace`); ws != "pre" {
		t.Errorf("paste box white-space %q with a table, want pre (no wrapping)", ws)
	}
	if w := eval(`String(document.getElementById('paste').scrollWidth > document.getElementById('paste').clientWidth)`); w != "true" {
		t.Errorf("the paste box wraps long lines: no horizontal scroll")
	}
	run("saying the best hit helped", chromedp.Click(chromedp.CSS(`#results > li:first-child button.fb[data-helpful="true"]`)),
		chromedp.Poll[chromedp.Void](`document.querySelector('#results > li:first-child .fb-note').textContent !== ''`,
			chromedp.WithPollingTimeout(10*time.Second)))
	if s := text("#results > li:first-child .fb-note"); s != "Thanks: recorded." {
		t.Errorf("after Helpful: %q", s)
	}
	fb, err := caselib.NewFeedbackFile(filepath.Join(dir, caselib.FeedbackName)).Load()
	if err != nil || len(fb) != 1 || fb[0].ID != "IL-0194" || !fb[0].Helpful || fb[0].Paste != paste {
		t.Errorf("feedback recorded: %+v, %v; want IL-0194 helpful with the paste", fb, err)
	}
	shot(t, bctx, "match-en.png")

	// A paste like nothing in the library: the page says so instead of
	// listing weak hits, which one click lists, each called weak.
	odd := "printer jammed, restart did not help, pods"
	if a := apiHitList(t, ts.URL, odd); !a.Novel || len(a.Hits) == 0 {
		t.Fatalf("the API answers %q with novel %v and %d hits: the paste no longer tests a novel answer", odd, a.Novel, len(a.Hits))
	}
	run("a paste like nothing here", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.ID("paste")),
		chromedp.SetValue(chromedp.ID("paste"), odd), chromedp.Click(chromedp.ID("submit")),
		chromedp.WaitVisible(chromedp.ID("show-weak")))
	if s := text("#status .novel"); s != "Nothing like this here: a new kind of incident?" {
		t.Errorf("novel answer says %q", s)
	}
	if n := eval(`String(document.querySelectorAll('#results > li').length)`); n != "0" {
		t.Errorf("novel answer lists %s hits before the click", n)
	}
	shot(t, bctx, "match-novel.png")
	run("listing the weak hits", chromedp.Click(chromedp.ID("show-weak")),
		chromedp.WaitVisible(chromedp.CSS("#results > li:first-child .hit")))
	if s := text("#results > li:first-child .score-num"); s != "weak" {
		t.Errorf("a weak hit shows %q", s)
	}
	shot(t, bctx, "match-weak.png")

	// A filter that cannot keep a case says why, with the nearest
	// organisation of the library.
	run("an organisation the library does not have", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.ID("paste")),
		chromedp.SetValue(chromedp.ID("paste"), paste), chromedp.Click(chromedp.CSS("details.filters summary")),
		chromedp.SetValue(chromedp.ID("f-org"), "Grafana Lab"), chromedp.Click(chromedp.ID("submit")),
		chromedp.Poll[chromedp.Void](`document.getElementById('status').classList.contains('error')`, chromedp.WithPollingTimeout(10*time.Second)))
	if s := text("#status"); !strings.Contains(s, `did you mean "Grafana Labs"?`) {
		t.Errorf("unknown organisation: the page says %q", s)
	}
	shot(t, bctx, "match-org.png")

	run("the page in Korean",
		chromedp.Navigate(ts.URL+"/?lang=ko"), chromedp.WaitVisible(chromedp.ID("paste")),
		chromedp.SetValue(chromedp.ID("paste"), paste),
		chromedp.Click(chromedp.ID("submit")),
		chromedp.WaitVisible(chromedp.CSS("#results > li:nth-child(2) .hit")),
	)
	for sel, want := range map[string]string{
		"#paste-title": "보이는 내용을 붙여 넣으세요", "#submit": "비슷한 사례 찾기", "#results-heading": "비슷한 과거 사례",
		"#results > li:first-child .why .label": "이유", "header.site .lib-count": "4 건",
	} {
		if got := text(sel); got != want {
			t.Errorf("?lang=ko: %s = %q, want %q", sel, got, want)
		}
	}
	if s := text("#results > li:nth-child(2) .split"); !strings.Contains(s, "붙여 넣은 내용에서") {
		t.Errorf("?lang=ko: split %q, want Korean", s)
	}
	shot(t, bctx, "match-ko.png")
	run("a case page in Korean", chromedp.Navigate(ts.URL+"/cases/IL-0191?lang=ko"), chromedp.WaitVisible(chromedp.ID("related-heading")))
	if h := text("#related-heading"); h != "관련 사례" {
		t.Errorf("case page ?lang=ko: related heading %q, want 관련 사례", h)
	}
	if h := text(".crumbs a"); h != "← 새 검색" {
		t.Errorf("case page ?lang=ko: %q, want ← 새 검색", h)
	}

	run("a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("paste")))
	h := eval(`String(Math.round(document.querySelector('header.site').getBoundingClientRect().height))`)
	line := eval(`String(Math.round(parseFloat(getComputedStyle(document.querySelector('header.site .library')).lineHeight) || 20))`)
	if h == "" || line == "" || atoi(h) > 2*atoi(line)+20 {
		t.Errorf("header on a phone is %spx high (line %spx): want one line", h, line)
	}
	shot(t, bctx, "match-phone.png")
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// apiHitList answers paste through POST /api/match of the server at base.
func apiHitList(t *testing.T, base, paste string) api.HitList {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"text": paste})
	resp, err := http.Post(base+"/api/match", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out api.HitList
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /api/match: %d, %v", resp.StatusCode, err)
	}
	return out
}
