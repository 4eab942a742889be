//go:build unix

package caselib

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock (flock) on the lock file at
// path, creating it, and returns the function that releases it. It waits
// while another process holds the lock. Processes that do not use it are
// not stopped: it orders caselink's own writers (the CLI and the server).
func lockFile(path string, mode os.FileMode) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, mode)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, &os.PathError{Op: "flock", Path: path, Err: err}
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// processGone reports whether no process has the id pid (known true when
// the system says so).
func processGone(pid int) (gone, known bool) {
	err := syscall.Kill(pid, 0)
	return err == syscall.ESRCH, err == nil || err == syscall.ESRCH || err == syscall.EPERM
}
