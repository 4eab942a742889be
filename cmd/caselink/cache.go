package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/caselib/pgstore"
)

// The index cache: the scoring commands keep the analysis of a library in
// the user's cache folder (os.UserCacheDir()/caselink/), one file per
// library, so that the next command on the same library skips tokenizing
// it. What the file may be used for is decided by its key
// (similarity.CacheKeyOf): the documents' sum, the whole engine
// configuration and this binary, so a file is never stale; a damaged or
// foreign file is rebuilt. Beside it, the library's stamp (stampfile.go)
// lets match know that sum without reading the library.

// noCacheFlag is --no-cache, on the commands that index a library.
var noCacheFlag = &cli.BoolFlag{
	Name:  "no-cache",
	Usage: "index the library from scratch, neither reading nor writing the index cache",
}

// cacheFile returns the cache file of the library named by paths (the
// embedded seeds when empty), or "" when it has none: standard input, or
// no cache folder.
func cacheFile(paths []string) string {
	dir := cacheDir()
	if dir == "" {
		return ""
	}
	name := "seeds"
	if len(paths) > 0 {
		ids, ok := libraryIDs(paths)
		if !ok {
			return ""
		}
		sum := sha256.Sum256([]byte(strings.Join(ids, "\x00")))
		name = hex.EncodeToString(sum[:12])
	}
	return filepath.Join(dir, name+".idx")
}

// cacheDir returns the folder of the index cache, "" when the user has no
// cache folder.
func cacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "caselink")
}

// libraryIDs returns how the cache names the library of paths: absolute
// paths, and postgres:// URLs without their password; ok is false for
// standard input, which is never cached.
func libraryIDs(paths []string) (ids []string, ok bool) {
	ids = make([]string, 0, len(paths))
	for _, p := range paths {
		switch {
		case p == "-":
			return nil, false
		case pgstore.IsURL(p):
			src, err := pgstore.Parse(p)
			if err != nil {
				return nil, false
			}
			p = src.String() // without the password
		default:
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
		}
		ids = append(ids, p)
	}
	return ids, true
}

