package caselib

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// This file is caselib's one way of replacing a file: WriteRelated (many
// files, renamed only when all are ready), WriteFile and WriteFileAtomic (one
// file) all write a temporary file with writeTemp and rename it over the
// original.

// testHook, when set (by tests), is called at each step of writing a file:
// "write" (content written to the temporary file), "sync" (after fsync and
// chmod) and "rename" (just before the temporary file replaces the
// original). An error makes that step fail.
var testHook func(step, file string) error

// syncFile flushes a written file to stable storage; tests that check only
// bytes may replace it to stay fast on a busy disk.
var syncFile = (*os.File).Sync

func hook(step, file string) error {
	if testHook == nil {
		return nil
	}
	return testHook(step, file)
}

// WriteFile replaces the file name atomically, the way WriteRelated replaces
// case files: write fills a temporary file in the same folder (through a
// buffer), which is synced, given the permissions of the file it replaces
// (perm when there is none yet) and renamed over it (over the target of a
// symbolic link), then the folder is synced. When write or any step fails,
// name is left as it was and no temporary file is left behind.
func WriteFile(name string, perm fs.FileMode, write func(w io.Writer) error) error {
	target, err := filepath.EvalSymlinks(name)
	if errors.Is(err, fs.ErrNotExist) {
		target, err = name, nil
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
	tmp, err := writeTemp(target, name, mode, func(f *os.File) error {
		bw := bufio.NewWriterSize(f, 1<<20)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return err
	}
	if err := hook("rename", name); err != nil {
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
	syncDir(filepath.Dir(target))
	return nil
}

// WriteFileAtomic is WriteFile for content already in memory, such as a
// curator's decisions or a plot.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	return WriteFile(path, perm, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// writeTemp creates a temporary file beside target, fills it with fill,
// syncs it and gives it the permission bits of mode and target's owner and
// group (where the process may), and returns its name.
// On failure it removes the file. display names target for the test hook.
func writeTemp(target, display string, mode fs.FileMode, fill func(*os.File) error) (name string, err error) {
	tmp, err := createTemp(target)
	if err != nil {
		return "", err
	}
	err = fill(tmp)
	if err == nil {
		err = hook("write", display)
	}
	if err == nil {
		err = syncFile(tmp)
	}
	if err == nil {
		keepOwner(tmp, target) // before Chmod: a change of owner clears setuid bits
		err = tmp.Chmod(mode & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
	}
	if err == nil {
		err = hook("sync", display)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		forgetTemp(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// syncDir syncs a folder after a rename in it, best effort: not every
// system can sync a folder.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
