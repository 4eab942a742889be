package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/config"
)

// The cache folder kept in bounds: every library indexed leaves an entry
// there (NAME.idx, the index; NAME.lib, its stamp; NAME.src, the library it
// is of), and a library renamed or removed would leave its entry forever.
// An entry's last use is the modification time of NAME.src, set on every
// use (the index file's own time says when it was written, which the
// cache's tests and tools read); after a command saves an entry, the least recently used others go
// until the folder is under its cap (cache.max-size in caselink.toml), and
// caselink cache lists the entries and prunes them on demand.

// defaultCacheCap is the size the cache folder is kept under: several
// libraries of 100,000 cases (about 100 MB each).
const defaultCacheCap = "1GiB"

// cacheSrcExt is the file that names an entry's library, one path (or
// postgres:// URL without its password) a line.
const cacheSrcExt = ".src"

// nameCacheEntry records which library the index idx is of, for caselink
// cache (best effort: an entry without it is listed as of an unknown
// library).
func nameCacheEntry(idx string, paths []string) {
	lib := "(the embedded seeds)"
	if len(paths) > 0 {
		ids, ok := libraryIDs(paths)
		if !ok {
			return
		}
		lib = strings.Join(ids, "\n")
	}
	os.WriteFile(strings.TrimSuffix(idx, ".idx")+cacheSrcExt, []byte(lib+"\n"), 0o644)
}

// touchCache marks the index idx as used now, for least-recently-used
// pruning (best effort; an entry saved before caselink named its library
// goes by its files' times).
func touchCache(idx string) {
	now := time.Now()
	os.Chtimes(strings.TrimSuffix(idx, ".idx")+cacheSrcExt, now, now)
}

// cacheEntry is one library's files in the cache folder.
type cacheEntry struct {
	name    string   // the file name's stem
	files   []string // its files
	size    int64    // their total size
	used    time.Time
	library string // the paths it indexes, joined by ", "; "" when unknown
}

// cacheEntries lists the entries of the cache folder dir, least recently
// used first (by name among equals, so the order is the same every time).
func cacheEntries(dir string) ([]cacheEntry, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	byName := map[string]*cacheEntry{}
	srcUsed := map[string]time.Time{}
	for _, e := range ents {
		ext := filepath.Ext(e.Name())
		if e.IsDir() || (ext != ".idx" && ext != ".lib" && ext != cacheSrcExt) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		stem := strings.TrimSuffix(e.Name(), ext)
		ce := byName[stem]
		if ce == nil {
			ce = &cacheEntry{name: stem}
			byName[stem] = ce
		}
		ce.files = append(ce.files, filepath.Join(dir, e.Name()))
		ce.size += info.Size()
		if info.ModTime().After(ce.used) && ext != cacheSrcExt {
			ce.used = info.ModTime()
		}
		if ext == cacheSrcExt {
			srcUsed[stem] = info.ModTime()
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
				ce.library = strings.Join(strings.Split(strings.TrimSpace(string(b)), "\n"), ", ")
			}
		}
	}
	out := make([]cacheEntry, 0, len(byName))
	for _, ce := range byName {
		if t, ok := srcUsed[ce.name]; ok {
			ce.used = t
		}
		out = append(out, *ce)
	}
	slices.SortFunc(out, func(a, b cacheEntry) int {
		return cmp.Or(a.used.Compare(b.used), strings.Compare(a.name, b.name))
	})
	return out, nil
}

// pruneCache removes, of entries (least recently used first), those last
// used before cutoff (when not zero), then the least recently used until
// the rest hold at most maxSize bytes (when maxSize > 0). The entry of the
// index keep is never removed. It returns the entries removed.
func pruneCache(entries []cacheEntry, cutoff time.Time, maxSize int64, keep string) []cacheEntry {
	keepStem := strings.TrimSuffix(filepath.Base(keep), ".idx")
	var total int64
	for _, e := range entries {
		total += e.size
	}
	var removed []cacheEntry
	for _, e := range entries {
		if e.name == keepStem && keep != "" {
			continue
		}
		old := !cutoff.IsZero() && e.used.Before(cutoff)
		over := maxSize > 0 && total > maxSize
		if !old && !over {
			continue
		}
		for _, f := range e.files {
			os.Remove(f)
		}
		total -= e.size
		removed = append(removed, e)
	}
	return removed
}

// cacheCap returns the cap of the cache folder in force: cache.max-size of
// the config file f, else the default.
func cacheCap(f *config.File) (int64, error) {
	v := defaultCacheCap
	if s, ok := configSetting(f, "cache.max-size"); ok && len(s.Values) == 1 {
		v = s.Values[0]
	}
	n, err := parseSize(v)
	if err != nil {
		return 0, fmt.Errorf("cache.max-size: want a size such as 1GiB, got %q", v)
	}
	return n, nil
}

