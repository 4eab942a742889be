package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/caselink/caselink/cmd/caselink/internal/config"
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

	config  *config.File // the config file in force, nil for none (config.go)
	sources []source     // the settings applyConfig filled in, and where from

	weightsFrom string // where buildIndex's weights came from (engineConfig)

	quiet bool // --quiet: no progress on stderr (progress.go)

	notes *strings.Builder // what loading warns of, while recorded (warnf)
	hold  bool             // warnf only records in notes, printing nothing (stream.go)
	// writable: a streamed library keeps what writing it back needs
	// (caselib.StreamForWrite), for relate.
	writable bool
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

// maxCaseFlag is --max-case-size, added to every command that has --lenient.
var maxCaseFlag = &cli.StringFlag{
	Name:  "max-case-size",
	Value: "4MiB",
	Usage: "refuse a case larger than `SIZE` of JSON (e.g. 16MiB; 0 for no limit)",
}

// parseSize reads a size such as 4194304, 512KiB, 16MiB, 1GiB (K, KB, M,
// MB, G, GB are taken as powers of 1024 too).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || !(n >= 0) || n*float64(mult) > 1<<50 { // !(n >= 0): also NaN; +Inf is over the bound
		return 0, fmt.Errorf("--max-case-size: want a size such as 16MiB, got %q", s)
	}
	return int64(n * float64(mult)), nil
}

// maxCaseBytes returns the --max-case-size in force as
// caselib.LoadOptions.MaxCaseBytes: 0 for the default, -1 for no limit.
func maxCaseBytes(c *cli.Context) (int64, error) {
	if !c.IsSet("max-case-size") {
		return 0, nil
	}
	n, err := parseSize(c.String("max-case-size"))
	if err != nil {
		return 0, usageError{err}
	}
	if n == 0 {
		return -1, nil
	}
	return n, nil
}

// loadLibrary reads the library named by --cases, or the embedded seeds.
func (e *env) loadLibrary(c *cli.Context) (*caselib.Library, error) {
	maxCase, err := maxCaseBytes(c)
	if err != nil {
		return nil, err
	}
	paths := c.StringSlice("cases")
	if len(paths) == 0 {
		return caselib.LoadSeeds()
	}
	if isTableLibrary(paths) {
		return e.loadTable(c, paths, maxCase)
	}
	p := e.newProgress("loading", 0)
	lib, err := caselib.Load(paths, e.loadOptions(c, maxCase, p))
	p.done()
	return e.loaded(lib, err, paths)
}

// loadOptions returns the options of loading the library of c, warning
// through p.
func (e *env) loadOptions(c *cli.Context, maxCase int64, p *progress) caselib.LoadOptions {
	return caselib.LoadOptions{
		Lenient:      c.Bool("lenient"),
		MaxCaseBytes: maxCase,
		Stdin:        e.stdin,
		Warn: func(err error) {
			p.clear()
			e.warnf("caselink: warning: skipped: %v\n", err)
		},
		Notice: func(err error) {
			p.clear()
			e.warnf("caselink: warning: %v\n", err)
		},
		Progress: p.update,
	}
}

// loaded returns the library a load of paths gave, or its error as the
// user is told it; it warns of the cases skipped, and refuses a library
// without cases.
func (e *env) loaded(lib *caselib.Library, err error, paths []string) (*caselib.Library, error) {
	if caselib.IsNotCaseFile(err) {
		return nil, fmt.Errorf("%w; or skip it with --lenient", err)
	}
	if caselib.IsTooLarge(err) {
		return nil, fmt.Errorf("%w (raise the limit with --max-case-size, or skip it with --lenient)", err)
	}
	if err != nil {
		return nil, err
	}
	if lib.Skipped > 0 {
		e.warnf("caselink: skipped %d bad case(s)\n", lib.Skipped)
	}
	if lib.Len() == 0 {
		return nil, usagef("no cases in %s", strings.Join(paths, ", "))
	}
	return lib, nil
}

// buildIndex loads the library and indexes it with the defaults and the
// library's tuned weights (engineConfig), through the index cache unless
// --no-cache (cache.go).
func (e *env) buildIndex(c *cli.Context) (*caselib.Library, *similarity.Index, error) {
	cfg, from, err := engineConfig(c)
	if err != nil {
		return nil, nil, err
	}
	e.weightsFrom = from
	lib, r, err := e.indexed(c, cfg)
	if err != nil {
		return nil, nil, err
	}
	return lib, r.ix, nil
}

// warnf prints a warning of loading on stderr, and keeps it in notes when
// they are being recorded (for a run that opens the index without loading
// the library, stampfile.go).
func (e *env) warnf(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if e.notes != nil {
		e.notes.WriteString(s)
	}
	if !e.hold {
		fmt.Fprint(e.stderr, s)
	}
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

// noCut is the width of output that is not cut.
const noCut = 1 << 30

// width returns the width to cut lines of w to: the terminal's; else
// $COLUMNS when set (above 20); else, for output to a pipe or a file, no cut
// at all, so that nothing is lost to grep or a file.
func width(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 20 {
			return cols
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 20 {
		return n
	}
	return noCut
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

// sweepTemps removes the temporary files that killed caselink runs left in
// the library's folders (and beside a --decisions file), and says so on
// stderr: a run killed in the middle of relate --write leaves a copy of a
// case file as large as the original, which nothing else would remove until
// the next write into that folder.
func (e *env) sweepTemps(c *cli.Context) {
	removed := caselib.SweepLibrary(c.StringSlice("cases"))
	if d := c.String("decisions"); d != "" && !strings.Contains(d, "://") {
		removed = append(removed, caselib.SweepTemps(filepath.Dir(d))...)
	}
	for _, name := range removed {
		fmt.Fprintf(e.stderr, "caselink: removed %s, the temporary file of a caselink run that was killed\n", name)
	}
}
