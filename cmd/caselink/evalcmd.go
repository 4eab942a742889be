package main

import (
	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/eval"
	"github.com/caselink/caselink/similarity"
)

func evalCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "eval",
		Usage: "measure match and relate quality on judged sets",
		Description: `Runs match on judged queries and relate on judged pairs and prints nDCG@k, MRR, P@1,
P@1 of the best case, Recall@5 and MAP (the formats are in eval/README.md). --grid runs
the same with each engine option changed in turn and prints the runs ranked, so you can
tune caselink on your own judgments.

Examples:
   caselink eval --queries eval/testdata/seeds/queries.jsonl --related eval/testdata/seeds/related.tsv
   caselink eval --cases ./library --queries my-queries.jsonl --grid`,
		Flags: []cli.Flag{
			casesFlag, lenientFlag,
			&cli.StringFlag{Name: "queries", Usage: "judged queries, JSON Lines `FILE`"},
			&cli.StringFlag{Name: "related", Usage: "judged related pairs, TSV `FILE`"},
			&cli.IntFlag{Name: "k", Value: 10, Usage: "rank depth of the measures"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.BoolFlag{Name: "grid", Usage: "run the ablation grid and rank its runs"},
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
	if c.Bool("grid") {
		if rows, err = eval.RunGrid(lib.Cases, eval.Grid(), qs, rel, c.Int("k")); err != nil {
			return err
		}
	} else {
		ix, err := similarity.BuildCases(lib.Cases, similarity.DefaultConfig())
		if err != nil {
			return usageError{err}
		}
		if err := eval.CheckSet(ix, qs, rel); err != nil {
			return usageError{err}
		}
		row, _ := eval.Run(ix, qs, rel, c.Int("k"))
		row.Name = "caselink"
		rows = []eval.Row{row}
	}
	if c.Bool("json") {
		return eval.WriteJSON(env.stdout, rows)
	}
	return eval.WriteTable(env.stdout, rows)
}
