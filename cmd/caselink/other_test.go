//go:build !unix

package main

import (
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// interruptSelf stops this process as Ctrl-C would where SIGINT cannot be
// sent to oneself.
func interruptSelf() { os.Exit(130) }

// mkfifoCmd fails: there are no named pipes here (the scripts that use it
// skip first).
func mkfifoCmd(ts *testscript.TestScript, neg bool, args []string) {
	ts.Fatalf("mkfifo: no named pipes on this system")
}
