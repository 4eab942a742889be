package serve

import (
	"net/http"
	"strings"
	"testing"
)

// The API answers what caselink match --json prints: a missing "top" is 5,
// refusals say what the CLI says, and cases cut by the minimum score are
// counted with how to see them.
func TestMatchContract(t *testing.T) {
	_, ts := newTestServer(t, testOptions())
	var out HitList
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

	out = HitList{}
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"distributor pods OOMKilled during rollout","top":3}`, &out)
	if out.Hidden != 2 || out.Note != `2 more cases scored below "min_score" 0.02: "min_score" 0 shows them` {
		t.Errorf("hidden %d, note %q: want 2 and how to see them", out.Hidden, out.Note)
	}
	all := HitList{}
	do(t, http.DefaultClient, "POST", ts.URL+"/api/match", `{"text":"distributor pods OOMKilled during rollout","top":3,"min_score":0}`, &all)
	if len(all.Hits) != len(out.Hits)+out.Hidden || all.Hidden != 0 {
		t.Errorf("min_score 0: %d hits, hidden %d; want %d and 0", len(all.Hits), all.Hidden, len(out.Hits)+out.Hidden)
	}
}
