package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/cmd/caselink/internal/serve"
	"github.com/caselink/caselink/similarity/caselib/pgstore/pgtest"
)

// replica starts one serve replica on the table lib, watching it every
// poll.
func replica(t *testing.T, lib string, poll time.Duration) (*serve.Server, *httptest.Server) {
	t.Helper()
	opts := serve.Options{Paths: []string{lib}, PollInterval: poll, MatchMinScore: 0.02, RelateMinScore: 0.15, DupesThreshold: 0.5}
	if err := serveTable(context.Background(), &opts); err != nil {
		t.Fatal(err)
	}
	srv, err := serve.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Watch(ctx); close(done) }()
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { ts.Close(); cancel(); <-done })
	return srv, ts
}

func getJSON(t *testing.T, url string, out any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

// pairsOf lists the pairs of /api/dupes at threshold 0 as "A~B".
func pairsOf(t *testing.T, base string) []string {
	var d api.DupesAnswer
	getJSON(t, base+"/api/dupes?threshold=0&limit=1000", &d)
	var out []string
	for _, p := range d.Pairs {
		out = append(out, p.A.ID+"~"+p.B.ID)
	}
	return out
}

// TestServeReplicasOnPostgres: two serve replicas on one PostgreSQL
// library. A decision recorded through one is in the other's next answer
// (decisions are read from the table for every answer), and relate --write
// into the table is served by both within a few polls.
func TestServeReplicasOnPostgres(t *testing.T) {
	url := pgtest.New(t)
	lib := pgtest.WithParams(url, "table=cases")
	runCaselink(t, "import", "--cases", "../../seeds", lib)
	const poll = 50 * time.Millisecond
	_, a := replica(t, lib, poll)
	_, b := replica(t, lib, poll)

	// The first decisions reach both replicas at once, before the
	// decisions table exists: none may fail (CREATE TABLE IF NOT EXISTS
	// races in PostgreSQL), each is seen by both.
	ids := []string{"IL-0100", "IL-0191", "IL-0194", "IL-0371"}
	var wg sync.WaitGroup
	var failed atomic.Int32
	for i, x := range ids {
		for _, y := range ids[i+1:] {
			for _, base := range []string{a.URL, b.URL} {
				wg.Go(func() {
					resp, err := http.Post(base+"/api/dupes/decisions", "application/json",
						strings.NewReader(`{"a":"`+x+`","b":"`+y+`","verdict":"duplicate"}`))
					if err != nil {
						failed.Add(1)
						return
					}
					resp.Body.Close()
					if resp.StatusCode != 200 {
						failed.Add(1)
					}
				})
			}
		}
	}
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Fatalf("%d of 12 first decisions through two replicas failed", n)
	}
	for _, base := range []string{a.URL, b.URL} {
		var d api.DupesAnswer
		getJSON(t, base+"/api/dupes?threshold=0&limit=1000", &d)
		confirmed := 0
		for _, p := range d.Pairs {
			if p.Verdict == "duplicate" {
				confirmed++
			}
		}
		if confirmed != 6 {
			t.Errorf("%s lists %d confirmed pairs, want the 6 decided", base, confirmed)
		}
	}

	const pair = "IL-0100~IL-0191"
	if !slices.Contains(pairsOf(t, b.URL), pair) {
		t.Fatalf("replica b does not list %s at threshold 0: %v", pair, pairsOf(t, b.URL))
	}
	resp, err := http.Post(a.URL+"/api/dupes/decisions", "application/json",
		strings.NewReader(`{"a":"IL-0100","b":"IL-0191","verdict":"not-duplicate"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("decision through replica a: status %d", resp.StatusCode)
	}
	if slices.Contains(pairsOf(t, b.URL), pair) {
		t.Errorf("replica b still lists %s after replica a recorded it as not a duplicate", pair)
	}

	var before api.CaseView
	getJSON(t, b.URL+"/api/cases/IL-0191", &before)
	runCaselink(t, "relate", "--cases", lib, "--min-score", "0.01", "--write")
	// Both replicas serve the new links: two polls for the fingerprint
	// to hold still, then the load; allow for a slow machine.
	for name, base := range map[string]string{"a": a.URL, "b": b.URL} {
		deadline := time.Now().Add(20 * poll)
		for {
			var v api.CaseView
			getJSON(t, base+"/api/cases/IL-0191", &v)
			if len(v.Links) > len(before.Links) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("replica %s does not serve relate --write's links %v after %v", name, v.Links, 20*poll)
			}
			time.Sleep(poll / 5)
		}
	}
}

// TestDecisionsElsewhere: --decisions may name a postgres:// library, whose
// decisions table is used (replicas reading the library from a standby
// record decisions on the primary); a decision recorded through a replica
// so configured lands in that table.
func TestDecisionsElsewhere(t *testing.T) {
	url := pgtest.New(t)
	lib := pgtest.WithParams(url, "table=cases")
	primary := pgtest.WithParams(url, "table=primary_cases")
	runCaselink(t, "import", "--cases", "../../seeds", lib)
	st, where, err := decisionStore(primary, []string{lib})
	if err != nil || where != "table primary_cases_decisions" {
		t.Fatalf("decisionStore(%s) = %s, %v", primary, where, err)
	}
	opts := serve.Options{Paths: []string{lib}, PollInterval: -1, Decisions: st, DupesThreshold: 0.5}
	if err := serveTable(context.Background(), &opts); err != nil {
		t.Fatal(err)
	}
	srv, err := serve.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/api/dupes/decisions", "application/json", strings.NewReader(`{"a":"IL-0100","b":"IL-0191","verdict":"duplicate"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	rows := pgtest.Rows(t, url, "SELECT json_build_object('id', a || '~' || b, 'verdict', verdict)::text FROM primary_cases_decisions")
	if len(rows) != 1 || rows["IL-0100~IL-0191"] == nil {
		t.Errorf("primary_cases_decisions holds %v", rows)
	}
}
