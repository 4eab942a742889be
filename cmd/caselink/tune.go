package main

import (
	"bufio"
	"fmt"
	"io"
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
dismissed ones stay out of the top). Verdicts given on match hits (Helpful / Not helpful on
the page, POST /api/feedback, kept in ` + caselib.FeedbackName + ` beside the library) count too: each
paste is a judged match list (a helpful case graded 2, an unhelpful one 0), and with them tune
also chooses the weight of match's second stage (second_stage). A postgres:// library keeps no
feedback.

It scores a grid of weightings on those lists and cross-validates the choice over --folds folds
made of connected groups of links (each paste a group of its own), so that a group of linked
cases or a paste is never on both sides. It
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
	if err := checkTuneFlags(c); err != nil {
		return err
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
	sig, err := curatedSignal(c, lib)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(env.stdout)
	defer w.Flush()
	printSignal(w, sig, from)
	if err := sig.Enough(c.Int("folds")); err != nil {
		fmt.Fprintf(w, "%v; nothing learned, nothing written\n", err)
		return nil
	}
	w.Flush()
	b := eval.DefaultBootstrap()
	update, end := env.tuneProgress()
	res, err := tuned.Tune(lib.Cases, base, sig, tuned.Options{Folds: c.Int("folds"), K: c.Int("k"), Bootstrap: b,
		Progress: update})
	end()
	if err != nil {
		return usageError{err}
	}
	write, err := printTuned(w, c, res, b)
	if err != nil || !write {
		return err
	}
	if !c.Bool("write") {
		fmt.Fprintf(w, "dry run: run with --write to save them in %s\n", target)
		return nil
	}
	if err := saveTuned(c, target, res, sig); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote [%s] to %s\n", tuned.Table, target)
	return nil
}

// checkTuneFlags refuses tune's bad usage before anything is read.
func checkTuneFlags(c *cli.Context) error {
	switch {
	case c.Args().Present():
		return usagef("unexpected arguments %q", c.Args().Slice())
	case len(c.StringSlice("cases")) == 0:
		return usagef("tune learns from your library's curated links: give it with --cases")
	case c.Int("folds") < 2:
		return usagef("--folds must be at least 2")
	case c.Int("k") < 1:
		return usagef("--k must be at least 1")
	}
	return nil
}

// curatedSignal gathers what the library's curators wrote: its related
// lists, less the links relate wrote, and the dupes decisions.
func curatedSignal(c *cli.Context, lib *caselib.Library) (tuned.Signal, error) {
	paths := c.StringSlice("cases")
	machine := map[tuned.Link]bool{}
	if log, err := linksAt(paths); err == nil { // standard input has no folder, so no links relate wrote
		if machine, err = log.read(c); err != nil {
			return tuned.Signal{}, usageError{err}
		}
	}
	var decisions []caselib.Decision
	if store, _, err := decisionStore(c.String("decisions"), paths); err == nil {
		if decisions, err = store.Load(); err != nil {
			return tuned.Signal{}, err
		}
	}
	sig := tuned.Curated(lib.Cases, machine, decisions)
	if p, err := caselib.FeedbackPath(paths); err == nil { // seeds, standard input and tables keep no feedback
		fb, err := caselib.NewFeedbackFile(p).Load()
		if err != nil {
			return tuned.Signal{}, usageError{err}
		}
		sig.AddFeedback(lib.Cases, fb)
	}
	return sig, nil
}

