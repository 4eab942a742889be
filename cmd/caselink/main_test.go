package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/caselink/caselink/similarity/caselib/pgstore/pgtest"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar")

func TestMain(m *testing.M) {
	testscript.Main(pgtest.Wrap(m), map[string]func(){
		"caselink": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
		// caselink-interrupted-write is caselink sent SIGINT just as a
		// write starts, its handler made slow after removing the
		// temporary files: the write fails while the handler is still on
		// its way to exit 130, every time.
		"caselink-interrupted-write": func() {
			interruptHook = func(step string) {
				switch step {
				case "write":
					interruptSelf()
					time.Sleep(200 * time.Millisecond) // the handler runs RemoveTemps
				case "removed":
					time.Sleep(time.Second)
				}
			}
			os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs the caselink binary as a user would, on the scripts in
// testdata/script: every command on the embedded seeds and on fixture
// libraries, standard input, JSON shapes, error classes and exit codes.
// Run with -update to rewrite expected output after a deliberate change.
//
// Scripts are named COMMAND_BEHAVIOUR.txtar (load_* for what every command
// does when it reads a library). Besides testscript's own commands, they have
// `status N PROGRAM ARGS…`: run PROGRAM like exec and fail unless it exits
// with status N.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(e *testscript.Env) error {
			e.Setenv("NO_COLOR", "1")
			// Every script runs with an index cache of its own, outside
			// $WORK: commands on the same library reuse it.
			e.Setenv("XDG_CACHE_HOME", t.TempDir())
			e.Setenv("COLUMNS", "100")
			// SEEDSET is the judged set shipped for the seed cases.
			seedSet, err := filepath.Abs("../../eval/testdata/seeds")
			if err != nil {
				return err
			}
			e.Setenv("SEEDSET", seedSet)
			// BIGPASTE is a paste of about 2 KiB, for --max-paste.
			e.Setenv("BIGPASTE", strings.Repeat("pool exhausted ", 130))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status": statusCmd,
			"mkfifo": mkfifoCmd,
			// age DAYS GLOB sets the times of the files GLOB matches to
			// DAYS days ago (the index cache's last use).
			"age": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: age DAYS GLOB")
				}
				days, err := strconv.Atoi(args[0])
				ts.Check(err)
				files, err := filepath.Glob(ts.MkAbs(args[1]))
				ts.Check(err)
				if len(files) == 0 {
					ts.Fatalf("age: no file matches %s", args[1])
				}
				then := time.Now().Add(-time.Duration(days) * 24 * time.Hour)
				for _, f := range files {
					ts.Check(os.Chtimes(f, then, then))
				}
			},
			// background N FILE writes N short notices of 40 other
			// organisations, one JSON case a line: a library around a
			// script's cases, large enough that a word of a few records
			// is rare (in a library of five, none is).
			"background": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: background N FILE")
				}
				n, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("background: %v", err)
				}
				var b strings.Builder
				for i := range n {
					fmt.Fprintf(&b, `{"id":"BG-%04d","org":"Org %d","date":"2021-%02d-%02d","title":{"en":"Service %d degraded","ko":null},"summary":{"en":"Requests to service %d failed for some customers; we are investigating."},"related":[]}`+"\n",
						i, i%40, 1+i%12, 1+i%28, i, i)
				}
				if err := os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644); err != nil {
					ts.Fatalf("background: %v", err)
				}
			},
		},
	})
}

// statusCmd is the scripts' `status N PROGRAM ARGS…`: run PROGRAM like exec
// and fail unless it exits with status N, where testscript's `! exec`
// accepts any non-zero status (bad usage is 2, a runtime failure 1).
func statusCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N PROGRAM [ARGS…]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("status: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// TestScriptsCheckStatus keeps failures of caselink in the scripts asserted
// by exit status: `! exec caselink` passes on 1 and 2 alike, and which of the
// two a user gets (a runtime failure or bad usage) is part of the interface.
func TestScriptsCheckStatus(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts found: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "! exec caselink") {
				t.Errorf("%s:%d: %q: write status 1 or status 2 instead", f, n+1, line)
			}
		}
	}
}
