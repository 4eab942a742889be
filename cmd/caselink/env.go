package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/caselib/pgstore"
)

// env is what a command reads and writes: the process's streams, or a
// test's.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	table *pgstore.Table // the library, when --cases named a PostgreSQL table (pg.go)
}

// casesFlag is --cases, shared by every command that reads a library.
var casesFlag = &cli.StringSliceFlag{
	Name:    "cases",
	Aliases: []string{"c"},
	Usage:   "case file, folder of case files, or JSON Lines file (repeatable; - reads standard input), or a postgres://HOST/DB?table=T&column=C table; default: the embedded seed cases",
}

var lenientFlag = &cli.BoolFlag{
	Name:  "lenient",
	Usage: "skip bad cases with a warning instead of stopping at the first",
}

// loadLibrary reads the library named by --cases, or the embedded seeds.
func (e *env) loadLibrary(c *cli.Context) (*caselib.Library, error) {
	paths := c.StringSlice("cases")
	if len(paths) == 0 {
		return caselib.LoadSeeds()
	}
	if isTableLibrary(paths) {
		return e.loadTable(c, paths)
	}
	lenient := c.Bool("lenient")
	lib, err := caselib.Load(paths, caselib.LoadOptions{
		Lenient: lenient,
		Stdin:   e.stdin,
		Warn: func(err error) {
			fmt.Fprintf(e.stderr, "caselink: warning: skipped: %v\n", err)
		},
	})
	if err != nil {
		return nil, err
	}
	if lib.Skipped > 0 {
		fmt.Fprintf(e.stderr, "caselink: skipped %d bad case(s)\n", lib.Skipped)
	}
	if len(lib.Cases) == 0 {
		return nil, usagef("no cases in %s", strings.Join(paths, ", "))
	}
	return lib, nil
}

// buildIndex loads the library and indexes it with the default configuration.
func (e *env) buildIndex(c *cli.Context) (*caselib.Library, *similarity.Index, error) {
	lib, err := e.loadLibrary(c)
	if err != nil {
		return nil, nil, err
	}
	p := e.newProgress("indexing", len(lib.Cases))
	ix, err := similarity.BuildProgress(lib.Cases, similarity.DefaultConfig(), p.update)
	if err != nil {
		return nil, nil, usageError{err}
	}
	p.done()
	return lib, ix, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (e *env) stderrIsTerminal() bool { return isTerminal(e.stderr) }

// color reports whether output to w may use colour: a terminal, and NO_COLOR unset.
func color(w io.Writer) bool {
	return isTerminal(w) && os.Getenv("NO_COLOR") == ""
}

// width returns the width to cut lines of w to: the terminal's, $COLUMNS, or 100.
func width(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 20 {
			return cols
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 20 {
		return n
	}
	return 100
}

// cut shortens s to at most n characters, ending with "…" when cut.
func cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if n <= 1 {
		return ""
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// progress prints "label: done/total (rate/s)" on stderr, at most a few
// times a second, once the work has run for two seconds, and only when
// stderr is a terminal. done finishes the line.
type progress struct {
	w     io.Writer
	label string
	total int
	start time.Time
	last  time.Time
	on    bool
	shown bool
}

func (e *env) newProgress(label string, total int) *progress {
	return &progress{w: e.stderr, label: label, total: total, start: time.Now(), on: e.stderrIsTerminal()}
}

func (p *progress) update(done int) {
	if !p.on {
		return
	}
	now := time.Now()
	if now.Sub(p.start) < 2*time.Second || now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	rate := float64(done) / now.Sub(p.start).Seconds()
	fmt.Fprintf(p.w, "\r%s: %d/%d cases (%.0f/s)  ", p.label, done, p.total, rate)
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprintf(p.w, "\r%s: %d/%d cases in %.1fs     \n", p.label, p.total, p.total, time.Since(p.start).Seconds())
	}
}

// bold wraps s in bold when on.
func bold(s string, on bool) string {
	if !on {
		return s
	}
	return "\x1b[1m" + s + "\x1b[0m"
}

// dim wraps s in faint text when on.
func dim(s string, on bool) string {
	if !on {
		return s
	}
	return "\x1b[2m" + s + "\x1b[0m"
}
