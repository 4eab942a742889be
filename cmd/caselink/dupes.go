package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/caselib/pgstore"
)

func dupesCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "dupes",
		Usage: "list pairs of cases that are probably the same incident, and record what you decide",
		Description: `Lists pairs of cases whose dupes score is at least --threshold, most probable first, with
the evidence. The dupes score joins the pair's text similarity (discounted as their dates grow
apart: two reports of one incident are written close together) with same-event evidence: the
same organisation, dates days apart, the shorter text inside the longer one (a status notice
inside a post-mortem), rare terms and a source both cite.

Decisions are kept in ` + caselib.DecisionsName + ` in the library's folder (or --decisions FILE),
a TSV file meant to be committed with the library:
   --dismiss A --dismiss B   not duplicates: the pair is not shown again
   --confirm A --confirm B   confirmed duplicates: the pair is marked
   --undo A --undo B         forget the decision about the pair

Examples:
   caselink dupes --cases ./library --limit 20
   caselink dupes --cases ./library --limit 20 --offset 20 --pending
   caselink dupes --cases ./library --dismiss IL-0100 --dismiss IL-0194`,
		Flags: []cli.Flag{
			casesFlag, lenientFlag,
			&cli.Float64Flag{Name: "threshold", Value: curate.DupesThreshold, Usage: "list pairs scoring at least this (0–1)"},
			&cli.IntFlag{Name: "limit", Usage: "list at most `N` pairs (0: all)"},
			&cli.IntFlag{Name: "offset", Usage: "skip the first `M` pairs of the list"},
			&cli.BoolFlag{Name: "pending", Usage: "list only pairs without a decision (confirmed ones are listed, marked, otherwise)"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.StringSliceFlag{Name: "dismiss", Usage: "record that the two case ids `A B` are not duplicates (--dismiss A --dismiss B)"},
			&cli.StringSliceFlag{Name: "confirm", Usage: "record that the two case ids `A B` are duplicates (--confirm A --confirm B)"},
			&cli.StringSliceFlag{Name: "undo", Usage: "forget the decision about the two case ids `A B` (--undo A --undo B)"},
			&cli.StringFlag{Name: "decisions", Usage: "the decisions `FILE` (default: " + caselib.DecisionsName + " beside the library)"},
		},
		Action: func(c *cli.Context) error { return env.dupes(c) },
	}
}

type dupeCase struct {
	ID    string `json:"id"`
	Date  string `json:"date,omitempty"`
	Org   string `json:"org,omitempty"`
	Title string `json:"title,omitempty"`
}

type dupePair struct {
	A     dupeCase `json:"a"`
	B     dupeCase `json:"b"`
	Score float64  `json:"score"`
	// Similarity is the pair's case-to-case similarity, before the date
	// prior and the same-event evidence of dupes.
	Similarity float64 `json:"similarity"`
	// Event is the same-event part of the score (0 when there is no such
	// evidence).
	Event float64 `json:"event"`
	// Verdict is "duplicate" for a confirmed pair, absent when undecided.
	Verdict  string   `json:"verdict,omitempty"`
	Evidence []string `json:"evidence"`
}

// dupesAction is the decision a dupes command line asks to record, if any.
type dupesAction struct {
	flag    string
	verdict caselib.Verdict
	ids     []string
}

// decision returns the decision flag given (--dismiss, --confirm or
// --undo, with its two ids), nil when none is.
func decision(c *cli.Context) (*dupesAction, error) {
	var act *dupesAction
	for _, f := range []struct {
		name string
		v    caselib.Verdict
	}{{"dismiss", caselib.NotDuplicate}, {"confirm", caselib.Duplicate}, {"undo", ""}} {
		ids := c.StringSlice(f.name)
		if len(ids) == 0 {
			continue
		}
		if act != nil {
			return nil, usagef("give one of --dismiss, --confirm and --undo at a time, not --%s and --%s", act.flag, f.name)
		}
		act = &dupesAction{flag: f.name, verdict: f.v, ids: ids}
	}
	args := c.Args().Slice()
	if act == nil {
		if len(args) > 0 {
			return nil, usagef("unexpected arguments %q (did you mean --dismiss A --dismiss B?)", args)
		}
		return nil, nil
	}
	act.ids = append(act.ids, args...) // --dismiss A B
	if len(act.ids) != 2 {
		return nil, usagef("--%s takes two case ids, got %d", act.flag, len(act.ids))
	}
	if act.ids[0] == act.ids[1] {
		return nil, usagef("--%s needs two different case ids", act.flag)
	}
	return act, nil
}

