package caselib

import (
	"encoding/binary"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
)

// stampSeed seeds the fingerprints; they are only compared within one
// process.
var stampSeed = maphash.MakeSeed()

// Stamp fingerprints the files [Load] would read for paths: each path, and
// each case file inside a folder path (by Load's rules), by its name, size
// and modification time, or the error reaching it. Equal stamps mean, to the
// precision of the file system's clock, that Load would read the same files;
// a watcher compares stamps to know when to reload. Stamps are comparable
// only within one process. Stamp returns 0 for no paths; "-" (standard
// input) counts as no file.
func Stamp(paths []string) uint64 {
	if len(paths) == 0 {
		return 0
	}
	var h maphash.Hash
	h.SetSeed(stampSeed)
	var buf [16]byte
	file := func(name string, info fs.FileInfo) {
		h.WriteString(name)
		h.WriteByte(0)
		binary.LittleEndian.PutUint64(buf[:8], uint64(info.Size()))
		binary.LittleEndian.PutUint64(buf[8:], uint64(info.ModTime().UnixNano()))
		h.Write(buf[:])
	}
	failed := func(name string, err error) {
		h.WriteString(name)
		h.WriteString("\x00!")
		h.WriteString(err.Error())
		h.WriteByte(0)
	}
	for _, p := range paths {
		if p == "-" {
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			failed(p, err)
			continue
		}
		if !info.IsDir() {
			file(p, info)
			continue
		}
		ignore, ierr := readIgnore(p)
		if ierr != nil {
			failed(ierr.File, ierr.Err)
		}
		if info, err := os.Stat(filepath.Join(p, IgnoreFile)); err == nil {
			file(filepath.Join(p, IgnoreFile), info) // a new ignore rule changes what Load reads
		}
		walkCaseFiles(p, ignore, func(name string, err error) error {
			if err == nil {
				var info fs.FileInfo
				if info, err = os.Stat(name); err == nil { // follows a link to a file
					file(name, info)
					return nil
				}
			}
			failed(name, err)
			return nil
		})
	}
	return h.Sum64()
}
