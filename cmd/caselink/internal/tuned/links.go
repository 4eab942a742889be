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
	return ParseLinks(path, data)
}

// ParseLinks reads the links of a links file's content; name names it in
// errors.
func ParseLinks(name string, data []byte) (map[Link]bool, error) {
	out := map[Link]bool{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 2 || f[0] == "" || f[1] == "" {
			return nil, fmt.Errorf("%s:%d: want case<TAB>linked case", name, n+1)
		}
		out[Link{f[0], f[1]}] = true
	}
	return out, nil
}

// UpdateLinks adds to have the links add (case id → ids relate added to its
// list) and removes the links remove; it reports whether have changed.
func UpdateLinks(have map[Link]bool, add, remove map[string][]string) bool {
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
			if l := (Link{from, to}); have[l] {
				delete(have, l)
				changed = true
			}
		}
	}
	return changed
}

// FormatLinks returns the content of a links file holding links, sorted.
func FormatLinks(links map[Link]bool) ([]byte, error) {
	sorted := slices.SortedFunc(maps.Keys(links), func(a, b Link) int {
		if c := strings.Compare(a.From, b.From); c != 0 {
			return c
		}
		return strings.Compare(a.To, b.To)
	})
	var b bytes.Buffer
	b.WriteString(linksHeader + "\n")
	for _, l := range sorted {
		if strings.ContainsAny(l.From+l.To, "\t\n\r") {
			return nil, fmt.Errorf("case ids %q, %q: tabs and line breaks cannot be kept in the links file", l.From, l.To)
		}
		fmt.Fprintf(&b, "%s\t%s\n", l.From, l.To)
	}
	return b.Bytes(), nil
}

// RecordLinks updates the links file at path (UpdateLinks), rewriting it
// sorted with caselib.WriteFileAtomic. Recording nothing new leaves the
// file alone.
func RecordLinks(path string, add, remove map[string][]string) error {
	have, err := ReadLinks(path)
	if err != nil {
		return err
	}
	if !UpdateLinks(have, add, remove) {
		return nil
	}
	data, err := FormatLinks(have)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return caselib.WriteFileAtomic(path, data, 0o644)
}
