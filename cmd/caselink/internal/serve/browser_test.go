package serve

import (
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// findChromium returns the path of a Chromium or Chrome binary, or "".
func findChromium() string {
	if fi, err := os.Stat("/usr/bin/chromium"); err == nil && !fi.IsDir() {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// newBrowser starts a headless Chromium for the test, or skips the test when
// there is none and CI is not "true" (in CI a missing browser fails).
func newBrowser(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	if testing.Short() {
		// Chromium is most of -short's time; the full run (and CI) drives
		// every page.
		t.Skip("-short: the full run drives the pages in Chromium")
	}
	path := findChromium()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no Chromium found (/usr/bin/chromium, or chromium, chromium-browser, google-chrome in PATH); run .ci/install-chromium")
		}
		t.Skip("no Chromium found: install chromium to run the browser test")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1366, 900), // a laptop screen
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	// Cleanups run last-in first-out: the browser stops (and the allocator
	// waits for it) before t.TempDir removes the profile.
	t.Cleanup(cancelAlloc)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(bctx); err != nil { // start it now
		t.Fatalf("starting %s: %v", path, err)
	}
	return bctx
}

// evaluator returns a function that runs JavaScript on the page and gives
// its string result, failing the test on an error.
func evaluator(t *testing.T, bctx context.Context) func(js string) string {
	return func(js string) string {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return s
	}
}

// pageSteps returns the two ways the browser tests drive a page: run steps
// (failing the test with what was being done), and read the visible text of
// a CSS selector.
func pageSteps(t *testing.T, bctx context.Context) (run func(what string, steps ...chromedp.Action[chromedp.Void]), text func(sel string) string) {
	run = func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text = func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
		if err != nil {
			t.Fatalf("reading %s: %v", sel, err)
		}
		return s
	}
	return run, text
}

// TestBrowserMatch drives the page in a real headless Chromium: type an
// on-call paste, submit with Ctrl+Enter, read the first result and its "why"
// line, then follow it to the case page. With CASELINK_SCREENSHOT set to a
// path, it also saves a full-page PNG of the answered page there.
func TestBrowserMatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, ts := newTestServer(t, testOptions())
	bctx := newBrowser(t, ctx)

	var mu sync.Mutex
	var problems []string
	msgs := chromedp.Console(bctx) // subscribe before the page loads
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				mu.Lock()
				problems = append(problems, string(m.Type)+": "+m.Text)
				mu.Unlock()
			}
		}
	}()

	run, text := pageSteps(t, bctx)

	run("loading the page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.ID("paste")))
	focused, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.activeElement && document.activeElement.id`))
	if err != nil || focused != "paste" {
		t.Errorf("the text area is not focused on load: %q, %v", focused, err)
	}

	paste := "distributor pods OOMKilled right after the rollout,\nonly the new pods get write traffic, readiness probes failing"
	run("typing and pressing Ctrl+Enter",
		chromedp.SendKeys(chromedp.ID("paste"), paste),
		chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.WaitVisible(chromedp.CSS("#results > li:first-child .hit")),
	)
	if id := text("#results > li:first-child .hit-id"); id != "IL-0191" {
		t.Errorf("first result %q, want IL-0191", id)
	}
	why := text("#results > li:first-child .why")
	if !strings.Contains(why, "distributor") || !strings.Contains(why, "OOMKilled") {
		t.Errorf("why line of the first result: %q", why)
	}
	if s := text("#results > li:first-child .score-num"); s == "" || s == "0.00" {
		t.Errorf("score %q", s)
	}
	if st := text("#status"); !strings.Contains(st, "similar case") {
		t.Errorf("status %q", st)
	}
	// what fixed it, and the paste kept in the address
	if fix := text("#results > li:first-child .fix"); !strings.Contains(fix, "scaled the distributor Deployment") {
		t.Errorf("what fixed the first result: %q", fix)
	}
	if took := text("#results > li:first-child .took"); !strings.Contains(took, "resolved after 25m") {
		t.Errorf("time to resolve of the first result: %q", took)
	}
	q, err := chromedp.Run(bctx, chromedp.Evaluate[string](`new URL(location.href).searchParams.get('q')`))
	if err != nil || q != paste {
		t.Errorf("the address keeps %q, want the paste (%v)", q, err)
	}
	run("opening a shared link /?q=…",
		chromedp.Navigate(ts.URL+"/?q="+url.QueryEscape(paste)),
		chromedp.WaitVisible(chromedp.CSS("#results > li:first-child .hit")),
	)
	if id := text("#results > li:first-child .hit-id"); id != "IL-0191" {
		t.Errorf("shared link: first result %q, want IL-0191", id)
	}

	if path := os.Getenv("CASELINK_SCREENSHOT"); path != "" {
		run("waiting for the page to settle", chromedp.Poll[chromedp.Void](
			`document.getAnimations().every((a) => a.playState === 'finished')`, chromedp.WithPollingTimeout(5*time.Second)))
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot saved to %s", path)
	}

	// the button works too, and an empty paste is refused on the page
	run("clearing and clicking the button",
		chromedp.SetValue(chromedp.ID("paste"), "   "),
		chromedp.Click(chromedp.ID("submit")),
		chromedp.Poll[chromedp.Void](`document.getElementById('status').classList.contains('error')`,
			chromedp.WithPollingTimeout(10*time.Second)),
	)

	// the title links to the readable case page, which lists related cases
	run("opening the case page",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.SendKeys(chromedp.ID("paste"), paste),
		chromedp.Click(chromedp.ID("submit")),
		chromedp.WaitVisible(chromedp.CSS("#results > li:first-child h3 a")),
		chromedp.Click(chromedp.CSS("#results > li:first-child h3 a")),
		chromedp.WaitVisible(chromedp.ID("case-title")),
	)
	if h := text("#case-title"); !strings.Contains(h, "label selector") {
		t.Errorf("case page title %q", h)
	}
	if h := text("#related-heading"); h != "Related cases" {
		t.Errorf("case page has no related section: %q", h)
	}

	time.Sleep(100 * time.Millisecond) // let late console messages arrive
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Errorf("browser console: %s", p)
	}
	if err := ctx.Err(); errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("browser test ran out of time")
	}
}
