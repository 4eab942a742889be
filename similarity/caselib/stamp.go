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

// Stamp fingerprints the files [Load] would read for paths: a hash of their
// [FileStamps] (name, size, modification and change times, inode, device and
// mode of each, or the error reaching it). It is the in-memory form of the
// one change detector the CLI keeps on disk: a watcher (caselink serve)
// compares stamps to know when to reload, and so sees what the CLI sees,
// such as a same-size edit whose modification time was set back (its
// change time moved). Equal stamps mean, to the precision of the file
// system's clock, that Load would read the same files. Stamps are
// comparable only within one process. Stamp returns 0 for no paths; "-"
// (standard input) counts as no file.
func Stamp(paths []string) uint64 {
	if len(paths) == 0 {
		return 0
	}
	var h maphash.Hash
	h.SetSeed(stampSeed)
	var buf [8]byte
	num := func(n uint64) {
		binary.LittleEndian.PutUint64(buf[:], n)
		h.Write(buf[:])
	}
	str := func(s string) {
		num(uint64(len(s)))
		h.WriteString(s)
	}
	for _, f := range FileStamps(paths) {
		str(f.Name)
		num(uint64(f.Size))
		num(uint64(f.MTime))
		num(uint64(f.CTime))
		num(f.Ino)
		num(f.Dev)
		num(uint64(f.Mode))
		str(f.Err)
	}
	return h.Sum64()
}

// eachLibraryFile calls file for each file Load would read for paths (and
// each folder's IgnoreFile), by Load's rules, and failed for what cannot
// be reached; "-" counts as no file.
func eachLibraryFile(paths []string, file func(name string, info fs.FileInfo), failed func(name string, err error)) {
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
		}, nil)
	}
}

// FileStamp is what FileStamps records of one file of a library: enough to
// tell, without reading it, that the file is not the one seen before. CTime
// (the time of the inode's last change, which any write sets and touch
// cannot set back), Ino and Dev are 0 where the system does not say.
type FileStamp struct {
	Name  string // as Load names it; for a path that cannot be reached, the path
	Size  int64
	MTime int64 // modification time, Unix nanoseconds
	CTime int64 // status change time, Unix nanoseconds
	Ino   uint64
	Dev   uint64
	Mode  uint32
	Err   string // why the path cannot be reached; "" for a file
}

// FileStamps returns the stamp of each file Load would read for paths, in
// Load's order (and of each folder's IgnoreFile, and of what cannot be
// reached): the persistent counterpart of [Stamp], for a cache that
// outlives the process. Equal lists mean that, as far as the file system
// says, Load would read the same bytes: a file written within the
// resolution of its clock can still differ, which a caller guards against
// by not trusting a stamp whose times are close to when it was taken.
func FileStamps(paths []string) []FileStamp {
	var out []FileStamp
	eachLibraryFile(paths, func(name string, info fs.FileInfo) {
		st := FileStamp{Name: name, Size: info.Size(), MTime: info.ModTime().UnixNano(), Mode: uint32(info.Mode())}
		sysStamp(&st, info)
		out = append(out, st)
	}, func(name string, err error) {
		out = append(out, FileStamp{Name: name, Err: err.Error()})
	})
	return out
}
