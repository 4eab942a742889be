package serve

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestLabelsComplete: every label has an English and a Korean text, so no
// page falls back to an empty label in either language.
func TestLabelsComplete(t *testing.T) {
	for key := range pageLabels["en"] {
		if pageLabels["ko"][key] == "" {
			t.Errorf("label %q has no Korean text", key)
		}
	}
	for key := range pageLabels["ko"] {
		if pageLabels["en"][key] == "" {
			t.Errorf("label %q has no English text", key)
		}
	}
}

// TestPagesInKorean: with ?lang=ko or Accept-Language: ko, the dupes review
// page, the not-found page and the page of an unknown case are Korean, with
// none of the English labels left; without, they are English.
func TestPagesInKorean(t *testing.T) {
	dir, _ := dupeLibrary(t)
	_, ts := newTestServer(t, testOptions(dir))
	get := func(path, accept string) (int, string) {
		t.Helper()
		hdr := map[string]string{}
		if accept != "" {
			hdr["Accept-Language"] = accept
		}
		return send(t, "GET", ts.URL+path, "", hdr)
	}
	// English phrases of the labels: several words, no markup, no blank
	// to fill (a single word such as "case" is part of other text).
	var english []string
	for key, en := range pageLabels["en"] {
		if strings.Contains(en, " ") && !strings.ContainsAny(en, "<%") && en != pageLabels["ko"][key] {
			english = append(english, en)
		}
	}
	slices.Sort(english)
	for _, tc := range []struct{ path, accept, want string }{
		{"/dupes?lang=ko", "", "중복 후보"},
		{"/dupes", "ko-KR,ko;q=0.9,en;q=0.5", "중복 후보"},
		{"/no/such/page?lang=ko", "", "찾을 수 없음"},
		{"/no/such/page", "ko", "페이지가 없습니다"},
		{"/cases/NOPE?lang=ko", "", "id가 &#34;NOPE&#34;인 사례가 없습니다"},
	} {
		_, page := get(tc.path, tc.accept)
		if !strings.Contains(page, `<html lang="ko">`) || !strings.Contains(page, tc.want) ||
			!strings.Contains(page, `href="/dupes?lang=ko"`) {
			t.Errorf("%s (Accept-Language %q): not Korean, want %q:\n%s", tc.path, tc.accept, tc.want, page)
		}
		for _, en := range english {
			if strings.Contains(page, en) {
				t.Errorf("%s (Accept-Language %q): English label %q left", tc.path, tc.accept, en)
			}
		}
	}
	if status, page := get("/dupes", ""); status != 200 || !strings.Contains(page, "<h1>Probable duplicates</h1>") {
		t.Errorf("/dupes: %d, not English", status)
	}
	if status, page := get("/no/such/page", ""); status != 404 || !strings.Contains(page, "There is no page at /no/such/page.") {
		t.Errorf("/no/such/page: %d, not English", status)
	}
}

// TestBrowserReviewKorean drives the dupes review page with ?lang=ko in a
// headless Chromium: the heading, the hint, the status line, the cluster's
// heading and every button are in Korean, the records' text is asked for
// in Korean, and a decision's note is Korean too. With
// CASELINK_SCREENSHOTS=DIR it saves dupes-ko.png there.
func TestBrowserReviewKorean(t *testing.T) {
	if len(hangulFonts()) == 0 && findChromium() != "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no font with Hangul (fc-list :lang=ko); run .ci/install-fonts")
		}
		t.Skip("no font with Hangul (fc-list :lang=ko): install fonts-nanum to run the Korean browser test")
	}
	ts, bctx, _ := reviewPage(t)
	run, text := pageSteps(t, bctx)
	run("loading the review page in Korean", chromedp.Navigate(ts.URL+"/dupes?lang=ko"), chromedp.WaitVisible(chromedp.ID("pair")))
	for sel, want := range map[string]string{
		"h1":                   "중복 후보",
		".hint":                "한 번에 한 사건씩",
		"#review-status":       "검토할 3쌍 중 1번째",
		"#cluster-head":        "한 사건의 기록 3건",
		"#btn-confirm":         "같은 사건: 확정",
		"#btn-dismiss":         "중복 아님: 기각",
		"#btn-skip":            "건너뛰기",
		"#btn-undo":            "취소",
		"#btn-confirm-cluster": "묶음 확정",
		"#btn-dismiss-cluster": "묶음 기각",
		".links-heading":       "근거",
		"header .library a":    "중복 검토",
	} {
		if got := text(sel); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	// No English label is left in what the page wrote itself (the records'
	// texts and the evidence are the library's and the engine's words).
	labels := text("h1") + text(".hint") + text("#review-status") + text("#cluster-head") + text(".actions") + text(".links-heading")
	for _, en := range []string{"Probable", "Confirm", "Dismiss", "Skip", "Undo", "Evidence", "Keys", "Cluster", "Pair", "records", "review"} {
		if strings.Contains(labels, en) {
			t.Errorf("English %q left among the labels: %q", en, labels)
		}
	}
	// The engine's evidence names its kinds in Korean too.
	if ev := text("#pair-evidence"); !strings.Contains(ev, "같은 조직: ") || !strings.Contains(ev, "같은 날") ||
		strings.Contains(ev, "same ") || strings.Contains(ev, "specific: ") {
		t.Errorf("evidence %q: want its kinds in Korean", ev)
	}
	shot(t, bctx, "dupes-ko.png")
	run("dismissing a pair", chromedp.KeyEvent("d"),
		chromedp.Poll[chromedp.Void](`document.getElementById('review-status').textContent.includes('기각했습니다')`,
			chromedp.WithPollingTimeout(10*time.Second)))
}
