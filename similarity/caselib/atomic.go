package caselib

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFileAtomic replaces the file at path with data the way WriteRelated
// replaces case files: data is written to a temporary file in the same
// folder, synced, given the permissions of the file it replaces (perm when
// there is none yet) and renamed over it (over the target of a symbolic
// link), then the folder is synced. A failure at any step leaves the file
// as it was and no temporary file behind. It is for small files kept beside
// a library, such as a curator's decisions.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	target, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		target, err = path, nil
	}
	if err != nil {
		return err
	}
	mode := perm
	if st, err := os.Stat(target); err == nil {
		mode = st.Mode()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp, err := writeTemp(target, path, mode, func(f *os.File) error {
		_, err := io.Copy(f, bytes.NewReader(data))
		return err
	})
	if err != nil {
		return err
	}
	if err := hook("rename", path); err != nil {
		os.Remove(tmp)
		forgetTemp(tmp)
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		forgetTemp(tmp)
		return err
	}
	forgetTemp(tmp)
	if d, err := os.Open(filepath.Dir(target)); err == nil {
		d.Sync() // best effort: not every system can sync a folder
		d.Close()
	}
	return nil
}
