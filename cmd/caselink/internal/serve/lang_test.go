package serve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
)

func TestLang(t *testing.T) {
	tests := []struct {
		query, accept, want string
		bad                 bool
	}{
		{"", "", "en", false},
		{"lang=ko", "", "ko", false},
		{"lang=en", "ko-KR,ko;q=0.9", "en", false}, // the parameter wins
		{"", "ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", "ko", false},
		{"", "en-US,en;q=0.9,ko;q=0.8", "en", false},
		{"", "fr-FR,fr;q=0.9,ko;q=0.5", "ko", false}, // the first of en and ko
		{"", "de", "en", false},
		{"lang=fr", "", "", true},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/api/cases/IL-0100?"+tt.query, nil)
		if tt.accept != "" {
			r.Header.Set("Accept-Language", tt.accept)
		}
		got, err := Lang(r)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("Lang(?%s, Accept-Language %q) = %q, %v; want %q (error %v)", tt.query, tt.accept, got, err, tt.want, tt.bad)
		}
	}
}

// TestKoreanText checks that the API and the case page show a case's
// Korean text for lang=ko or a Korean Accept-Language, English otherwise,
// and English where a case has no Korean.
func TestKoreanText(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	get := func(path, accept string) (*http.Response, string) {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		if accept != "" {
			req.Header.Set("Accept-Language", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	var ko, en api.CaseView
	resp := do(t, http.DefaultClient, "GET", ts.URL+"/api/cases/IL-0100?lang=ko", "", &ko)
	if resp.StatusCode != 200 || !strings.HasPrefix(ko.Title, "노드가 파드의") || !strings.Contains(ko.Summary, "쿠버네티스") ||
		ko.Lang != "ko" || len(ko.Remediation) == 0 || !strings.Contains(ko.Remediation[0], "롤백") {
		t.Errorf("lang=ko: %d %+v", resp.StatusCode, ko)
	}
	if resp.Header.Get("Content-Language") != "ko" || !strings.Contains(resp.Header.Get("Vary"), "Accept-Language") {
		t.Errorf("lang=ko headers: %v", resp.Header)
	}
	for _, h := range ko.Related {
		if h.Title == "" || !strings.ContainsFunc(h.Title, isHangul) {
			t.Errorf("lang=ko related title not Korean: %+v", h)
		}
	}
	do(t, http.DefaultClient, "GET", ts.URL+"/api/cases/IL-0100", "", &en)
	if !strings.HasPrefix(en.Title, "PostHog") || en.Lang != "en" {
		t.Errorf("default: %+v", en)
	}
	if _, body := get("/api/cases/IL-0100", "ko-KR,ko;q=0.9,en;q=0.5"); !strings.Contains(body, `"title":"노드가 파드의`) {
		t.Errorf("Accept-Language ko: %s", body)
	}
	var hits api.HitList
	resp = do(t, http.DefaultClient, "POST", ts.URL+"/api/match?lang=ko", matchBody("노드 CPU 포화로 파드들이 크래시 루프, 레디스 메모리 바닥", 1), &hits)
	if resp.StatusCode != 200 || len(hits.Hits) != 1 || hits.Hits[0].ID != "IL-0100" || !strings.HasPrefix(hits.Hits[0].Title, "노드가") {
		t.Errorf("match lang=ko: %d %+v", resp.StatusCode, hits)
	}
	var e api.ErrorBody
	if resp = do(t, http.DefaultClient, "GET", ts.URL+"/api/cases/IL-0100?lang=fr", "", &e); resp.StatusCode != 400 || !strings.Contains(e.Error, "lang") {
		t.Errorf("lang=fr: %d %+v", resp.StatusCode, e)
	}

	// the page: Korean text, lang attribute, a language switch, links that keep the language
	_, page := get("/cases/IL-0100?lang=ko", "")
	for _, want := range []string{`lang="ko"`, "노드가 파드의 CPU", `href="?lang=en"`, `?lang=ko"`} {
		if !strings.Contains(page, want) {
			t.Errorf("/cases/IL-0100?lang=ko lacks %q", want)
		}
	}
	if _, page = get("/cases/IL-0100", ""); !strings.Contains(page, "PostHog&#39;s feature flags") && !strings.Contains(page, "PostHog's feature flags") {
		t.Errorf("/cases/IL-0100 is not English:\n%s", page)
	}
}

func isHangul(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }
