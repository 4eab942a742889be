package serve

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/similarity/caselib"
)

// dupeLibrary writes the seeds and two near copies of IL-0191 into a
// folder, with a decisions file of mode 0644 (committed with the library):
// three probable duplicate pairs.
func dupeLibrary(t *testing.T) (dir, decisions string) {
	t.Helper()
	dir = t.TempDir()
	copySeeds(t, dir)
	b, err := os.ReadFile(filepath.Join(dir, "IL-0191.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"IL-0991", "IL-0992"} {
		dup := bytes.Replace(b, []byte(`"id":"IL-0191"`), []byte(`"id":"`+id+`"`), 1)
		if err := os.WriteFile(filepath.Join(dir, id+".json"), dup, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	decisions = filepath.Join(dir, caselib.DecisionsName)
	if err := os.WriteFile(decisions, []byte("# decisions\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, decisions
}

// pairList is a page of /api/dupes as "A~B[=verdict] …".
func pairList(d api.DupesAnswer) string {
	var s []string
	for _, p := range d.Pairs {
		x := p.A.ID + "~" + p.B.ID
		if p.Verdict != "" {
			x += "=" + p.Verdict
		}
		s = append(s, x)
	}
	return fmt.Sprintf("%d: %s", d.Total, strings.Join(s, " "))
}

func TestDupesReviewLoop(t *testing.T) {
	dir, decisions := dupeLibrary(t)
	_, ts := newTestServer(t, testOptions(dir))
	get := func(query string) api.DupesAnswer {
		t.Helper()
		var d api.DupesAnswer
		if resp := do(t, http.DefaultClient, "GET", ts.URL+"/api/dupes"+query, "", &d); resp.StatusCode != 200 {
			t.Fatalf("GET /api/dupes%s: status %d", query, resp.StatusCode)
		}
		return d
	}
	decide := func(a, b, verdict string) api.DecisionAnswer {
		t.Helper()
		var out api.DecisionAnswer
		body := fmt.Sprintf(`{"a":%q,"b":%q,"verdict":%q}`, a, b, verdict)
		if resp := do(t, http.DefaultClient, "POST", ts.URL+"/api/dupes/decisions", body, &out); resp.StatusCode != 200 {
			t.Fatalf("POST %s: status %d", body, resp.StatusCode)
		}
		return out
	}
	if got := pairList(get("")); got != "3: IL-0191~IL-0991 IL-0191~IL-0992 IL-0991~IL-0992" {
		t.Fatalf("before any decision: %s", got)
	}
	// A dismissal removes the pair; the file keeps its mode.
	if out := decide("IL-0991", "IL-0191", "not-duplicate"); out.A != "IL-0191" || out.B != "IL-0991" || out.Verdict != "not-duplicate" || out.Date == "" {
		t.Errorf("decision answer %+v", out)
	}
	if got := pairList(get("")); got != "2: IL-0191~IL-0992 IL-0991~IL-0992" {
		t.Errorf("after dismissing IL-0191~IL-0991: %s", got)
	}
	if st, err := os.Stat(decisions); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("decisions file after a dismissal: %v %v, want mode 0644", st.Mode(), err)
	}
	// A confirmation marks the pair; pending hides it; paging cuts the rest.
	decide("IL-0191", "IL-0992", "confirm")
	if got := pairList(get("")); got != "2: IL-0191~IL-0992=duplicate IL-0991~IL-0992" {
		t.Errorf("after confirming IL-0191~IL-0992: %s", got)
	}
	if got := pairList(get("?pending=1")); got != "1: IL-0991~IL-0992" {
		t.Errorf("pending: %s", got)
	}
	if got := pairList(get("?limit=1&offset=1")); got != "2: IL-0991~IL-0992" {
		t.Errorf("limit 1 offset 1: %s", got)
	}
	// Undo brings the dismissed pair back, undecided.
	if out := decide("IL-0191", "IL-0991", "undo"); out.Verdict != "undo" {
		t.Errorf("undo answer %+v", out)
	}
	if got := pairList(get("")); got != "3: IL-0191~IL-0991 IL-0191~IL-0992=duplicate IL-0991~IL-0992" {
		t.Errorf("after undo: %s", got)
	}
	data, _ := os.ReadFile(decisions)
	if !strings.HasPrefix(string(data), "# decisions\n") || strings.Count(string(data), "\n") != 2 || !strings.Contains(string(data), "IL-0191\tIL-0992\tduplicate\t") {
		t.Errorf("decisions file:\n%s", data)
	}
	// threshold: the seeds' own pairs score far below 0.5.
	if d := get("?threshold=1"); d.Total != 0 || d.Threshold != 1 {
		t.Errorf("threshold 1: %+v", d)
	}
	if d := get("?threshold=0.01"); d.Total <= 3 {
		t.Errorf("threshold 0.01 lists %d pairs, want more than the three copies", d.Total)
	}
	if got := pairList(get("")); !strings.HasPrefix(got, "3: ") {
		t.Errorf("back to the default threshold after a lower one: %s", got)
	}
}

func TestDupesDecisionErrors(t *testing.T) {
	dir, _ := dupeLibrary(t)
	_, ts := newTestServer(t, testOptions(dir))
	_, seedTS := newTestServer(t, testOptions())
	for _, tc := range []struct {
		name, url, method, body string
		status                  int
		want                    string
	}{
		{"bad verdict", ts.URL, "POST", `{"a":"IL-0191","b":"IL-0991","verdict":"maybe"}`, 400, `"verdict" "maybe"`},
		{"no verdict", ts.URL, "POST", `{"a":"IL-0191","b":"IL-0991"}`, 400, `"verdict"`},
		{"unknown case", ts.URL, "POST", `{"a":"IL-0191","b":"NOPE","verdict":"dismiss"}`, 404, `no case with id "NOPE"`},
		{"empty id", ts.URL, "POST", `{"a":"","b":"IL-0991","verdict":"dismiss"}`, 400, `"a" is empty`},
		{"same case", ts.URL, "POST", `{"a":"IL-0191","b":"IL-0191","verdict":"dismiss"}`, 400, "paired with itself"},
		{"unknown field", ts.URL, "POST", `{"a":"IL-0191","b":"IL-0991","verdict":"dismiss","why":1}`, 400, "unknown field"},
		{"seeds have no folder", seedTS.URL, "POST", `{"a":"IL-0191","b":"IL-0371","verdict":"dismiss"}`, 409, "no folder"},
		{"GET decisions", ts.URL, "GET", "", 405, "use POST"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e api.ErrorBody
			resp := do(t, http.DefaultClient, tc.method, tc.url+"/api/dupes/decisions", tc.body, &e)
			if resp.StatusCode != tc.status || !strings.Contains(e.Error, tc.want) {
				t.Errorf("status %d error %q, want %d and %q", resp.StatusCode, e.Error, tc.status, tc.want)
			}
		})
	}
	for _, q := range []string{"threshold=2", "threshold=x", "threshold=-0.1", "pending=maybe", "limit=0", "offset=-1"} {
		var e api.ErrorBody
		if resp := do(t, http.DefaultClient, "GET", ts.URL+"/api/dupes?"+q, "", &e); resp.StatusCode != 400 || e.Error == "" {
			t.Errorf("GET /api/dupes?%s: status %d %q, want 400", q, resp.StatusCode, e.Error)
		}
	}
}

// Decisions posted at once, while the list is read, are all kept (run with
// -race).
func TestDupesConcurrentDecisions(t *testing.T) {
	dir, decisions := dupeLibrary(t)
	_, ts := newTestServer(t, testOptions(dir))
	ids := []string{"IL-0100", "IL-0191", "IL-0194", "IL-0371", "IL-0991", "IL-0992"}
	var wg sync.WaitGroup
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body := fmt.Sprintf(`{"a":%q,"b":%q,"verdict":"dismiss"}`, a, b)
				if resp, err := tryDo(http.DefaultClient, "POST", ts.URL+"/api/dupes/decisions", body, nil); err != nil || resp.StatusCode != 200 {
					t.Errorf("POST %s: %v %v", body, resp, err)
				}
				if _, err := tryDo(http.DefaultClient, "GET", ts.URL+"/api/dupes", "", nil); err != nil {
					t.Error(err)
				}
			}()
		}
	}
	wg.Wait()
	ds, err := caselib.NewDecisionFile(decisions).Load()
	if err != nil || len(ds) != 15 {
		t.Fatalf("%d decisions kept of 15 (%v)", len(ds), err)
	}
	var d api.DupesAnswer
	do(t, http.DefaultClient, "GET", ts.URL+"/api/dupes?threshold=0", "", &d)
	if d.Total != 0 {
		t.Errorf("every pair dismissed, yet /api/dupes lists %s", pairList(d))
	}
}

