package main

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/serve"
	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/caselib/pgstore"
)

// pg.go wires a library kept in PostgreSQL (--cases postgres://…) into the
// commands, and adds import and export.

func ctxOf(c *cli.Context) context.Context {
	if c.Context != nil {
		return c.Context
	}
	return context.Background()
}

// isTableLibrary reports whether --cases names a library in PostgreSQL.
func isTableLibrary(paths []string) bool {
	for _, p := range paths {
		if pgstore.IsURL(p) {
			return true
		}
	}
	return false
}

// loadTable reads the library from the table named by the one --cases URL
// and remembers it for relate --write.
func (e *env) loadTable(c *cli.Context, paths []string, maxCase int64) (*caselib.Library, error) {
	if len(paths) != 1 {
		return nil, usagef("a postgres:// library must be the only --cases (got %d)", len(paths))
	}
	src, err := pgstore.Parse(paths[0])
	if err != nil {
		return nil, err
	}
	t, err := pgstore.Load(ctxOf(c), src, caselib.LoadOptions{
		Lenient:      c.Bool("lenient"),
		MaxCaseBytes: maxCase,
		Warn: func(err error) {
			fmt.Fprintf(e.stderr, "caselink: warning: skipped: %v\n", err)
		},
	})
	if err != nil {
		return nil, err
	}
	if t.Lib.Skipped > 0 {
		fmt.Fprintf(e.stderr, "caselink: skipped %d bad case(s)\n", t.Lib.Skipped)
	}
	if t.Lib.Len() == 0 {
		return nil, usagef("no cases in %s", src.Name())
	}
	e.table = t
	return t.Lib, nil
}

// writeTableRelated is relate --write for a library in PostgreSQL: the
// final related lists of the cases that change (relate's plan), in one
// transaction; out is relate's report, printed as for files.
func (e *env) writeTableRelated(c *cli.Context, changed map[string][]string, out relateOutput) error {
	res, err := e.table.WriteRelated(ctxOf(c), changed, time.Now())
	if err != nil {
		return failure{err}
	}
	if len(res.Skipped) > 0 {
		fmt.Fprintf(e.stderr, "caselink: skipped %d case(s) whose row changed since it was read (run relate again): %s\n",
			len(res.Skipped), strings.Join(res.Skipped, ", "))
	}
	msg := fmt.Sprintf("updated related of %d case(s) in %s: %d link(s) added, %d removed\n",
		len(res.Updated), e.table.Source.Name(), out.Add, out.Remove)
	if !c.Bool("json") {
		fmt.Fprint(e.stdout, msg)
		return nil
	}
	fmt.Fprint(e.stderr, msg)
	return writeJSONLinks(e.stdout, out)
}

// serveTable makes serve read its library from the table named by the one
// --cases URL, and poll the table's fingerprint (pgstore.Stamp) to reload.
func serveTable(ctx context.Context, opts *serve.Options) error {
	if len(opts.Paths) != 1 {
		return usagef("a postgres:// library must be the only --cases (got %d)", len(opts.Paths))
	}
	url := opts.Paths[0]
	src, err := pgstore.Parse(url)
	if err != nil {
		return err
	}
	opts.Paths = []string{src.String()} // the password stays out of the log
	opts.Library = func(warn func(error)) (*caselib.Library, error) {
		t, err := pgstore.Load(ctx, src, caselib.LoadOptions{Lenient: opts.Lenient, MaxCaseBytes: opts.MaxCaseBytes, Warn: warn})
		if err != nil {
			return nil, err
		}
		return t.Lib, nil
	}
	opts.Stamp = func() uint64 {
		stamp, err := pgstore.Stamp(ctx, src)
		if err != nil {
			stamp = "error: " + err.Error()
		}
		return maphash.String(stampSeed, stamp)
	}
	if opts.Decisions == nil { // no --decisions FILE: a table beside the library
		st, err := pgstore.NewDecisions(url)
		if err != nil {
			return err
		}
		opts.Decisions = st
	}
	return nil
}

// stampSeed seeds the table fingerprints; they are only compared within
// one process.
var stampSeed = maphash.MakeSeed()

func importCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "copy case files into a PostgreSQL table",
		ArgsUsage: "postgres://HOST/DB?table=TABLE[&column=COLUMN]",
		Description: `Reads the cases of --cases (files, folders, JSON Lines; the embedded seeds without it),
checks them as every command does, and copies them into the table, one jsonb value per row,
in one transaction: a case whose id is already in the table replaces that row's value, the
others are inserted. A missing table is created (one jsonb column, default "data", with a
unique index on its "id"). jsonb keeps neither key order nor spacing: the rows hold the same
JSON values, not the same bytes. The URL follows libpq: PG* environment variables and
~/.pgpass fill in what it leaves out.

Examples:
   caselink import --cases ./library 'postgres://localhost/incidents?table=cases'
   PGHOST=/run/postgresql caselink import --cases cases.jsonl 'postgres:///incidents?table=cases&column=doc'`,
		Flags:  []cli.Flag{casesFlag, lenientFlag},
		Action: func(c *cli.Context) error { return env.importCases(c) },
	}
}

func (env *env) importCases(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("import takes one postgres:// URL, got %d argument(s)", c.NArg())
	}
	src, err := pgstore.Parse(c.Args().First())
	if err != nil {
		return err
	}
	if isTableLibrary(c.StringSlice("cases")) {
		return usagef("import reads case files: --cases must not be a postgres:// URL")
	}
	for _, p := range c.StringSlice("cases") {
		if p == "-" {
			return usagef("import cannot read standard input: give files or folders")
		}
	}
	lib, err := env.loadLibrary(c)
	if err != nil {
		return err
	}
	p := env.newProgress("import: copying", 0)
	p.n = lib.Len()
	p.busy()
	res, err := pgstore.Import(ctxOf(c), src, lib)
	p.done()
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "imported %d case(s) into %s: %d new, %d replaced, %d unchanged\n",
		lib.Len(), src.Name(), res.Inserted, res.Replaced, res.Unchanged)
	return nil
}

func exportCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write the cases of a PostgreSQL table to a JSON Lines file",
		ArgsUsage: "postgres://HOST/DB?table=TABLE[&column=COLUMN]",
		Description: `Writes every row's jsonb as one line, in case id order, to --out (written to a temporary
file beside it and renamed over it, so a failed export leaves the old file) or to standard
output. The lines are jsonb's text: keys in jsonb order (shorter keys first), ", " and ": "
between them; the byte-exact promise of relate --write holds for files only.

Examples:
   caselink export --out cases.jsonl 'postgres://localhost/incidents?table=cases'
   caselink export 'postgres:///incidents?table=cases' | head -1`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write to `FILE` instead of standard output"},
		},
		Action: func(c *cli.Context) error { return env.exportCases(c) },
	}
}

func (env *env) exportCases(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("export takes one postgres:// URL, got %d argument(s)", c.NArg())
	}
	src, err := pgstore.Parse(c.Args().First())
	if err != nil {
		return err
	}
	out := c.String("out")
	if out == "" || out == "-" {
		_, err := pgstore.Export(ctxOf(c), src, env.stdout)
		return err
	}
	perm := os.FileMode(0o644)
	if st, err := os.Stat(out); err == nil {
		perm = st.Mode().Perm()
	}
	var n int
	err = caselib.WriteFile(out, perm, func(w io.Writer) error {
		var err error
		n, err = pgstore.Export(ctxOf(c), src, w)
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stderr, "exported %d case(s) from %s to %s\n", n, src.Name(), out)
	return nil
}
