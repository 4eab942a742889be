//go:build unix

package main

import "syscall"

// interruptSelf sends this process SIGINT, as Ctrl-C does.
func interruptSelf() { syscall.Kill(syscall.Getpid(), syscall.SIGINT) }
