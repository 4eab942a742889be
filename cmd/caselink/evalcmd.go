package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/eval"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/curate"
)

func evalCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "eval",
		Usage: "measure match, relate and dupes quality on judged sets",
		Description: `Runs match on judged queries and relate and dupes on judged pairs and prints nDCG@k, MRR,
P@1, P@1 of the best case, Recall@5 and MAP (the formats are in eval/README.md). With judged
pairs it also prints the precision and recall of dupes at thresholds 0.1 to 0.9 (the pairs
should mean "same incident"); --plot FILE.png draws the dupes scores of judged duplicates
against the other candidate pairs and the precision-recall curve, to pick a threshold by
looking. --grid runs the same with each engine option changed in turn and prints the runs
ranked, so you can tune caselink on your own judgments.

Examples:
   caselink eval --queries eval/testdata/seeds/queries.jsonl --related eval/testdata/seeds/related.tsv
   caselink eval --cases bugs.jsonl --related duplicates.tsv --k 20 --plot dupes.png
   caselink eval --cases ./library --queries my-queries.jsonl --grid`,
		Flags: []cli.Flag{
			casesFlag, lenientFlag,
			&cli.StringFlag{Name: "queries", Usage: "judged queries, JSON Lines `FILE`"},
			&cli.StringFlag{Name: "related", Usage: "judged related pairs, TSV `FILE`"},
			&cli.IntFlag{Name: "k", Value: 10, Usage: "rank depth of the measures"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.BoolFlag{Name: "grid", Usage: "run the ablation grid and rank its runs"},
			&cli.StringFlag{Name: "plot", Usage: "draw the dupes score distributions and precision-recall curve into `FILE.png` (needs --related)"},
			&cli.Float64Flag{Name: "threshold", Value: curate.DupesThreshold, Usage: "the dupes threshold the plot marks"},
		},
		Action: func(c *cli.Context) error { return env.eval(c) },
	}
}

func (env *env) eval(c *cli.Context) error {
	if c.String("queries") == "" && c.String("related") == "" {
		return usagef("give --queries FILE, --related FILE or both")
	}
	if c.Int("k") < 1 {
		return usagef("--k must be at least 1")
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
	var qs []eval.Query
	var rel eval.Judgments
	var err error
	if f := c.String("queries"); f != "" {
		if qs, err = eval.ReadQueries(f); err != nil {
			return usageError{err}
		}
	}
	if f := c.String("related"); f != "" {
		if rel, err = eval.ReadPairs(f); err != nil {
			return usageError{err}
		}
	}
	lib, err := env.loadLibrary(c)
	if err != nil {
		return err
	}
	var rows []eval.Row
	var curve *eval.DupesCurve
	if c.Bool("grid") {
		if rows, err = eval.RunGrid(lib.Cases, eval.Grid(), qs, rel, c.Int("k")); err != nil {
			return err
		}
	} else {
		ix, err := similarity.Build(lib.Cases, similarity.DefaultConfig())
		if err != nil {
			return usageError{err}
		}
		if err := eval.CheckSet(ix, qs, rel); err != nil {
			return usageError{err}
		}
		row, _ := eval.Run(ix, qs, rel, c.Int("k"))
		row.Name = "caselink"
		if len(rel) > 0 {
			dc := eval.MeasureDupes(ix, rel, c.Int("k"))
			curve, row.DupesPR = &dc, dc.Table
		}
		rows = []eval.Row{row}
	}
	if plotPath != "" {
		if err := plotDupes(plotPath, *curve, c.Float64("threshold")); err != nil {
			return fmt.Errorf("--plot %s: %w", plotPath, err)
		}
	}
	if c.Bool("json") {
		return eval.WriteJSON(env.stdout, rows)
	}
	if err := eval.WriteTable(env.stdout, rows); err != nil || curve == nil {
		return err
	}
	fmt.Fprintln(env.stdout)
	return eval.WriteDupesTable(env.stdout, *curve)
}