// printSignal says what tune learns from and the weights it starts from.
func printSignal(w io.Writer, sig tuned.Signal, from string) {
	fmt.Fprintf(w, "curated signal: %d link(s) in related lists and decisions (%d written by relate left out",
		sig.Links, sig.Machine)
	if sig.Unknown > 0 {
		fmt.Fprintf(w, ", %d naming no case", sig.Unknown)
	}
	pastes := len(sig.MatchLists()) // each a group of its own
	fmt.Fprintf(w, "), %d confirmed duplicate(s), %d dismissed pair(s); %d group(s) of linked cases\n",
		sig.Duplicates, sig.NotDuplicates, sig.Groups-pastes)
	if sig.Verdicts+sig.FeedbackUnknown > 0 {
		fmt.Fprintf(w, "feedback: %d verdict(s) on match hits used (%d helpful, %d not helpful) on %d paste(s), "+
			"%d of them with a helpful verdict scored as match lists", sig.Verdicts, sig.Helpful,
			sig.Verdicts-sig.Helpful, sig.Judged, pastes)
		if sig.FeedbackUnknown > 0 {
			fmt.Fprintf(w, " (%d naming no case left out)", sig.FeedbackUnknown)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "current weights: %s\n", from)
}

// tuneProgress returns tune's progress callback, which shows on a
// terminal how many weightings tune has scored, and the function that ends
// the line.
func (env *env) tuneProgress() (update func(done, total int), end func()) {
	var p *progress
	update = func(done, total int) {
		if p == nil {
			p = env.newProgressOf("tune: scored", total, "weightings")
		}
		p.update(done)
	}
	end = func() {
		if p != nil {
			p.done()
		}
	}
	return update, end
}

// printTuned prints the cross-validation, the held-out gain and what the
// chosen weights change, and reports whether they may be written: a change
// with a held-out gain whose interval lies above zero.
func printTuned(w io.Writer, c *cli.Context, res tuned.Result, b eval.Bootstrap) (bool, error) {
	var items []string
	for _, t := range []string{"relate", "dupes", "dismissed", "match"} {
		if n := res.Items[t]; n > 0 {
			items = append(items, fmt.Sprintf("%d %s", n, t))
		}
	}
	fmt.Fprintf(w, "scored %d weightings on %s list(s), nDCG@%d; %d-fold cross-validation by group of links and paste\n\n",
		res.Candidates, strings.Join(items, ", "), c.Int("k"), c.Int("folds"))
	if err := eval.WriteCV(w, res.CV, b); err != nil {
		return false, err
	}
	d := res.CV.Delta
	fmt.Fprintf(w, "\nheld-out gain of tuning over the current weights: %+.4f, 95%% interval [%+.4f, %+.4f] (%d lists)\n",
		d.Mean, d.Lo, d.Hi, d.N)
	changes := tuned.Changes(res.Current, res.Chosen)
	if len(changes) == 0 {
		fmt.Fprintln(w, "chosen on every list: the current weights; nothing to change")
		return false, nil
	}
	fmt.Fprintf(w, "chosen on every list: %s (gain there %+.4f [%+.4f, %+.4f])\nwhat changes:\n",
		res.ChosenName, res.Train.Mean, res.Train.Lo, res.Train.Hi)
	for _, ch := range changes {
		fmt.Fprintf(w, "  %s\n", ch)
	}
	switch {
	case d.Lo < 0:
		fmt.Fprintf(w, "not written: part of the held-out gain's interval lies below zero, so the change may not hold on new links\n")
		return false, nil
	case d.Mean <= 0:
		fmt.Fprintf(w, "not written: no gain on the held-out links\n")
		return false, nil
	}
	return true, nil
}

// saveTuned writes the chosen weights into target's [weights] table, with
// the keys tune does not learn kept as they were set.
func saveTuned(c *cli.Context, target weightsStore, res tuned.Result, sig tuned.Signal) error {
	old, err := target.load(c)
	if err != nil {
		return usageError{err}
	}
	out := tuned.Weights{Values: map[string]float64{}}
	for k, v := range old.Values {
		out.Values[k] = v
	}
	for k, v := range res.Chosen.Values {
		out.Values[k] = v
	}
	d := res.CV.Delta
	var fb string
	if sig.Verdicts > 0 {
		fb = fmt.Sprintf(", %d feedback verdicts", sig.Verdicts)
	}
	out.Note = fmt.Sprintf("caselink tune %s: %d curated links%s, held-out gain %+.4f [%+.4f, %+.4f]",
		time.Now().UTC().Format(time.DateOnly), sig.Links, fb, d.Mean, d.Lo, d.Hi)
	if err := target.save(c, out); err != nil {
		return failure{err}
	}
	return nil
}
