//go:build !unix

package caselib

import "os"

// lockFile is the lock of lock_unix.go where there is no flock: none, so
// that two processes recording at the same moment may lose one of the two
// decisions (within one process DecisionFile's mutex still orders them).
func lockFile(path string, mode os.FileMode) (unlock func(), err error) { return func() {}, nil }

// processGone cannot ask the system here: SweepTemps goes by age instead.
func processGone(pid int) (gone, known bool) { return false, false }
