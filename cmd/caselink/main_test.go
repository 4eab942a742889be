package main

import (
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/caselink/caselink/similarity/caselib/pgstore/pgtest"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar")

func TestMain(m *testing.M) {
	testscript.Main(pgtest.Wrap(m), map[string]func(){
		"caselink": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the caselink binary as a user would, on the scripts in
// testdata/script: every command on the embedded seeds and on fixture
// libraries, standard input, JSON shapes, error classes and exit codes.
// Run with -update to rewrite expected output after a deliberate change.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(e *testscript.Env) error {
			e.Setenv("NO_COLOR", "1")
			e.Setenv("COLUMNS", "100")
			return nil
		},
	})
}
