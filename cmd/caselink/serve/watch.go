package serve

import (
	"encoding/binary"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// stampSeed seeds the fingerprints; they are only compared within one
// process.
var stampSeed = maphash.MakeSeed()

// stampPaths fingerprints the files a library would be read from: for each
// path, and for each case file inside a folder path (by the rules of
// caselib.Load: .json, .jsonl and .txt files, skipping names that begin with
// a dot), its name, size and modification time, or the error reaching it.
// Equal fingerprints mean, to the precision of the file system's clock,
// unchanged files. It returns 0 for no paths (the embedded seeds).
func stampPaths(paths []string) uint64 {
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
		info, err := os.Stat(p)
		if err != nil {
			failed(p, err)
			continue
		}
		if !info.IsDir() {
			file(p, info)
			continue
		}
		filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				failed(name, err)
				return nil
			}
			if name != p && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() || !isCaseFile(d.Name()) {
				return nil
			}
			info, err := os.Stat(name) // follows a link to a file
			if err != nil {
				failed(name, err)
				return nil
			}
			if !info.IsDir() {
				file(name, info)
			}
			return nil
		})
	}
	return h.Sum64()
}

// isCaseFile reports whether a file in a folder is read as cases.
func isCaseFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".jsonl", ".txt":
		return true
	}
	return false
}
