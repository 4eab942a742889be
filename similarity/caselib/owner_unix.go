//go:build unix

package caselib

import (
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of the file at target, as far as
// the process may (root may give any; another user only a group it is in):
// a rewritten case file stays its owner's, not the writer's. A file that
// does not exist yet, or an owner the process may not set, leaves f as it
// is.
func keepOwner(f *os.File, target string) {
	st, err := os.Stat(target)
	if err != nil {
		return
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	if f.Chown(int(sys.Uid), int(sys.Gid)) != nil {
		f.Chown(-1, int(sys.Gid)) // at least the group, when the process is in it
	}
}
