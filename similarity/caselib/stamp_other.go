//go:build !linux

package caselib

import "io/fs"

// sysStamp leaves CTime, Ino and Dev at 0 where they are not read.
func sysStamp(*FileStamp, fs.FileInfo) {}

// hasSysStamps says that FileStamp's CTime, Ino and Dev are filled.
const hasSysStamps = false
