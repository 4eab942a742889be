package caselib

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The writer's temporary files are named .NAME.caselink-PID.RANDOM.tmp
// beside the file they will replace: a dot file, so that loading the
// folder skips it, and one that names the process that made it, so that a
// later run can tell a stale one (its process is gone) from one another
// caselink is writing right now.
const tempMark = ".caselink-"

// temps are the temporary files this process has made and not yet renamed
// or removed.
var temps struct {
	mu     sync.Mutex
	names  map[string]bool
	closed bool // RemoveTemps ran: the process is stopping
}

// createTemp creates a temporary file beside target and remembers it.
func createTemp(target string) (*os.File, error) {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	if temps.closed {
		return nil, fmt.Errorf("%s: not written: caselink is stopping", target)
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+tempMark+strconv.Itoa(os.Getpid())+".*.tmp")
	if err != nil {
		return nil, err
	}
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	temps.names[f.Name()] = true
	return f, nil
}

// forgetTemp is called once a temporary file is renamed or removed.
func forgetTemp(name string) {
	temps.mu.Lock()
	delete(temps.names, name)
	temps.mu.Unlock()
}

// RemoveTemps removes every temporary file the writer of this process has
// made and not yet renamed over its original, and makes any later write
// fail. It is for a signal handler that stops the process (caselink relate
// --write on Ctrl-C): the originals are whole, each either as it was or
// fully rewritten, and no temporary file is left behind. It returns how many
// it removed.
func RemoveTemps() int {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	temps.closed = true
	n := 0
	for name := range temps.names {
		if os.Remove(name) == nil {
			n++
		}
		delete(temps.names, name)
	}
	return n
}

// staleAge is how old a temporary file of a process that may still be
// running must be to be swept where processes cannot be asked about.
const staleAge = 24 * time.Hour

// SweepTemps removes, in the folder dir, the writer's temporary files left
// by caselink processes that are gone (killed before they could clean up).
// Files of running processes, and files not named as the writer names its
// own, are left alone. It returns the files it removed.
func SweepTemps(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	return sweepEntries(dir, ents)
}

// sweepEntries is SweepTemps on the entries ents of dir, already read.
func sweepEntries(dir string, ents []os.DirEntry) []string {
	var removed []string
	for _, e := range ents {
		pid, ok := tempPID(e.Name())
		if !ok || !e.Type().IsRegular() || pid == os.Getpid() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		gone, known := processGone(pid)
		if !known {
			info, err := e.Info()
			gone = err == nil && time.Since(info.ModTime()) > staleAge
		}
		if gone && os.Remove(name) == nil {
			removed = append(removed, name)
		}
	}
	return removed
}

// SweepLibrary runs SweepTemps in every folder of the library named by
// paths, as Load names it: for a folder, the folder and each subfolder Load
// reads (not hidden ones, not those its .caselinkignore lists, not links to
// folders); for a file, the folder that holds it (and the one that holds
// its target, for a link). It is for every run that reads a library, so
// that a killed writer's temporary files (often as large as the case file
// they were to replace) do not wait for the next write into that folder.
// "-" and URLs are skipped. It returns the files it removed, in the order
// found.
func SweepLibrary(paths []string) []string {
	var removed []string
	seen := map[string]bool{}
	first := func(dir string) bool { // each folder is swept once
		key := dir
		if abs, err := filepath.Abs(dir); err == nil {
			key = abs
		}
		if seen[key] {
			return false
		}
		seen[key] = true
		return true
	}
	sweep := func(dir string) {
		if first(dir) {
			removed = append(removed, SweepTemps(dir)...)
		}
	}
	for _, p := range paths {
		if p == "-" || strings.Contains(p, "://") {
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		if !st.IsDir() {
			sweep(filepath.Dir(p))
			if target, err := filepath.EvalSymlinks(p); err == nil {
				sweep(filepath.Dir(target))
			}
			continue
		}
		ignore, _ := readIgnore(p) // a bad ignore file is Load's to report
		walkRoot := p
		if target, err := filepath.EvalSymlinks(p); err == nil {
			walkRoot = target
		}
		var walk func(dir string)
		walk = func(dir string) {
			if !first(dir) {
				return
			}
			ents, err := os.ReadDir(dir)
			if err != nil {
				return
			}
			removed = append(removed, sweepEntries(dir, ents)...)
			for _, e := range ents {
				sub := filepath.Join(dir, e.Name())
				if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
					continue // a link to a folder is not a dir entry, and Load does not follow it
				}
				if rel, err := filepath.Rel(walkRoot, sub); err == nil && ignore.match(p, filepath.Join(p, rel)) {
					continue
				}
				walk(sub)
			}
		}
		walk(walkRoot)
	}
	return removed
}

// tempPID returns the process id in the name of one of the writer's
// temporary files (.NAME.caselink-PID.RANDOM.tmp).
func tempPID(name string) (int, bool) {
	if !strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".tmp") {
		return 0, false
	}
	i := strings.LastIndex(name, tempMark)
	if i < 0 {
		return 0, false
	}
	rest := name[i+len(tempMark) : len(name)-len(".tmp")]
	pidText, random, ok := strings.Cut(rest, ".")
	if !ok || random == "" || strings.Contains(random, ".") {
		return 0, false
	}
	for _, c := range random {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

// reopenTemps undoes RemoveTemps (for tests, which go on writing).
func reopenTemps() {
	temps.mu.Lock()
	temps.closed = false
	temps.mu.Unlock()
}
