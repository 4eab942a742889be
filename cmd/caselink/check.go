package main

import (
	"bufio"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
)

func checkCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "list related links that point nowhere, to the case itself, or twice to one case",
		Description: `Loads the library (which checks every case) and lists, one line each, the related links
that name no case of the library, that link a case to itself, or that repeat an earlier
link of the same case. Exits 1 when there is any, 0 when the library is clean.

Example:
   caselink check --cases ./library`,
		Flags:  []cli.Flag{casesFlag, lenientFlag},
		Action: func(c *cli.Context) error { return env.check(c) },
	}
}

func (env *env) check(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("unexpected arguments %q: check takes only flags", c.Args().Slice())
	}
	lib, err := env.loadLibrary(c)
	if err != nil {
		return err
	}
	probs := curate.CheckLinks(lib.Cases, lib.ByID)
	w := bufio.NewWriter(env.stdout)
	for _, p := range probs {
		fmt.Fprintln(w, p.Message())
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if len(probs) > 0 {
		return failure{fmt.Errorf("%d problem(s) in related links of %d case(s)", len(probs), lib.Len())}
	}
	fmt.Fprintf(env.stdout, "%d case(s), no problem in related links\n", lib.Len())
	return nil
}

// warnLinks warns, in one line, about related links that CheckLinks would
// list.
func (e *env) warnLinks(probs []curate.LinkProblem) {
	if w := curate.LinkWarning(probs); w != "" {
		e.warnf("caselink: warning: %s\n", w)
	}
}
