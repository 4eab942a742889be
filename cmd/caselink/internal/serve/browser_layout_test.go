package serve

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserLayout checks the page where the user found it wanting,
// at desktop and phone sizes (CASELINK_SCREENSHOTS=DIR saves what it saw): a
// long Slack line wraps in the paste box while a kubectl table keeps its
// columns; on a phone the first hit is on screen once matched, and the
// review page does not scroll sideways; a Korean page says "like …" in
// Korean.
func TestBrowserLayout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dir, _ := dupeLibrary(t)
	_, ts := newTestServer(t, testOptions(dir))
	bctx := newBrowser(t, ctx)
	run, text := pageSteps(t, bctx)
	eval := evaluator(t, bctx)
	slack := "hey @oncall the loki distributor pods keep getting OOMKilled right after the deploy and only the new pods take the write traffic, readiness probes failing everywhere, anyone seen this before? " +
		"we rolled back once already and it came back within ten minutes"
	table := "NAME                      READY   STATUS      RESTARTS   AGE\ndistributor-7f9c-xk2      0/1     OOMKilled   14         3m"
	overflows := `String(document.getElementById('paste').scrollWidth > document.getElementById('paste').clientWidth)`

	run("a Slack line in the paste box", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.ID("paste")),
		chromedp.SendKeys(chromedp.ID("paste"), slack))
	if eval(overflows) != "false" {
		t.Errorf("a long Slack line does not wrap in the paste box")
	}
	shot(t, bctx, "layout-slack.png")
	eval(`(() => { const p = document.getElementById('paste'); p.value = ''; p.dispatchEvent(new Event('input')); return ''; })()`)
	run("a kubectl table", chromedp.SendKeys(chromedp.ID("paste"), table))
	if eval(overflows) != "true" && eval(`String(document.getElementById('paste').clientWidth < 700)`) == "true" {
		t.Errorf("a kubectl table wraps in the paste box: its columns are lost")
	}
	if ws := eval(`getComputedStyle(document.getElementById('paste')).whiteSpace`); ws != "pre" {
		t.Errorf("paste box with a table: white-space %q, want pre", ws)
	}

	run("a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("paste")), chromedp.SendKeys(chromedp.ID("paste"), slack),
		chromedp.Click(chromedp.ID("submit")), chromedp.WaitVisible(chromedp.CSS("#results > li:first-child .hit")))
	time.Sleep(300 * time.Millisecond) // a smooth scroll ends
	if top := eval(`String(Math.round(document.querySelector('#results > li:first-child .hit').getBoundingClientRect().top))`); atoi(top) >= 844 || strings.HasPrefix(top, "-") {
		t.Errorf("on a phone the first hit starts at %spx, below the fold (844px)", top)
	}
	if w := eval(`String(document.documentElement.scrollWidth)`); atoi(w) > 390 {
		t.Errorf("the match page is %spx wide on a 390px phone: it scrolls sideways", w)
	}
	viewShot(t, bctx, "layout-phone-match.png")
	run("the review page on a phone", chromedp.Navigate(ts.URL+"/dupes"), chromedp.WaitVisible(chromedp.ID("pair")))
	if w := eval(`String(document.documentElement.scrollWidth)`); atoi(w) > 390 {
		t.Errorf("/dupes is %spx wide on a 390px phone: it scrolls sideways", w)
	}
	viewShot(t, bctx, "layout-phone-dupes.png")

	run("the Korean page", chromedp.EmulateViewport(1366, 900), chromedp.Navigate(ts.URL+"/?lang=ko"),
		chromedp.WaitVisible(chromedp.ID("paste")),
		chromedp.SetValue(chromedp.ID("paste"), "kube-apiserver restarted, etcd memory tripled, pods OOMKilled during the rollout"),
		chromedp.Click(chromedp.ID("submit")), chromedp.WaitVisible(chromedp.CSS("#results mark.via")))
	if via := text("#results mark.via"); strings.HasPrefix(via, "like ") || !strings.Contains(via, "비슷한 사례") {
		t.Errorf("?lang=ko: chip %q, want it in Korean", via)
	}
	shot(t, bctx, "layout-ko.png")
}
