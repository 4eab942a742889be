package caselib

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// IgnoreFile is the file, in a folder given to Load, that lists what Load
// must not read there: one pattern a line (blank lines and lines starting
// with # are skipped). A pattern without a slash is matched against the
// name of every file and folder below the folder (README.txt, *.md, drafts);
// one with a slash against the path from the folder (notes/old.json,
// archive/*). Patterns use path.Match's syntax; a trailing slash is
// dropped. An ignored folder is skipped whole.
const IgnoreFile = ".caselinkignore"

// ignoreList is the patterns of one folder's IgnoreFile.
type ignoreList []string

// readIgnore reads the IgnoreFile of folder dir; none is no pattern.
func readIgnore(dir string) (ignoreList, *Error) {
	name := filepath.Join(dir, IgnoreFile)
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{File: name, Msg: "cannot read", Err: err}
	}
	defer f.Close()
	var list ignoreList
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		p := strings.TrimSuffix(strings.TrimSpace(sc.Text()), "/")
		if p == "" || strings.HasPrefix(p, "#") {
			continue
		}
		if _, err := path.Match(p, ""); err != nil {
			return nil, &Error{File: name, Line: line, Msg: "bad pattern " + p, Err: err}
		}
		list = append(list, p)
	}
	if err := sc.Err(); err != nil {
		return nil, &Error{File: name, Msg: "cannot read", Err: err}
	}
	return list, nil
}

// match reports whether the file or folder fpath, found below root, is
// ignored.
func (l ignoreList) match(root, fpath string) bool {
	if len(l) == 0 {
		return false
	}
	rel, err := filepath.Rel(root, fpath)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	base := path.Base(rel)
	for _, p := range l {
		target := base
		if strings.Contains(p, "/") {
			target = rel
		}
		if ok, _ := path.Match(p, target); ok {
			return true
		}
	}
	return false
}
