package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/caselink/caselink/cmd/caselink/internal/serve"
	"github.com/caselink/caselink/similarity/caselib"
)

// TestDecisionsServerAndCLI is the load: clients posting
// decisions to serve while caselink dupes --dismiss runs, each its own
// process, write the same decisions file. None is lost.
func TestDecisionsServerAndCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 30 caselink processes")
	}
	bin, err := exec.LookPath("caselink") // the test binary as caselink (testscript.Main)
	if err != nil {
		t.Skip("no caselink command on PATH:", err)
	}
	dir := t.TempDir()
	var ids []string
	for i := range 12 {
		id := fmt.Sprintf("D-%02d", i)
		ids = append(ids, id)
		body := fmt.Sprintf(`{"id":%q,"title":{"en":"connection pool exhausted on service %d"}}`, id, i)
		if err := os.WriteFile(filepath.Join(dir, id+".json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var pairs [][2]string
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			pairs = append(pairs, [2]string{a, b})
		}
	}
	const clients, perClient, procs = 16, 2, 30
	httpPairs, cliPairs := pairs[:clients*perClient], pairs[clients*perClient:clients*perClient+procs]

	srv, err := serve.New(serve.Options{Paths: []string{dir}, PollInterval: -1, DupesThreshold: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	var wg sync.WaitGroup
	errs := make(chan error, clients+procs)
	for c := range clients {
		wg.Go(func() {
			for _, p := range httpPairs[c*perClient : (c+1)*perClient] {
				resp, err := http.Post(ts.URL+"/api/dupes/decisions", "application/json",
					strings.NewReader(fmt.Sprintf(`{"a":%q,"b":%q,"verdict":"not-duplicate"}`, p[0], p[1])))
				if err != nil {
					errs <- err
					return
				}
				resp.Body.Close()
				if resp.StatusCode != 200 {
					errs <- fmt.Errorf("POST %v: status %d", p, resp.StatusCode)
				}
			}
		})
	}
	for _, p := range cliPairs {
		wg.Go(func() {
			out, err := exec.Command(bin, "dupes", "--cases", dir, "--dismiss", p[0], "--dismiss", p[1]).CombinedOutput()
			if err != nil {
				errs <- fmt.Errorf("caselink dupes --dismiss %v: %v\n%s", p, err, out)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, err := caselib.NewDecisionFile(filepath.Join(dir, caselib.DecisionsName)).Load()
	if err != nil {
		t.Fatal(err)
	}
	if want := len(httpPairs) + len(cliPairs); len(got) != want {
		t.Fatalf("%d decisions kept of %d recorded (%d through serve, %d by caselink dupes)", len(got), want, len(httpPairs), len(cliPairs))
	}
}
