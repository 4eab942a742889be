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

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib/pgstore"
)

// The index cache: the scoring commands keep the analysis of a library in
// the user's cache folder (os.UserCacheDir()/caselink/), one file per
// library, so that the next command on the same library skips tokenizing
// it. What the file may be used for is decided by its key
// (similarity.CacheKey): the documents themselves, the whole engine
// configuration and this binary, so a file is never stale whatever the
// files' times say; a damaged or foreign file is rebuilt.

// noCacheFlag is --no-cache, on the commands that index a library.
var noCacheFlag = &cli.BoolFlag{
	Name:  "no-cache",
	Usage: "index the library from scratch, neither reading nor writing the index cache",
}

// cacheFile returns the cache file of the library named by paths (the
// embedded seeds when empty), or "" when it has none: standard input, or
// no cache folder.
func cacheFile(paths []string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	name := "seeds"
	if len(paths) > 0 {
		ids := make([]string, 0, len(paths))
		for _, p := range paths {
			switch {
			case p == "-":
				return ""
			case pgstore.IsURL(p):
				src, err := pgstore.Parse(p)
				if err != nil {
					return ""
				}
				p = src.String() // without the password
			default:
				if abs, err := filepath.Abs(p); err == nil {
					p = abs
				}
			}
			ids = append(ids, p)
		}
		sum := sha256.Sum256([]byte(strings.Join(ids, "\x00")))
		name = hex.EncodeToString(sum[:12])
	}
	return filepath.Join(dir, "caselink", name+".idx")
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

// cachedIndex returns the index of docs with cfg: from the library's cache
// file when one with the right key is there, else built (with progress)
// and saved for next time. With off, or no cache file for the library, it
// only builds. A file that cannot be used or saved is never an error: the
// index is built, and saveErr says why the file was not written.
func cachedIndex(paths []string, docs []similarity.Document, cfg similarity.Config, off bool,
	build func() (*similarity.Index, error)) (ix *similarity.Index, path string, state cacheState, saveErr error) {
	if !off {
		path = cacheFile(paths)
	}
	if path == "" {
		ix, err := build()
		return ix, "", cacheOff, err
	}
	key := similarity.CacheKey(docs, cfg, cacheSalt)
	if ix, err := similarity.OpenCache(path, key, docs, cfg); err == nil {
		return ix, path, cacheUsed, nil
	}
	ix, err := build()
	if err != nil {
		return nil, path, cacheOff, err
	}
	if err := ix.SaveCache(path, key); err != nil {
		return ix, path, cacheNoSave, err
	}
	return ix, path, cacheSaved, nil
}

// indexLibrary is what buildIndex and serve index a library with: the
// cache unless --no-cache, else a fresh build.
func (e *env) indexLibrary(c *cli.Context, docs []similarity.Document, cfg similarity.Config) (*similarity.Index, error) {
	ix, _, _, err := cachedIndex(c.StringSlice("cases"), docs, cfg, c.Bool("no-cache"), e.builder(docs, cfg))
	if ix == nil {
		return nil, err
	}
	return ix, nil // a cache file that could not be saved only costs the next run time
}

// cachedBuild is serve's first build of the library named by paths: from
// its cache file, like the CLI's, unless off.
func cachedBuild(paths []string, off bool) func([]similarity.Document, similarity.Config) (*similarity.Index, error) {
	return func(docs []similarity.Document, cfg similarity.Config) (*similarity.Index, error) {
		ix, _, _, err := cachedIndex(paths, docs, cfg, off, func() (*similarity.Index, error) { return similarity.Build(docs, cfg) })
		if ix == nil {
			return nil, err
		}
		return ix, nil
	}
}

// builder returns a fresh build of docs with cfg, showing progress.
func (e *env) builder(docs []similarity.Document, cfg similarity.Config) func() (*similarity.Index, error) {
	return func() (*similarity.Index, error) {
		p := e.newProgress("indexing", len(docs))
		ix, err := similarity.BuildProgress(docs, cfg, p.update)
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
Prints the cache file and whether it was built or already up to date.
Every command builds the cache on first use anyway; --no-cache on those
commands bypasses it. A cache file that is out of date, of other weights
or another caselink, or damaged, is never used: it is rebuilt.`,
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
	paths := c.StringSlice("cases")
	if slices.Contains(paths, "-") {
		return usagef("index: standard input cannot be cached (it cannot be read again)")
	}
	lib, err := e.loadLibrary(c)
	if err != nil {
		return err
	}
	docs := similarity.Documents(lib.Cases)
	ix, path, state, err := cachedIndex(paths, docs, cfg, false, e.builder(docs, cfg))
	switch {
	case ix == nil:
		return err
	case path == "":
		return errors.New("index: no cache folder (set XDG_CACHE_HOME or HOME)")
	case state == cacheNoSave:
		return fmt.Errorf("index: writing %s: %w", path, err)
	}
	what := "built"
	if state == cacheUsed {
		what = "up to date"
	}
	size := int64(0)
	if info, err := os.Stat(path); err == nil {
		size = info.Size()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %s (%d cases, %d terms, %.1f MB)\n", path, what, ix.Len(), ix.Terms(), float64(size)/1e6)
	return nil
}
