package tuned

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/caselink/caselink/similarity/caselib"
)

// LinksName is the file, beside a library, that lists the links relate
// --write added: what the engine wrote is no curator's judgment, and tune
// must not learn from it. It starts with a dot so that loading the folder
// as a library skips it.
const LinksName = ".caselink-relate-links.tsv"

const linksHeader = "# caselink: links relate --write added (case<TAB>linked case); tune leaves them out"

// Beside returns the path of the file name in the folder of a library
// named by its paths (as given to --cases), as caselib.DecisionsPath does
// for the decisions file.
func Beside(library []string, name string) (string, error) {
	p, err := caselib.DecisionsPath(library)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), name), nil
}

// Link is one entry of a case's related list: From lists To.
type Link struct{ From, To string }

// ReadLinks reads a links file written by RecordLinks. A missing file holds
// no links.
func ReadLinks(path string) (map[Link]bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[Link]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[Link]bool{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 2 || f[0] == "" || f[1] == "" {
			return nil, fmt.Errorf("%s:%d: want case<TAB>linked case", path, n+1)
		}
		out[Link{f[0], f[1]}] = true
	}
	return out, nil
}

// RecordLinks adds the links add (case id → ids relate added to its list)
// to the links file at path and removes the links remove, rewriting it
// sorted with caselib.WriteFileAtomic. Recording nothing new leaves the
// file alone.
func RecordLinks(path string, add, remove map[string][]string) error {
	have, err := ReadLinks(path)
	if err != nil {
		return err
	}
	before := len(have)
	changed := false
	for from, tos := range add {
		for _, to := range tos {
			if l := (Link{from, to}); !have[l] {
				have[l], changed = true, true
			}
		}
	}
	for from, tos := range remove {
		for _, to := range tos {
			delete(have, Link{from, to})
		}
	}
	if !changed && len(have) == before {
		return nil
	}
	links := slices.SortedFunc(maps.Keys(have), func(a, b Link) int {
		if c := strings.Compare(a.From, b.From); c != 0 {
			return c
		}
		return strings.Compare(a.To, b.To)
	})
	var b bytes.Buffer
	b.WriteString(linksHeader + "\n")
	for _, l := range links {
		if strings.ContainsAny(l.From+l.To, "\t\n\r") {
			return fmt.Errorf("%s: case ids %q, %q: tabs and line breaks cannot be kept in the links file", path, l.From, l.To)
		}
		fmt.Fprintf(&b, "%s\t%s\n", l.From, l.To)
	}
	return caselib.WriteFileAtomic(path, b.Bytes(), 0o644)
}