// cacheSalt names this binary in cache keys: its version, its VCS revision
// when built from a checkout, and the size and time of its executable, so
// that a rebuilt caselink (whose analyzer may differ) never reads the
// analysis of another.
var cacheSalt = func() string {
	s := "caselink " + version
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, kv := range bi.Settings {
			if kv.Key == "vcs.revision" || kv.Key == "vcs.modified" {
				s += " " + kv.Value
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if info, err := os.Stat(exe); err == nil {
			s += fmt.Sprintf(" %d %d", info.Size(), info.ModTime().UnixNano())
		}
	}
	return s
}()

// cacheState says where an index came from.
type cacheState int

const (
	cacheOff    cacheState = iota // built, no cache file in play
	cacheUsed                     // opened from the cache file
	cacheSaved                    // built and saved to the cache file
	cacheNoSave                   // built; saving the cache file failed
)

// cached is what cachedIndex did: the index, the cache file in play ("" for
// none), where the index came from, why the file was not saved, and the
// documents' sum (similarity.DocsSum) the file is keyed by.
type cached struct {
	ix      *similarity.Index
	lib     *caselib.Library // the library as streamed (streamIndexed), when it was
	path    string
	state   cacheState
	saveErr error
	sum     [32]byte
	reused  int // cases whose analysis was taken from an index before (streamIndexedFrom)

	// read reads a case of a streamed library from its file, as ix
	// does: what an index opened from the file just saved reads its cases
	// with (serveStream).
	read func(i int) (*caselib.Case, error)
}

// cacheable is what cachedIndex indexes: the sum its cache file is keyed by,
// how to open that file for it, and how to build it afresh.
type cacheable struct {
	sum   func() [32]byte
	open  func(path string, key [32]byte) (*similarity.Index, error)
	build func() (*similarity.Index, error)
}

// ofCases indexes cases as their Documents, never holding those of
// the whole library at once (build shows progress).
func ofCases(cases []*caselib.Case, cfg similarity.Config, build func() (*similarity.Index, error)) cacheable {
	return cacheable{
		sum: func() [32]byte { return similarity.CasesSum(cases) },
		open: func(path string, key [32]byte) (*similarity.Index, error) {
			return similarity.OpenCacheCases(path, key, cases, cfg)
		},
		build: build,
	}
}

// ofDocuments indexes docs as given (serve's first build, which holds them
// anyway).
func ofDocuments(docs []similarity.Document, cfg similarity.Config) cacheable {
	return cacheable{
		sum: func() [32]byte { return similarity.DocsSum(docs) },
		open: func(path string, key [32]byte) (*similarity.Index, error) {
			return similarity.OpenCache(path, key, docs, cfg)
		},
		build: func() (*similarity.Index, error) { return similarity.Build(docs, cfg) },
	}
}

// cachedIndex returns the index of lib with cfg: from the library's cache
// file when one with the right key is there, else built (with progress)
// and saved for next time. With off, or no cache file for the library, it
// only builds. A file that cannot be used or saved is never an error: the
// index is built, and saveErr says why the file was not written.
func cachedIndex(paths []string, lib cacheable, cfg similarity.Config, off bool) (cached, error) {
	var r cached
	if !off {
		r.path = cacheFile(paths)
	}
	if r.path == "" {
		ix, err := lib.build()
		r.ix = ix
		return r, err
	}
	r.sum = lib.sum()
	key := similarity.CacheKeyOf(r.sum, cfg, cacheSalt)
	if ix, err := lib.open(r.path, key); err == nil {
		r.ix, r.state = ix, cacheUsed
		touchCache(r.path)
		return r, nil
	}
	ix, err := lib.build()
	if err != nil {
		return cached{}, err
	}
	r.ix, r.state = ix, cacheSaved
	if err := ix.SaveCache(r.path, key); err != nil {
		r.state, r.saveErr = cacheNoSave, err
	} else {
		nameCacheEntry(r.path, paths)
	}
	return r, nil
}

// indexed loads the library and indexes it through the cache (unless
// --no-cache), recording the library's stamp beside the cache file so that
// the next match need not read it (stampfile.go).
func (e *env) indexed(c *cli.Context, cfg similarity.Config) (*caselib.Library, cached, error) {
	o, err := stampOptionsOf(c)
	if err != nil {
		return nil, cached{}, err
	}
	off := c.Bool("no-cache")
	taken := time.Now()
	var before []caselib.FileStamp
	if !off && !isTableLibrary(o.paths) { // a table is keyed by its content alone
		before = caselib.FileStamps(o.paths)
	}
	var notes strings.Builder
	e.notes = &notes
	lib, err := e.loadLibrary(c)
	if err == nil {
		e.warnLinks(curate.CheckLinks(lib.Cases, lib.ByID))
	}
	e.notes = nil
	if err != nil {
		return nil, cached{}, err
	}
	r, err := cachedIndex(o.paths, ofCases(lib.Cases, cfg, e.builder(lib.Cases, cfg)), cfg, off)
	if err != nil {
		return nil, r, err
	}
	if r.state == cacheUsed || r.state == cacheSaved {
		recordStamp(r.path, o, taken, before, lib, r.sum, notes.String()) // a stamp not written costs the next run time only
	}
	if r.state == cacheSaved {
		e.capCache(r.path)
	}
	return lib, r, nil
}

// stampOptionsOf returns the flags that decide what Load reads.
func stampOptionsOf(c *cli.Context) (stampOptions, error) {
	maxCase, err := maxCaseBytes(c)
	if err != nil {
		return stampOptions{}, err
	}
	return stampOptions{paths: c.StringSlice("cases"), lenient: c.Bool("lenient"), maxCase: maxCase}, nil
}

// cachedBuild is serve's first build of the library named by paths: from
// its cache file, like the CLI's, unless off.
func cachedBuild(paths []string, off bool) func([]similarity.Document, similarity.Config) (*similarity.Index, error) {
	return func(docs []similarity.Document, cfg similarity.Config) (*similarity.Index, error) {
		r, err := cachedIndex(paths, ofDocuments(docs, cfg), cfg, off)
		if r.ix == nil {
			return nil, err
		}
		return r.ix, nil
	}
}

// builder returns a fresh build of cases with cfg, showing progress.
func (e *env) builder(cases []*caselib.Case, cfg similarity.Config) func() (*similarity.Index, error) {
	return func() (*similarity.Index, error) {
		p := e.newProgress("indexing", len(cases))
		ix, err := similarity.BuildCasesProgress(cases, cfg, p.update)
		if err != nil {
			return nil, usageError{err}
		}
		p.done()
		return ix, nil
	}
}

func indexCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:      "index",
		Usage:     "build the library's index cache ahead of the first match, relate or dupes",
		ArgsUsage: " ",
		Description: `Indexes the library (with the weights match would use: caselink.toml's
[weights]) and keeps the result in the user's cache folder, so that match,
relate, dupes and serve on the same library start without tokenizing it.
Prints the cache file and whether it was built or already up to date
(when the library's files stamp as when it was indexed, without reading
them: a match then reads only the cases it prints).
Every command builds the cache on first use anyway; --no-cache on those
commands bypasses it. A cache file that is out of date, of other weights
or another caselink, or damaged, is never used: it is rebuilt (after
edits to a library of files, tokenizing only the cases that changed).`,
		Flags: []cli.Flag{casesFlag, lenientFlag},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("unexpected arguments %q: index takes only flags", c.Args().Slice())
			}
			return env.index(c)
		},
	}
}

func (e *env) index(c *cli.Context) error {
	cfg, _, err := engineConfig(c)
	if err != nil {
		return err
	}
	o, err := stampOptionsOf(c)
	if err != nil {
		return err
	}
	if slices.Contains(o.paths, "-") {
		return usagef("index: standard input cannot be cached (it cannot be read again)")
	}
	ix, _, ok := openLazy(o, cfg)
	path, state, reused := cacheFile(o.paths), cacheUsed, 0
	if !ok {
		r, notes, streamed, err := e.streamIndexed(c, cfg) // stream.go
		if err == nil && streamed {
			fmt.Fprint(e.stderr, notes)
		} else if err == nil {
			_, r, err = e.indexed(c, cfg)
		}
		switch {
		case err != nil:
			return err
		case r.path == "":
			return errors.New("index: no cache folder (set XDG_CACHE_HOME or HOME)")
		case r.state == cacheNoSave:
			return fmt.Errorf("index: writing %s: %w", r.path, r.saveErr)
		}
		ix, path, state, reused = r.ix, r.path, r.state, r.reused
	}
	what := "built"
	if state == cacheUsed {
		what = "up to date"
	}
	var analyzed string
	if reused > 0 {
		analyzed = fmt.Sprintf("; %d analyzed, %d unchanged", ix.Len()-reused, reused)
	}
	size := int64(0)
	if info, err := os.Stat(path); err == nil {
		size = info.Size()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %s (%d cases, %d terms, %.1f MB%s)\n", path, what, ix.Len(), ix.Terms(), float64(size)/1e6, analyzed)
	return nil
}
