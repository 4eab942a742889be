package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/eval"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

func evalCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:      "eval",
		Usage:     "measure match, relate and dupes quality on judged sets",
		ArgsUsage: "[--compare A.json B.json]",
		Description: `Runs match on judged queries and relate and dupes on judged pairs and prints nDCG@k, MRR, P@1,
P@1 of the best case, Recall@5 and MAP (the formats are in eval/README.md), then each
measure with its 95% bootstrap interval over the queries (and per query kind) and subjects.
With judged pairs it also prints the precision and recall of dupes at thresholds 0.1 to 0.9
(the pairs should mean "same incident"); --plot FILE.png draws the dupes scores of judged
duplicates against the other candidate pairs and the precision-recall curve, to pick a
threshold by looking.

--json prints the averages and every query's and subject's own scores. --compare A.json B.json
compares two such files on the queries both have: per measure the mean of A, of B, the
difference B − A and its 95% paired bootstrap interval. --baseline FILE.json does the same
between a saved run and this one.

--grid runs the same with each engine option changed in turn and ranks the variants by the
lower bound of the interval of their gain over the default (the objective: match, relate and
dupes nDCG weighing the same; --objective match,relate picks the tasks). --grid --folds N cross-validates the grid: the judged lists are
put in N folds (by theme with --themes FILE, else each query on its own), the variant that
ranks first on N−1 folds is scored on the fold left out, and the held-out score is shown beside
the default's, so you can tune caselink on your own judgments and see what holds.

Examples:
   caselink eval --queries eval/testdata/seeds/queries.jsonl --related eval/testdata/seeds/related.tsv
   caselink eval --cases ./library --queries q.jsonl --json > before.json
   caselink eval --cases ./library --queries q.jsonl --baseline before.json
   caselink eval --compare before.json after.json
   caselink eval --cases ./library --queries q.jsonl --grid --folds 5 --themes themes.json
   caselink eval --cases bugs.jsonl --related duplicates.tsv --k 20 --plot dupes.png`,
		Flags: []cli.Flag{
			casesFlag, lenientFlag,
			&cli.StringFlag{Name: "queries", Usage: "judged queries, JSON Lines `FILE`"},
			&cli.StringFlag{Name: "related", Usage: "judged related pairs, TSV `FILE`"},
			&cli.StringSliceFlag{Name: "dupes-judged", Usage: "judged pairs of the dupes list, JSON Lines `FILE` (repeatable; a later file's verdict wins): precision by rank band"},
			&cli.Uint64Flag{Name: "typos", Usage: "misspell about a third of the queries' longer words (a letter dropped, swapped or doubled), seeded by `SEED`, to measure typo tolerance against a clean --json run with --baseline"},
			&cli.IntFlag{Name: "k", Value: 10, Usage: "rank depth of the measures"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON, with every query's and subject's own scores"},
			&cli.BoolFlag{Name: "compare", Usage: "compare two saved --json runs given as arguments A.json B.json"},
			&cli.StringFlag{Name: "baseline", Usage: "compare this run with a saved --json run `FILE`"},
			&cli.BoolFlag{Name: "grid", Usage: "run the ablation grid and rank its variants"},
			&cli.IntFlag{Name: "folds", Usage: "with --grid: cross-validate over `N` folds"},
			&cli.StringFlag{Name: "themes", Usage: "with --folds: themes.json `FILE` that groups the cases into folds"},
			&cli.StringFlag{Name: "objective", Usage: "with --grid: the `TASKS` whose nDCG the grid is ranked by, comma-separated (match,relate,dupes); default every task the run has"},
			&cli.StringFlag{Name: "plot", Usage: "draw the dupes score distributions and precision-recall curve into `FILE.png` (needs --related)"},
			&cli.Float64Flag{Name: "threshold", Value: curate.DupesThreshold, Usage: "the dupes threshold the plot marks"},
		},
		Action: func(c *cli.Context) error { return env.eval(c) },
	}
}

