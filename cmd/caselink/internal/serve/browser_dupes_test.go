package serve

import (
	"context"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/caselink/caselink/similarity/caselib"
	"github.com/chromedp/chromedp"
)

// reviewPage starts a server on the dupes library and a browser for it.
func reviewPage(t *testing.T) (*httptest.Server, context.Context, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	dir, decisions := dupeLibrary(t)
	_, ts := newTestServer(t, testOptions(dir))
	return ts, newBrowser(t, ctx), decisions
}

// TestBrowserReviewDupes drives the review page in a headless Chromium with
// the keyboard alone: d dismisses the pair shown, c confirms the next, u
// undoes that, s skips; each decision lands in the decisions file. With
// CASELINK_DUPES_SCREENSHOT set to a path it saves a PNG of the page.
func TestBrowserReviewDupes(t *testing.T) {
	ts, bctx, decisions := reviewPage(t)
	run, text := pageSteps(t, bctx)
	// waitFor polls until the pair shown is want.
	waitFor := func(what, want string) {
		t.Helper()
		run(what, chromedp.Poll[chromedp.Void](`document.getElementById('pair-ids').textContent === '`+want+`'`,
			chromedp.WithPollingTimeout(10*time.Second)))
	}
	verdicts := func() map[[2]string]caselib.Verdict {
		t.Helper()
		ds, err := caselib.NewDecisionFile(decisions).Load()
		if err != nil {
			t.Fatal(err)
		}
		return caselib.Verdicts(ds)
	}

	run("loading the review page", chromedp.Navigate(ts.URL+"/dupes"), chromedp.WaitVisible(chromedp.ID("pair")))
	if got := text("#pair-ids"); got != "IL-0191 ~ IL-0991" {
		t.Fatalf("first pair %q, want IL-0191 ~ IL-0991", got)
	}
	if st := text("#review-status"); !strings.Contains(st, "Pair 1 of 3") {
		t.Errorf("status %q", st)
	}
	// Both records side by side with what they say, dates, organisations,
	// the words they share marked; the cluster of the three copies; the
	// evidence named; confirm and dismiss told apart.
	for _, side := range []string{"#case-a", "#case-b"} {
		if got := text(side + " .case-text"); len(got) < 40 {
			t.Errorf("%s text %q: want the record's text", side, got)
		}
		if got := text(side + " .case-meta"); !strings.Contains(got, "2024") && !strings.Contains(got, "20") {
			t.Errorf("%s date and org %q", side, got)
		}
		if got := text(side + " mark"); got == "" {
			t.Errorf("%s: no shared word marked", side)
		}
	}
	if got := text("#cluster-head"); !strings.Contains(got, "3 records of one event") {
		t.Errorf("cluster heading %q: want the three copies' cluster", got)
	}
	if got := text("#pair-evidence"); got == "" {
		t.Errorf("no evidence named")
	}
	bg := func(id string) string {
		t.Helper()
		c, err := chromedp.Run(bctx, chromedp.Evaluate[string](`getComputedStyle(document.getElementById('`+id+`')).backgroundColor`))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if confirmBG, dismissBG := bg("btn-confirm"), bg("btn-dismiss"); confirmBG == dismissBG {
		t.Errorf("confirm and dismiss look alike (both %s)", confirmBG)
	}
	if path := os.Getenv("CASELINK_DUPES_SCREENSHOT"); path != "" {
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, png, 0o644)
	}
	run("pressing d", chromedp.KeyEvent("d"))
	waitFor("the next pair after a dismissal", "IL-0191 ~ IL-0992")
	if v := verdicts()[[2]string{"IL-0191", "IL-0991"}]; v != caselib.NotDuplicate {
		t.Errorf("after d the file holds %q for IL-0191~IL-0991", v)
	}
	run("pressing c", chromedp.KeyEvent("c"))
	waitFor("the next pair after a confirmation", "IL-0991 ~ IL-0992")
	if v := verdicts()[[2]string{"IL-0191", "IL-0992"}]; v != caselib.Duplicate {
		t.Errorf("after c the file holds %q for IL-0191~IL-0992", v)
	}
	run("pressing u", chromedp.KeyEvent("u"))
	waitFor("the undone pair shown again", "IL-0191 ~ IL-0992")
	if v, ok := verdicts()[[2]string{"IL-0191", "IL-0992"}]; ok {
		t.Errorf("after u the file still holds %q for IL-0191~IL-0992", v)
	}
	run("pressing s twice", chromedp.KeyEvent("s"), chromedp.KeyEvent("s"),
		chromedp.Poll[chromedp.Void](`document.getElementById('pair').hidden`, chromedp.WithPollingTimeout(10*time.Second)))
	if st := text("#review-status"); !strings.Contains(st, "2 skipped") {
		t.Errorf("status after skipping the rest: %q", st)
	}
	if st, err := os.Stat(decisions); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("decisions file mode after the review: %v, %v", st.Mode(), err)
	}
}

// TestBrowserReviewCluster dismisses a whole cluster with Shift+D: every
// pair of the three copies lands in the decisions file as not a duplicate.
func TestBrowserReviewCluster(t *testing.T) {
	ts, bctx, decisions := reviewPage(t)
	run, text := pageSteps(t, bctx)
	run("loading the review page", chromedp.Navigate(ts.URL+"/dupes"), chromedp.WaitVisible(chromedp.ID("cluster")))
	run("pressing Shift+D", chromedp.KeyEvent("D"),
		chromedp.Poll[chromedp.Void](`document.getElementById('pair').hidden`, chromedp.WithPollingTimeout(10*time.Second)))
	ds, err := caselib.NewDecisionFile(decisions).Load()
	if err != nil {
		t.Fatal(err)
	}
	v := caselib.Verdicts(ds)
	for _, p := range [][2]string{{"IL-0191", "IL-0991"}, {"IL-0191", "IL-0992"}, {"IL-0991", "IL-0992"}} {
		if v[p] != caselib.NotDuplicate {
			t.Errorf("after D the file holds %q for %s~%s, want not-duplicate", v[p], p[0], p[1])
		}
	}
	if st := text("#review-status"); !strings.Contains(st, "Dismissed 3 pair(s) of cluster 1") {
		t.Errorf("status %q", st)
	}
}
