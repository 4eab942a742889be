package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/caselink/caselink/cmd/caselink/internal/serve"
	"github.com/caselink/caselink/eval/sharedtest"
	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/caselib/pgstore/pgtest"
)

// TestPostgresScripts runs the scripts in testdata/pgscript against a
// throwaway PostgreSQL server: each gets a fresh database, $PGURL (the
// database) and $PGLIB (its table "cases", column "data"), $SEEDS (the
// repository's seed cases) and a command "sql STATEMENT" that runs SQL on
// the database. Skipped without a server, except under CI=true.
func TestPostgresScripts(t *testing.T) {
	seeds, err := filepath.Abs("../../seeds")
	if err != nil {
		t.Fatal(err)
	}
	cluster := pgtest.Shared(t)
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/pgscript",
		UpdateScripts: *update,
		Setup: func(e *testscript.Env) error {
			url, err := cluster.CreateDB()
			if err != nil {
				return err
			}
			e.Setenv("NO_COLOR", "1")
			e.Setenv("COLUMNS", "100")
			e.Setenv("PGURL", url)
			e.Setenv("PGLIB", pgtest.WithParams(url, "table=cases", "column=data"))
			e.Setenv("SEEDS", seeds)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status": statusCmd,
			"sql": func(ts *testscript.TestScript, neg bool, args []string) {
				ctx := context.Background()
				conn, err := pgx.Connect(ctx, ts.Getenv("PGURL"))
				ts.Check(err)
				defer conn.Close(ctx)
				_, err = conn.Exec(ctx, strings.Join(args, " "))
				if neg {
					if err == nil {
						ts.Fatalf("sql succeeded")
					}
					return
				}
				ts.Check(err)
			},
		},
	})
}

// runCaselink runs the command line in-process and returns its stdout,
// failing the test on a non-zero exit.
func runCaselink(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(append([]string{"caselink"}, args...), strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("caselink %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
	}
	return out.String()
}

// TestServeReloadsFromPostgres: serve answers from the table and picks up a
// row added to it.
func TestServeReloadsFromPostgres(t *testing.T) {
	url := pgtest.New(t)
	lib := pgtest.WithParams(url, "table=cases")
	runCaselink(t, "import", "--cases", "../../seeds", lib)

	var log syncBuffer
	opts := serve.Options{Paths: []string{lib}, PollInterval: 20 * time.Millisecond, Log: &log}
	if err := serveTable(context.Background(), &opts); err != nil {
		t.Fatal(err)
	}
	srv, err := serve.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Len() != 4 {
		t.Fatalf("serving %d cases, want the 4 seeds", srv.Len())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Watch(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), `INSERT INTO cases (data) VALUES ('{"id":"NEW-1","title":{"en":"Redis evictions after maxmemory change"}}')`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for srv.Len() != 5 {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not reload the table in 20s; log:\n%s", log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// a bad row keeps the old library serving and says why
	if _, err := conn.Exec(context.Background(), `INSERT INTO cases (data) VALUES ('{"title":"no id"}')`); err != nil {
		t.Fatal(err)
	}
	for !strings.Contains(log.String(), "reload failed") {
		if time.Now().After(deadline) {
			t.Fatalf("no failed reload logged; log:\n%s", log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if srv.Len() != 5 || !strings.Contains(log.String(), `field "id": missing`) {
		t.Errorf("after a bad row: serving %d cases; log:\n%s", srv.Len(), log.String())
	}
}

// TestPostgresIncidents runs the real library through a table: the 6,854
// incidents and the judged incidents, imported; match and relate from the
// table equal those from the exported file; relate --write in one
// transaction leaves every row's jsonb as it was but for related and
// updated_at, and writes the same lists as relate --write into the file.
func TestPostgresIncidents(t *testing.T) {
	if testing.Short() {
		// 26 s of import, relate and export of 6,900 cases; the same paths
		// run on the seeds in testdata/pgscript under -short too.
		t.Skip("imports the 6,854 incidents: run without -short")
	}
	incidents := sharedtest.Path("data/incidents/cases.jsonl")
	judged := sharedtest.Path("data/incidents-judged/cases")
	sharedtest.Need(t, incidents, judged)
	url := pgtest.New(t)
	lib := pgtest.WithParams(url, "table=cases")
	runCaselink(t, "import", "--cases", incidents, "--cases", judged, lib)
	exported := filepath.Join(t.TempDir(), "exported.jsonl")
	runCaselink(t, "export", "--out", exported, lib)

	relateArgs := []string{"relate", "--json", "--top", "5"}
	fromTable := runCaselink(t, append(relateArgs, "--cases", lib)...)
	fromFile := runCaselink(t, append(relateArgs, "--cases", exported)...)
	if fromTable != fromFile {
		t.Error("relate --json from the table differs from relate on the exported file")
	}
	paste := "loki distributor pods OOMKilled right after the deploy, only the new pods take write traffic"
	if a, b := runCaselink(t, "match", "--json", "--cases", lib, paste), runCaselink(t, "match", "--json", "--cases", exported, paste); a != b {
		t.Error("match from the table differs from match on the exported file")
	}

	before := pgtest.Rows(t, url, "SELECT data::text FROM cases")
	out := runCaselink(t, "relate", "--cases", lib, "--write", "--replace", "--symmetric", "--min-score", "0.05")
	if !strings.HasPrefix(out, "updated related of ") {
		t.Fatalf("relate --write said %q", out)
	}
	after := pgtest.Rows(t, url, "SELECT data::text FROM cases")
	if len(after) != len(before) {
		t.Fatalf("%d rows before, %d after", len(before), len(after))
	}
	changed := 0
	for id, row := range after {
		if !reflect.DeepEqual(pgtest.Without(row, "related", "updated_at"), pgtest.Without(before[id], "related", "updated_at")) {
			t.Errorf("%s: more than related and updated_at changed", id)
		}
		if !reflect.DeepEqual(row["related"], before[id]["related"]) {
			changed++
		}
	}
	if changed == 0 {
		t.Error("relate --write changed no related list")
	}
	// the written links are relate's, the same as written into the exported file
	runCaselink(t, "relate", "--cases", exported, "--write", "--replace", "--symmetric", "--min-score", "0.05")
	files, err := caselib.Load([]string{exported}, caselib.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range files.Cases {
		got, _ := json.Marshal(after[c.ID]["related"])
		want, _ := json.Marshal(c.Related)
		if string(got) != string(want) && !(len(c.Related) == 0 && string(got) == "[]") {
			t.Errorf("%s: related %s in the table, %s in the file", c.ID, got, want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
