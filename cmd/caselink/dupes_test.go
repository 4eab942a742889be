package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/cmd/caselink/internal/serve"
	"github.com/caselink/caselink/similarity/caselib"
)

// twoCopies writes a library of two cases, A and B, that are probable
// duplicates, and returns its folder.
func twoCopies(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for id, title := range map[string]string{"A": "Load balancer certificate expired, checkout 502", "B": "Certificate on the load balancer expired, checkout 502"} {
		c := `{"id":"` + id + `","org":"Acme","date":"2024-01-10","title":{"en":"` + title + `"}}`
		if err := os.WriteFile(filepath.Join(dir, id+".json"), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A decision recorded by the CLI keeps the decisions file's mode: the file
// is committed with the library, so it must stay readable by all.
func TestDupesDecisionKeepsFileMode(t *testing.T) {
	dir := twoCopies(t)
	path := filepath.Join(dir, caselib.DecisionsName)
	if err := os.WriteFile(path, []byte("# kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, verdict := range []string{"--dismiss", "--confirm", "--undo"} {
		var out, errb bytes.Buffer
		if code := run([]string{"caselink", "dupes", "--cases", dir, verdict, "A", verdict, "B"}, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", verdict, code, errb.String())
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Fatalf("after %s the decisions file has mode %v, want 0644", verdict, st.Mode().Perm())
		}
	}
	if data, _ := os.ReadFile(path); string(data) != "# kept\n" {
		t.Fatalf("after dismiss, confirm and undo the file holds %q, want only its comment", data)
	}
}

// A pair dismissed through the server's API is gone from caselink dupes
// too: both read the decisions file beside the library.
func TestDupesDismissedThroughTheAPI(t *testing.T) {
	dir := twoCopies(t)
	dupes := func() string {
		var out, errb bytes.Buffer
		if code := run([]string{"caselink", "dupes", "--cases", dir, "--threshold", "0.3"}, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		return out.String()
	}
	if got := dupes(); !strings.Contains(got, "A ~ B") {
		t.Fatalf("before: %s", got)
	}
	srv, err := serve.New(serve.Options{Paths: []string{dir}, DupesThreshold: 0.3, PollInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/api/dupes/decisions", "application/json", strings.NewReader(`{"a":"B","b":"A","verdict":"not-duplicate"}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST: %v %v", resp, err)
	}
	resp.Body.Close()
	if got := dupes(); !strings.Contains(got, "no probable duplicates") {
		t.Errorf("after the API dismissed A~B, caselink dupes prints:\n%s", got)
	}
}

// dupes --json writes its clusters one at a time; what it writes must be
// what encoding the whole list at once gives, byte for byte, with no
// cluster, one, or several, and records whose text needs escaping.
func TestDupesJSONStreamedAsWhole(t *testing.T) {
	rec := func(id, text string) api.DupeCase {
		return api.DupeCase{ID: id, Title: id + " <" + text + ">", Text: text}
	}
	clusters := []api.DupeClusterRecords{
		{N: 1, Score: 0.91, Cases: []api.DupeCase{rec("A", "disk \"full\" & slow\n"), rec("B", "한국어 ✓")}, Pairs: []api.DupePair{{A: rec("A", "x"), B: rec("B", "y"), Score: 0.91, Band: "strong", Evidence: []string{"same day"}, Cluster: 1}}},
		{N: 2, Score: 0.5, Cases: []api.DupeCase{rec("C", "")}, Pairs: []api.DupePair{}, Links: []api.DupePair{{A: rec("C", ""), B: rec("A", "z"), Score: 0.4, Shared: []string{"disk"}}}},
		{N: 3, Cases: []api.DupeCase{}, Pairs: []api.DupePair{}},
	}
	for n := 0; n <= len(clusters); n++ {
		head := api.DupeClusterList{Threshold: 0.35, Total: 7, Pairs: 12, Offset: 2}
		whole := head
		whole.Clusters = append([]api.DupeClusterRecords{}, clusters[:n]...)
		var want, got bytes.Buffer
		if err := writeJSON(&want, whole); err != nil {
			t.Fatal(err)
		}
		if err := writeDupesJSON(&got, head, n, func(i int) api.DupeClusterRecords { return clusters[i] }); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d clusters: streamed\n%s\nwhole\n%s", n, got.String(), want.String())
		}
	}
}
