package serve

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/chromedp"
)

// hangulFonts returns the families of the installed fonts that cover
// Korean, as fontconfig lists them, or nil.
func hangulFonts() []string {
	out, err := exec.Command("fc-list", ":lang=ko", "family").Output()
	if err != nil {
		return nil
	}
	var fams []string
	for _, line := range strings.Split(string(out), "\n") {
		for _, f := range strings.Split(line, ",") {
			if f = strings.TrimSpace(f); f != "" {
				fams = append(fams, f)
			}
		}
	}
	return fams
}

// TestBrowserKorean drives the page with ?lang=ko in a headless Chromium: a
// Korean paste finds the seed it describes, the hit's title is the case's
// Korean title, the case page shows its Korean text, and the title's Hangul
// is drawn with a font that has Hangul (not as empty boxes).
func TestBrowserKorean(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	fonts := hangulFonts()
	if len(fonts) == 0 && findChromium() != "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no font with Hangul (fc-list :lang=ko); run .ci/install-fonts")
		}
		t.Skip("no font with Hangul (fc-list :lang=ko): install fonts-nanum to run the Korean browser test")
	}
	_, ts := newTestServer(t, testOptions())
	bctx := newBrowser(t, ctx)
	run, text := pageSteps(t, bctx)

	run("pasting in Korean",
		chromedp.Navigate(ts.URL+"/?lang=ko"),
		chromedp.WaitVisible(chromedp.ID("paste")),
		chromedp.SetValue(chromedp.ID("paste"), "노드 CPU 포화로 파드들이 크래시 루프, 레디스 메모리 바닥나고 커넥션 풀 고갈"),
		chromedp.Click(chromedp.ID("submit")),
		chromedp.WaitVisible(chromedp.CSS("#results > li:first-child .hit")),
	)
	if id := text("#results > li:first-child .hit-id"); id != "IL-0100" {
		t.Errorf("first result %q, want IL-0100", id)
	}
	if h := text("#results > li:first-child h3"); !strings.HasPrefix(h, "노드가 파드의") {
		t.Errorf("first result's title %q, want IL-0100's Korean title", h)
	}

	run("opening the case page",
		chromedp.Click(chromedp.CSS("#results > li:first-child h3 a")),
		chromedp.WaitVisible(chromedp.ID("case-title")),
	)
	if h := text("#case-title"); !strings.HasPrefix(h, "노드가 파드의") {
		t.Errorf("case page title %q", h)
	}
	if url, err := chromedp.Run(bctx, chromedp.Location()); err != nil || !strings.HasSuffix(url, "/cases/IL-0100?lang=ko") {
		t.Errorf("case page url %q, %v", url, err)
	}

	// which fonts drew the title: one of them must be a Hangul font
	used, err := chromedp.Run(bctx, func(ctx context.Context, tg *chromedp.Target) ([]*css.PlatformFontUsage, error) {
		nodes, err := chromedp.Nodes(chromedp.ID("case-title"))(ctx, tg)
		if err != nil || len(nodes) == 0 {
			return nil, err
		}
		if _, err := cdp.Call(ctx, tg, css.Enable, cdp.Empty{}); err != nil {
			return nil, err
		}
		res, err := cdp.Call(ctx, tg, css.GetPlatformFontsForNode, css.GetPlatformFontsForNodeParams{NodeID: nodes[0].NodeID})
		return res.Fonts, err
	})
	if err != nil {
		t.Fatalf("fonts of the case title: %v", err)
	}
	hangul := false
	var names []string
	for _, f := range used {
		names = append(names, f.FamilyName)
		for _, fam := range fonts {
			if f.FamilyName == fam && f.GlyphCount > 0 {
				hangul = true
			}
		}
	}
	t.Logf("the Korean title is drawn with %q", names)
	if !hangul {
		t.Errorf("the Korean title is drawn with %q, none of the Hangul fonts %q", names, fonts)
	}
}
