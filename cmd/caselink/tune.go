package main

import (
	"bufio"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/tuned"
	"github.com/caselink/caselink/eval"
	"github.com/caselink/caselink/similarity/caselib"
)

func tuneCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "tune",
		Usage: "learn the engine's weights from the links and duplicate decisions curators made",
		Description: `Learns how much the views (symptoms, cause, response, tags), the kinds of tag and the date
prior of relate should weigh in this library, from what its curators wrote: the related lists
of the cases (less the links relate --write added, which relate records in ` + tuned.LinksName + `
beside the library) and the duplicate decisions of dupes (confirmed pairs should come first,
dismissed ones stay out of the top).

It scores a grid of weightings on those lists and cross-validates the choice over --folds folds
made of connected groups of links, so that a group of linked cases is never on both sides. It
prints the held-out gain of the chosen weights over the current ones with its 95% paired
bootstrap interval, and what changes.

--write saves the chosen weights as the [weights] table of ` + tuned.FileName + ` in the library's
folder (a postgres:// library: in the table <table>_caselink beside it; or --config FILE),
keeping the rest of the file as it is, and only when the held-out gain is above zero and no
part of its interval lies below zero. Every command then scores with them (match --explain
says where its weights came from). A library with too few curated links says so and writes
nothing.

Examples:
   caselink tune --cases ./library
   caselink tune --cases ./library --write
   caselink tune --cases 'postgres://db/incidents?table=cases' --write`,
		Flags: []cli.Flag{
			casesFlag, lenientFlag,
			&cli.IntFlag{Name: "folds", Value: 5, Usage: "cross-validate over `N` folds of groups of linked cases"},
			&cli.IntFlag{Name: "k", Value: 10, Usage: "score the top `K` of each list (nDCG@K)"},
			&cli.StringFlag{Name: "decisions", Usage: "the decisions `FILE` (default: " + caselib.DecisionsName + " beside the library)"},
			&cli.BoolFlag{Name: "write", Usage: "save the chosen weights in " + tuned.FileName + " when they hold out"},
		},
		Action: func(c *cli.Context) error { return env.tune(c) },
	}
}

func (env *env) tune(c *cli.Context) error {
	paths := c.StringSlice("cases")
	switch {
	case c.Args().Present():
		return usagef("unexpected arguments %q", c.Args().Slice())
	case len(paths) == 0:
		return usagef("tune learns from your library's curated links: give it with --cases")
	case c.Int("folds") < 2:
		return usagef("--folds must be at least 2")
	case c.Int("k") < 1:
		return usagef("--k must be at least 1")
	}
	target, err := weightsAt(c)
	if err != nil {
		return err
	}
	if c.Bool("write") && target.none() {
		return usagef("--write: the library has no folder to keep %s in; give --config FILE", tuned.FileName)
	}
	base, from, err := engineConfig(c)
	if err != nil {
		return err
	}
	lib, err := env.loadLibrary(c)
	if err != nil {
		return err
	}
	machine := map[tuned.Link]bool{}
	if log, err := linksAt(paths); err == nil { // standard input has no folder, so no links relate wrote
		if machine, err = log.read(c); err != nil {
			return usageError{err}
		}
	}
	var decisions []caselib.Decision
	if store, _, err := decisionStore(c.String("decisions"), paths); err == nil {
		if decisions, err = store.Load(); err != nil {
			return err
		}
	}
	sig := tuned.Curated(lib.Cases, machine, decisions)
	w := bufio.NewWriter(env.stdout)
	defer w.Flush()
	fmt.Fprintf(w, "curated signal: %d link(s) in related lists and decisions (%d written by relate left out",
		sig.Links, sig.Machine)
	if sig.Unknown > 0 {
		fmt.Fprintf(w, ", %d naming no case", sig.Unknown)
	}
	fmt.Fprintf(w, "), %d confirmed duplicate(s), %d dismissed pair(s); %d group(s) of linked cases\n",
		sig.Duplicates, sig.NotDuplicates, sig.Groups)
	fmt.Fprintf(w, "current weights: %s\n", from)
	if err := sig.Enough(c.Int("folds")); err != nil {
		fmt.Fprintf(w, "%v; nothing learned, nothing written\n", err)
		return nil
	}
	w.Flush()
	b := eval.DefaultBootstrap()
	var p *progress
	progress := func(done, total int) {
		if p == nil {
			p = env.newProgressOf("tune: scored", total, "weightings")
		}
		p.update(done)
	}
	res, err := tuned.Tune(lib.Cases, base, sig, tuned.Options{Folds: c.Int("folds"), K: c.Int("k"), Bootstrap: b,
		Progress: progress})
	if p != nil {
		p.done()
	}
	if err != nil {
		return usageError{err}
	}
	var items []string
	for _, t := range []string{"relate", "dupes", "dismissed"} {
		if n := res.Items[t]; n > 0 {
			items = append(items, fmt.Sprintf("%d %s", n, t))
		}
	}
	fmt.Fprintf(w, "scored %d weightings on %s list(s), nDCG@%d; %d-fold cross-validation by group of links\n\n",
		res.Candidates, strings.Join(items, ", "), c.Int("k"), c.Int("folds"))
	if err := eval.WriteCV(w, res.CV, b); err != nil {
		return err
	}
	d := res.CV.Delta
	fmt.Fprintf(w, "\nheld-out gain of tuning over the current weights: %+.4f, 95%% interval [%+.4f, %+.4f] (%d lists)\n",
		d.Mean, d.Lo, d.Hi, d.N)
	changes := tuned.Changes(res.Current, res.Chosen)
	if len(changes) == 0 {
		fmt.Fprintln(w, "chosen on every list: the current weights; nothing to change")
		return nil
	}
	fmt.Fprintf(w, "chosen on every list: %s (gain there %+.4f [%+.4f, %+.4f])\nwhat changes:\n",
		res.ChosenName, res.Train.Mean, res.Train.Lo, res.Train.Hi)
	for _, ch := range changes {
		fmt.Fprintf(w, "  %s\n", ch)
	}
	switch {
	case d.Lo < 0:
		fmt.Fprintf(w, "not written: part of the held-out gain's interval lies below zero, so the change may not hold on new links\n")
		return nil
	case d.Mean <= 0:
		fmt.Fprintf(w, "not written: no gain on the held-out links\n")
		return nil
	}
	if !c.Bool("write") {
		fmt.Fprintf(w, "dry run: run with --write to save them in %s\n", target)
		return nil
	}
	old, err := target.load(c)
	if err != nil {
		return usageError{err}
	}
	out := tuned.Weights{Values: map[string]float64{}}
	for k, v := range old.Values { // keys tune does not learn stay as set
		out.Values[k] = v
	}
	for k, v := range res.Chosen.Values {
		out.Values[k] = v
	}
	out.Note = fmt.Sprintf("caselink tune %s: %d curated links, held-out gain %+.4f [%+.4f, %+.4f]",
		time.Now().UTC().Format(time.DateOnly), sig.Links, d.Mean, d.Lo, d.Hi)
	if err := target.save(c, out); err != nil {
		return failure{err}
	}
	fmt.Fprintf(w, "wrote [%s] to %s\n", tuned.Table, target)
	return nil
}
