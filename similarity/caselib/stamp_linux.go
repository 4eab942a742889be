//go:build linux

package caselib

import (
	"io/fs"
	"syscall"
)

// sysStamp fills what only the system's own stat says.
func sysStamp(st *FileStamp, info fs.FileInfo) {
	if sys, ok := info.Sys().(*syscall.Stat_t); ok {
		st.CTime = sys.Ctim.Sec*1e9 + sys.Ctim.Nsec
		st.Ino, st.Dev = sys.Ino, uint64(sys.Dev)
	}
}

// hasSysStamps says that FileStamp's CTime, Ino and Dev are filled.
const hasSysStamps = true