func (env *env) eval(c *cli.Context) error {
	b := eval.DefaultBootstrap()
	if c.Bool("compare") {
		return env.evalCompare(c, b)
	}
	if err := checkEvalFlags(c); err != nil {
		return err
	}
	in, err := readEvalInputs(c)
	if err != nil {
		return err
	}
	lib, err := env.loadLibrary(c)
	if err != nil {
		return err
	}
	if in.judged != nil && len(in.qs) == 0 && len(in.rel) == 0 {
		return env.evalDupesJudged(c, lib.Cases, in.judged)
	}
	if c.Bool("grid") {
		return env.evalGrid(c, b, lib.Cases, in.qs, in.rel, in.themes)
	}
	cfg, _, err := engineConfig(c)
	if err != nil {
		return err
	}
	ix, err := similarity.BuildCases(lib.Cases, cfg)
	if err != nil {
		return usageError{err}
	}
	if err := eval.CheckSet(ix, in.qs, in.rel); err != nil {
		return usageError{err}
	}
	row, _ := eval.Run(ix, in.qs, in.rel, c.Int("k"))
	row.Name = "caselink"
	var curve *eval.DupesCurve
	if len(in.rel) > 0 {
		dc := eval.MeasureDupes(ix, in.rel, c.Int("k"))
		curve, row.DupesPR = &dc, dc.Table
	}
	if in.base != nil {
		cs := eval.Compare(in.base[0], row, b)
		if len(cs) == 0 {
			return usagef("%s shares no judged query or subject with this run", c.String("baseline"))
		}
		return eval.WriteComparison(env.stdout, in.base[0].Name+" ("+c.String("baseline")+")", "this run", cs, b)
	}
	if plotPath := c.String("plot"); plotPath != "" {
		if err := plotDupes(plotPath, *curve, c.Float64("threshold")); err != nil {
			return fmt.Errorf("--plot %s: %w", plotPath, err)
		}
	}
	return env.writeEvalRun(c, b, row, curve)
}

// checkEvalFlags refuses combinations of eval's flags that make no sense,
// before any file is read.
func checkEvalFlags(c *cli.Context) error {
	switch {
	case c.Args().Len() > 0:
		return usagef("unexpected arguments %q (did you mean --compare A.json B.json?)", c.Args().Slice())
	case c.String("queries") == "" && c.String("related") == "" && len(c.StringSlice("dupes-judged")) == 0:
		return usagef("give --queries FILE, --related FILE, --dupes-judged FILE or more than one")
	case len(c.StringSlice("dupes-judged")) > 0 && (c.Bool("grid") || c.String("baseline") != ""):
		return usagef("--dupes-judged measures one run: leave out --grid and --baseline")
	case c.Int("k") < 1:
		return usagef("--k must be at least 1")
	case c.IsSet("folds") && !c.Bool("grid"):
		return usagef("--folds cross-validates the grid: add --grid")
	case c.IsSet("folds") && c.Int("folds") < 2:
		return usagef("--folds must be at least 2")
	case c.String("themes") != "" && !c.IsSet("folds"):
		return usagef("--themes groups the folds of --folds N: add --grid --folds N")
	case c.String("objective") != "" && !c.Bool("grid"):
		return usagef("--objective chooses what --grid ranks by: add --grid")
	case c.IsSet("typos") && c.String("queries") == "":
		return usagef("--typos misspells judged queries: give --queries FILE")
	case c.String("baseline") != "" && c.Bool("grid"):
		return usagef("--baseline compares one run: drop --grid")
	}
	plotPath := c.String("plot")
	switch {
	case plotPath != "" && c.String("related") == "":
		return usagef("--plot needs judged pairs: give --related FILE")
	case plotPath != "" && c.Bool("grid"):
		return usagef("--plot draws one run: leave out --grid")
	case plotPath != "" && !strings.HasSuffix(strings.ToLower(plotPath), ".png"):
		return usagef("--plot %q: the plot is a PNG, name it FILE.png", plotPath)
	}
	return nil
}

// evalInputs are the judged sets and the saved run eval's flags name.
type evalInputs struct {
	qs     []eval.Query
	rel    eval.Judgments
	themes eval.Themes
	base   []eval.Row
	judged eval.JudgedPairs
}

// readEvalInputs reads the files of --queries, --related, --themes and
// --baseline that are given.
func readEvalInputs(c *cli.Context) (in evalInputs, err error) {
	if f := c.String("queries"); f != "" {
		if in.qs, err = eval.ReadQueries(f); err != nil {
			return in, usageError{err}
		}
		if c.IsSet("typos") {
			in.qs = eval.Misspell(in.qs, c.Uint64("typos"))
		}
	}
	if f := c.String("related"); f != "" {
		if in.rel, err = eval.ReadPairs(f); err != nil {
			return in, usageError{err}
		}
	}
	if fs := c.StringSlice("dupes-judged"); len(fs) > 0 {
		if in.judged, err = eval.ReadJudgedPairs(fs...); err != nil {
			return in, usageError{err}
		}
	}
	if f := c.String("themes"); f != "" {
		if in.themes, err = eval.ReadThemes(f); err != nil {
			return in, usageError{err}
		}
	}
	if f := c.String("baseline"); f != "" {
		if in.base, err = readOneRun(f); err != nil {
			return in, err
		}
	}
	return in, nil
}

