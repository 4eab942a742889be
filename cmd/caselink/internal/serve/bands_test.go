package serve

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/cmd/caselink/internal/curate"
)

// TestMatchBands checks what a user reads in an API answer: each hit's
// band, "novel" when no hit reaches possible (the weak hits still there),
// and "more" counting every case that scored, past the top too.
func TestMatchBands(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	var got api.HitList
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", matchBody(onCallPaste, 1), &got)
	if len(got.Hits) != 1 || got.Hits[0].Band != curate.MatchBands.Band(got.Hits[0].Score) || got.Hits[0].Band == curate.Weak {
		t.Fatalf("hits %+v: want one hit banded by its score, not weak", got.Hits)
	}
	if got.Novel {
		t.Errorf("a paste about IL-0191 answered as new")
	}
	if got.More < 1 || !strings.Contains(got.Note, "past the top 1") {
		t.Errorf("more %d, note %q: want the seeds that scored past the top 1 counted", got.More, got.Note)
	}

	got = api.HitList{}
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"the coffee machine on the third floor is leaking water","min_score":0}`, &got)
	if !got.Novel {
		t.Errorf("an unrelated paste is not novel: %+v", got)
	}
	for _, h := range got.Hits {
		if h.Band != curate.Weak {
			t.Errorf("%s is %s at %.4f in a novel answer", h.ID, h.Band, h.Score)
		}
	}
}

// TestMatchFiltersSayWhy checks that a filter that cannot keep a case says
// why: an organisation by another name is read as the library's, an unknown
// one gets the nearest, a domain tag no case has names those it has.
func TestMatchFiltersSayWhy(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	post := func(filters string) (int, api.HitList, string) {
		var got api.HitList
		var e api.ErrorBody
		resp := do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"pods OOMKilled","min_score":0,"filters":`+filters+`}`, &got)
		if resp.StatusCode != 200 {
			do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"pods OOMKilled","min_score":0,"filters":`+filters+`}`, &e)
		}
		return resp.StatusCode, got, e.Error
	}
	if code, _, msg := post(`{"org":"Grafana Lab"}`); code != 400 || !strings.Contains(msg, `did you mean "Grafana Labs"?`) {
		t.Errorf("org Grafana Lab: %d %q, want 400 with did you mean", code, msg)
	}
	if code, _, msg := post(`{"domain":"kubernets"}`); code != 400 || !strings.Contains(msg, "no case of the library has this domain tag") || !strings.Contains(msg, "kubernetes") {
		t.Errorf("domain kubernets: %d %q", code, msg)
	}
	if code, got, _ := post(`{"org":"Grafana Labs","until":"2010"}`); code != 200 || len(got.Filters) != 1 || !strings.Contains(got.Filters[0], "no case of the library passes these filters together") || got.Novel {
		t.Errorf("filters no case passes: %d %+v", code, got)
	}
}

// TestSlackBands checks the notification: each case with its band, and
// "nothing like this here" when the closest is weak.
func TestSlackBands(t *testing.T) {
	s := &Server{}
	msg := api.AlertmanagerMessage{Status: "firing", GroupLabels: map[string]string{"alertname": "DistributorOOM"}, Alerts: []api.Alert{{Status: "firing"}}}
	strong := api.AlertsAnswer{Alerts: []api.AlertHits{{Status: "firing", Hits: []api.Hit{{ID: "IL-0191", Title: "Loki distributors OOM", Score: 0.12, Band: curate.Strong}}}}}
	if m := s.slackMessage(msg, strong, "http://x").Text; !strings.Contains(m, "(strong, score 0.12)") {
		t.Errorf("notification without the band:\n%s", m)
	}
	weak := api.AlertsAnswer{Alerts: []api.AlertHits{{Status: "firing", Hits: []api.Hit{{ID: "IL-0100", Title: "PostHog", Score: 0.02, Band: curate.Weak}}}}}
	if m := s.slackMessage(msg, weak, "http://x").Text; !strings.Contains(m, curate.NothingLike) || !strings.Contains(m, "is weak (score 0.02)") {
		t.Errorf("weak notification:\n%s", m)
	}
}

// TestCasePageBands checks that a case page's similar cases show their band
// (a case-to-case score's), in the page's language, not a bare number.
func TestCasePageBands(t *testing.T) {
	opts := testOptions()
	opts.RelateMinScore = 0
	_, ts := newTestServer(t, opts)
	var v api.CaseView
	do(t, http.DefaultClient, "GET", ts.URL+"/api/cases/IL-0100", "", &v)
	if len(v.Related) == 0 || v.Related[0].Band != curate.CaseBands.Band(v.Related[0].Score) {
		t.Fatalf("related %+v: want hits banded as case-to-case scores", v.Related)
	}
	for lang, word := range map[string]string{"en": v.Related[0].Band, "ko": pageLabels["ko"]["band-"+v.Related[0].Band]} {
		resp, err := http.Get(ts.URL + "/cases/IL-0100?lang=" + lang)
		if err != nil {
			t.Fatal(err)
		}
		b := new(strings.Builder)
		_, _ = io.Copy(b, resp.Body)
		resp.Body.Close()
		if want := `<div class="score ` + v.Related[0].Band + `"><span class="score-num band">` + word + `</span>`; !strings.Contains(b.String(), want) {
			t.Errorf("case page ?lang=%s lacks %s", lang, want)
		}
	}
}