// capCache keeps the cache folder under its cap once the index idx has
// been saved, removing the least recently used other entries, and says so
// on stderr. A cap that cannot be read leaves the folder as it is.
func (e *env) capCache(idx string) {
	maxSize, err := cacheCap(e.config)
	if err != nil || maxSize <= 0 {
		return
	}
	entries, err := cacheEntries(filepath.Dir(idx))
	if err != nil {
		return
	}
	for _, r := range pruneCache(entries, time.Time{}, maxSize, idx) {
		fmt.Fprintf(e.stderr, "caselink: cache over %s: removed the index of %s (%s, last used %s)\n",
			humanSize(maxSize), orUnknown(r.library), humanSize(r.size), r.used.UTC().Format(time.DateOnly))
	}
}

func orUnknown(lib string) string {
	if lib == "" {
		return "an unknown library"
	}
	return lib
}

// parseAge reads --older-than: a Go duration (36h) or a number of days
// (30d).
func parseAge(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(strings.TrimSpace(s), "d"); ok {
		n, err := strconv.ParseFloat(d, 64)
		if err == nil && n >= 0 {
			return time.Duration(n * 24 * float64(time.Hour)), nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, usagef("--older-than: want an age such as 30d or 12h, got %q", s)
	}
	return d, nil
}

func cacheCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "cache",
		Usage: "list the index cache's entries, or prune them",
		Description: `Lists the entries of the index cache folder (` + "`" + `os.UserCacheDir()/caselink` + "`" + `), one a
line: size, when last used, and the library it indexes, least recently used first,
then the total and the cap. --prune removes the entries last used before --older-than
(when given), then the least recently used until the folder is under --max-size. Every
command that saves an entry also keeps the folder under the cap, set by cache.max-size
in caselink.toml (default ` + defaultCacheCap + `). A removed entry is rebuilt on next use.

Examples:
   caselink cache
   caselink cache --prune --older-than 30d
   caselink cache --prune --max-size 200MiB`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "prune", Usage: "remove entries: those older than --older-than, then the least recently used over --max-size"},
			&cli.StringFlag{Name: "older-than", Usage: "with --prune: remove the entries last used longer ago than `AGE` (30d, 12h)"},
			&cli.StringFlag{Name: "max-size", Value: defaultCacheCap, Usage: "the `SIZE` the cache folder is kept under (cache.max-size in caselink.toml)"},
			configFileFlag,
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("unexpected arguments %q: cache takes only flags", c.Args().Slice())
			}
			return env.cache(c)
		},
	}
}

func (e *env) cache(c *cli.Context) error {
	f, err := config.Find(c.String("config"), nil)
	if err != nil {
		return usageError{err}
	}
	maxSize, err := cacheCap(f)
	if err != nil {
		return usageError{err}
	}
	if c.IsSet("max-size") {
		if maxSize, err = parseSize(c.String("max-size")); err != nil {
			return usagef("--max-size: want a size such as 1GiB, got %q", c.String("max-size"))
		}
	}
	var cutoff time.Time
	if c.IsSet("older-than") {
		if !c.Bool("prune") {
			return usagef("--older-than says what --prune removes: give --prune too")
		}
		age, err := parseAge(c.String("older-than"))
		if err != nil {
			return err
		}
		cutoff = time.Now().Add(-age)
	}
	dir := cacheDir()
	if dir == "" {
		return errors.New("cache: no cache folder (set XDG_CACHE_HOME or HOME)")
	}
	entries, err := cacheEntries(dir)
	if err != nil {
		return err
	}
	if c.Bool("prune") {
		removed := pruneCache(entries, cutoff, maxSize, "")
		var freed int64
		for _, r := range removed {
			freed += r.size
			fmt.Fprintf(e.stdout, "removed  %8s  %s  %s\n", humanSize(r.size), r.used.UTC().Format(time.DateOnly), orUnknown(r.library))
		}
		fmt.Fprintf(e.stdout, "%d entr%s removed, %s freed\n", len(removed), plural(len(removed), "y", "ies"), humanSize(freed))
		if entries, err = cacheEntries(dir); err != nil {
			return err
		}
	} else {
		for _, r := range entries {
			fmt.Fprintf(e.stdout, "%8s  %s  %s\n", humanSize(r.size), r.used.UTC().Format("2006-01-02 15:04"), orUnknown(r.library))
		}
	}
	var total int64
	for _, r := range entries {
		total += r.size
	}
	fmt.Fprintf(e.stdout, "%s: %d entr%s, %s of %s\n", dir, len(entries), plural(len(entries), "y", "ies"), humanSize(total), humanSize(maxSize))
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
