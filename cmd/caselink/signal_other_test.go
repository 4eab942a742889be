//go:build !unix

package main

import "os"

// interruptSelf stops this process as Ctrl-C would where SIGINT cannot be
// sent to oneself.
func interruptSelf() { os.Exit(130) }
