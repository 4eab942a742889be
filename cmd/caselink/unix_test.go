//go:build unix

package main

import (
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// interruptSelf sends this process SIGINT, as Ctrl-C does.
func interruptSelf() { syscall.Kill(syscall.Getpid(), syscall.SIGINT) }

// mkfifoCmd is the scripts' `mkfifo PATH`: make a named pipe.
func mkfifoCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo PATH")
	}
	ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
}