func (env *env) dupes(c *cli.Context) error {
	act, err := decision(c)
	if err != nil {
		return err
	}
	q := curate.DupesQuery{Threshold: c.Float64("threshold"), Pending: c.Bool("pending"),
		Offset: c.Int("offset"), Limit: c.Int("limit")}
	if err := curate.CheckDupesQuery(q); err != nil {
		return usagef("--%v", err)
	}
	_, ix, err := env.buildIndex(c)
	if err != nil {
		return err
	}
	store, where, err := decisionStore(c.String("decisions"), c.StringSlice("cases"))
	if err != nil && act != nil {
		return usagef("%v (--decisions FILE)", err)
	}
	if act != nil {
		for _, id := range act.ids {
			if _, ok := ix.Lookup(id); !ok {
				return usagef("no case with id %q in the library", id)
			}
		}
		a, b := act.ids[0], act.ids[1]
		if err := store.Record(caselib.Decision{A: a, B: b, Verdict: act.verdict}); err != nil {
			return err
		}
		done := map[string]string{"dismiss": "dismissed", "confirm": "confirmed", "undo": "undid the decision about"}[act.flag]
		fmt.Fprintf(env.stdout, "%s %s %s (recorded in %s)\n", done, a, b, where)
		return nil
	}
	var decisions []caselib.Decision
	if store != nil {
		if decisions, err = store.Load(); err != nil {
			return usageError{err}
		}
	}
	p := env.newProgress("dupes", ix.Len())
	page := curate.ListDupes(ix, decisions, q, p.update)
	p.done()
	out := make([]dupePair, 0, len(page.Pairs))
	for _, pr := range page.Pairs {
		out = append(out, newDupePair(ix, pr))
	}
	if c.Bool("json") {
		return writeJSON(env.stdout, out)
	}
	return env.printDupes(out, q, page.Total)
}

// newDupePair is the printed form of a listed pair: its cases, scores and
// evidence (the same-event evidence first, then the terms the two share).
func newDupePair(ix *similarity.Index, pr curate.DupePair) dupePair {
	a, b := ix.Case(pr.A), ix.Case(pr.B)
	ev := append(pr.Event.Why(), ix.ExplainPair(pr.A, pr.B).Why(8)...)
	if ev == nil {
		ev = []string{}
	}
	return dupePair{
		A:     dupeCase{a.ID, a.Date, a.Org, a.Title.EN},
		B:     dupeCase{b.ID, b.Date, b.Org, b.Title.EN},
		Score: similarity.RoundScore(pr.Score), Similarity: similarity.RoundScore(pr.Similarity), Event: similarity.RoundScore(pr.Event.Score),
		Verdict: string(pr.Verdict), Evidence: ev,
	}
}

func (env *env) printDupes(pairs []dupePair, q curate.DupesQuery, total int) error {
	w := bufio.NewWriter(env.stdout)
	if total == 0 {
		fmt.Fprintln(w, "no probable duplicates")
		return w.Flush()
	}
	col := color(env.stdout)
	width := width(env.stdout)
	for i, p := range pairs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		head := fmt.Sprintf("%.2f  %s ~ %s", p.Score, p.A.ID, p.B.ID)
		if p.Verdict == string(caselib.Duplicate) {
			head += "  (confirmed duplicate)"
		}
		fmt.Fprintln(w, bold(head, col))
		for _, c := range []dupeCase{p.A, p.B} {
			head := fmt.Sprintf("   %s  %s  %s", c.ID, orDash(c.Date), orDash(c.Org))
			fmt.Fprintf(w, "%s  %s\n", head, cut(c.Title, width-len([]rune(head))-2))
		}
		if len(p.Evidence) > 0 {
			fmt.Fprintf(w, "   shared: %s\n", cut(strings.Join(p.Evidence, ", "), width-11))
		}
	}
	if len(pairs) > 0 {
		fmt.Fprintln(w)
	}
	switch {
	case len(pairs) == total:
		fmt.Fprintf(w, "%d pair(s)", total)
	case len(pairs) == 0:
		fmt.Fprintf(w, "no pair past --offset %d of %d pair(s)", q.Offset, total)
	default:
		fmt.Fprintf(w, "pairs %d–%d of %d", q.Offset+1, q.Offset+len(pairs), total)
		if next := q.Offset + len(pairs); next < total {
			fmt.Fprintf(w, " (next: --offset %d)", next)
		}
	}
	fmt.Fprintln(w, "; decide with: caselink dupes --dismiss A --dismiss B (or --confirm, --undo)")
	return w.Flush()
}

// decisionStore returns where the curator's duplicate decisions are kept,
// and how to name it: the file given (--decisions), else a table beside a
// library kept in PostgreSQL, else the decisions file beside the library.
// The store is nil, with the reason, when the library has no place for
// them (the embedded seeds, standard input).
func decisionStore(file string, library []string) (caselib.DecisionStore, string, error) {
	if file != "" && !isTableLibrary([]string{file}) {
		return caselib.NewDecisionFile(file), file, nil
	}
	if file != "" { // a postgres:// library URL: its decisions table (replicas reading a standby write to the primary)
		library = []string{file}
	}
	if isTableLibrary(library) {
		st, err := pgstore.NewDecisions(library[0])
		if err != nil {
			return nil, "", usageError{err}
		}
		return st, "table " + st.Table(), nil
	}
	path, err := caselib.DecisionsPath(library)
	if err != nil {
		return nil, "", err
	}
	return caselib.NewDecisionFile(path), path, nil
}
