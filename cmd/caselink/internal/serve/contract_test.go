package serve

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/similarity/caselib"
)

// The API answers what caselink match --json prints: a missing "top" is 5,
// refusals say what the CLI says, and cases cut by the minimum score are
// counted with how to see them.
func TestMatchContract(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	var out api.HitList
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"pods OOMKilled rollout traffic etcd kube-apiserver deploy","min_score":0}`, &out)
	if len(out.Hits) == 0 || len(out.Hits) > 5 {
		t.Fatalf("%d hits without top, want 1 to 5", len(out.Hits))
	}

	var e struct{ Error string }
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"the of and"}`, &e)
	if !strings.Contains(e.Error, "nothing to match: the paste has no word caselink uses") {
		t.Errorf("stop words: error %q, want the CLI's sentence", e.Error)
	}
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"pods","top":0}`, &e)
	if e.Error != `"top" must be at least 1, got 0` {
		t.Errorf("top 0: error %q", e.Error)
	}

	out = api.HitList{}
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"distributor pods OOMKilled during rollout","top":3}`, &out)
	if out.Hidden != 2 || out.Note != `2 more cases scored below "min_score" 0.02: "min_score" 0 shows them` {
		t.Errorf("hidden %d, note %q: want 2 and how to see them", out.Hidden, out.Note)
	}
	all := api.HitList{}
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"distributor pods OOMKilled during rollout","top":3,"min_score":0}`, &all)
	if len(all.Hits) != len(out.Hits)+out.Hidden || all.Hidden != 0 {
		t.Errorf("min_score 0: %d hits, hidden %d; want %d and 0", len(all.Hits), all.Hidden, len(out.Hits)+out.Hidden)
	}
}

// Helpful / not helpful is recorded with the paste beside the library.
func TestFeedbackAPI(t *testing.T) {
	_, seedsTS := newTestServer(t, testOptions())
	var e struct{ Error string }
	if r := do(t, http.DefaultClient, "POST", seedsTS.URL+"/api/feedback", `{"text":"pods","id":"IL-0191","helpful":true}`, &e); r.StatusCode != http.StatusConflict {
		t.Errorf("embedded seeds: status %d (%s), want 409", r.StatusCode, e.Error)
	}
	dir := t.TempDir()
	copySeeds(t, dir)
	_, ts := newTestServer(t, testOptions(dir))
	for body, want := range map[string]int{
		`{"text":"pods OOMKilled","id":"IL-0191","helpful":false,"rank":2,"score":0.03}`: 200,
		`{"text":"pods OOMKilled","id":"IL-9999","helpful":true}`:                        404,
		`{"text":"","id":"IL-0191","helpful":true}`:                                      400,
		`{"text":"pods","id":"IL-0191"}`:                                                 400,
	} {
		if r := do(t, http.DefaultClient, "POST", ts.URL+"/api/feedback", body, nil); r.StatusCode != want {
			t.Errorf("%s: status %d, want %d", body, r.StatusCode, want)
		}
	}
	fb, err := caselib.NewFeedbackFile(filepath.Join(dir, caselib.FeedbackName)).Load()
	if err != nil || len(fb) != 1 || fb[0].ID != "IL-0191" || fb[0].Helpful || fb[0].Rank != 2 || fb[0].Paste != "pods OOMKilled" {
		t.Errorf("recorded %+v, %v", fb, err)
	}
}