// writeEvalRun prints one run: JSON, or the table, the intervals and the
// dupes thresholds.
func (env *env) writeEvalRun(c *cli.Context, b eval.Bootstrap, row eval.Row, curve *eval.DupesCurve) error {
	if c.Bool("json") {
		return eval.WriteJSON(env.stdout, []eval.Row{row})
	}
	if err := eval.WriteTable(env.stdout, []eval.Row{row}); err != nil {
		return err
	}
	fmt.Fprintln(env.stdout)
	if err := eval.WriteIntervals(env.stdout, eval.Intervals(row, b), b); err != nil || curve == nil {
		return err
	}
	fmt.Fprintln(env.stdout)
	return eval.WriteDupesTable(env.stdout, *curve)
}

// evalDupesJudged prints the precision of the dupes list by rank band on
// judged pairs.
func (env *env) evalDupesJudged(c *cli.Context, cases []*caselib.Case, judged eval.JudgedPairs) error {
	ix, err := similarity.BuildCases(cases, similarity.DefaultConfig())
	if err != nil {
		return usageError{err}
	}
	bands := eval.DupesPrecision(ix, ix.Duplicates(0, curate.DupesPerCase, nil), judged, eval.DupesBands)
	if c.Bool("json") {
		return writeJSON(env.stdout, struct {
			Bands []eval.BandPrecision `json:"dupes_precision"`
		}{bands})
	}
	return eval.WriteDupesPrecision(env.stdout, bands)
}

// evalGrid runs every variant of the grid, ranks them by the lower bound of
// their gain over the default and, with --folds, cross-validates the choice.
func (env *env) evalGrid(c *cli.Context, b eval.Bootstrap, cases []*caselib.Case, qs []eval.Query, rel eval.Judgments, themes eval.Themes) error {
	rows, err := eval.RunVariants(cases, eval.Grid(), qs, rel, c.Int("k"))
	if err != nil {
		return usageError{err}
	}
	m, err := eval.NewMatrix(rows, qs, themes)
	if err != nil {
		return err
	}
	if o := c.String("objective"); o != "" {
		if m, err = m.Only(strings.Split(o, ",")...); err != nil {
			return usagef("--objective %s: %v", o, err)
		}
	}
	ranked, err := m.Rank(b)
	if err != nil {
		return err
	}
	var cv eval.CV
	if c.IsSet("folds") {
		if cv, err = eval.CrossValidate(m, c.Int("folds"), b); err != nil {
			return usageError{err}
		}
	}
	if c.Bool("json") {
		out := struct {
			Ranked []eval.Ranked `json:"ranked"`
			CV     *eval.CV      `json:"cv,omitempty"`
		}{Ranked: ranked}
		if c.IsSet("folds") {
			out.CV = &cv
		}
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if err := eval.WriteRanked(env.stdout, ranked, b); err != nil {
		return err
	}
	if !c.IsSet("folds") {
		return nil
	}
	groups := 0
	for _, f := range cv.Folds {
		groups += len(f.Groups)
	}
	fmt.Fprintf(env.stdout, "\n%d-fold cross-validation, %d groups of lists\n", len(cv.Folds), groups)
	return eval.WriteCV(env.stdout, cv, b)
}

// evalCompare compares two saved runs given as arguments.
func (env *env) evalCompare(c *cli.Context, b eval.Bootstrap) error {
	if c.Args().Len() != 2 {
		return usagef("--compare takes two files, A.json B.json (written by caselink eval --json); got %d", c.Args().Len())
	}
	if c.Bool("grid") || c.String("baseline") != "" || c.String("queries") != "" || c.String("related") != "" {
		return usagef("--compare reads two saved runs: drop --grid, --baseline, --queries and --related")
	}
	fa, fb := c.Args().Get(0), c.Args().Get(1)
	a, err := readOneRun(fa)
	if err != nil {
		return err
	}
	bb, err := readOneRun(fb)
	if err != nil {
		return err
	}
	cs := eval.Compare(a[0], bb[0], b)
	if len(cs) == 0 {
		return usagef("%s and %s share no judged query or subject", fa, fb)
	}
	if c.Bool("json") {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(cs)
	}
	return eval.WriteComparison(env.stdout, fa, fb, cs, b)
}

// readOneRun reads a file written by caselink eval --json that holds one
// run.
func readOneRun(path string) ([]eval.Row, error) {
	rows, err := eval.ReadRows(path)
	if err != nil {
		return nil, usageError{err}
	}
	if len(rows) != 1 {
		return nil, usagef("%s holds %d runs; compare files of one run each (caselink eval --json, without --grid)", path, len(rows))
	}
	return rows, nil
}