// The pairs of a cluster are decided in one request, after all are checked:
// a pair naming an unknown case records none. order=cluster lists the
// cluster's pairs together, each with its cluster's number, and the
// records' text and shared words.
func TestDupesClusterDecision(t *testing.T) {
	dir, decisions := dupeLibrary(t)
	_, ts := newTestServer(t, testOptions(dir))
	var d api.DupesAnswer
	if resp := do(t, http.DefaultClient, "GET", ts.URL+"/api/dupes?order=cluster", "", &d); resp.StatusCode != 200 {
		t.Fatalf("GET /api/dupes?order=cluster: status %d", resp.StatusCode)
	}
	if len(d.Clusters) != 1 || len(d.Clusters[0].Cases) != 3 || d.Clusters[0].Pairs != 3 || len(d.Clusters[0].PairIDs) != 3 {
		t.Fatalf("clusters %+v: want one of the three copies, 3 pairs", d.Clusters)
	}
	for _, p := range d.Pairs {
		if p.Cluster != 1 || p.A.Text == "" || len(p.A.Sources) == 0 || len(p.Shared) == 0 {
			t.Errorf("pair %s~%s: cluster %d, text %d bytes, sources %v, shared %v", p.A.ID, p.B.ID, p.Cluster, len(p.A.Text), p.A.Sources, p.Shared)
		}
	}
	bad := `{"pairs":[["IL-0191","IL-0991"],["IL-0191","NOPE"]],"verdict":"duplicate"}`
	if resp := do(t, http.DefaultClient, "POST", ts.URL+"/api/dupes/decisions", bad, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a pair with an unknown id: status %d, want 404", resp.StatusCode)
	}
	if b, _ := os.ReadFile(decisions); strings.Contains(string(b), "IL-0991") {
		t.Errorf("a refused cluster decision recorded a pair:\n%s", b)
	}
	var out api.ClusterDecisionAnswer
	good := `{"pairs":[["IL-0191","IL-0991"],["IL-0191","IL-0992"],["IL-0991","IL-0992"]],"verdict":"duplicate"}`
	if resp := do(t, http.DefaultClient, "POST", ts.URL+"/api/dupes/decisions", good, &out); resp.StatusCode != 200 || len(out.Decisions) != 3 {
		t.Fatalf("cluster decision: status %d, %+v", resp.StatusCode, out)
	}
	if resp := do(t, http.DefaultClient, "GET", ts.URL+"/api/dupes?pending=1", "", &d); resp.StatusCode != 200 || d.Total != 0 {
		t.Errorf("after confirming the cluster %d pairs pending, want 0", d.Total)
	}
}
