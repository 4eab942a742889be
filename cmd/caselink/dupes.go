package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/caselib/pgstore"
)

func dupesCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "dupes",
		Usage: "list records that are probably the same incident, one cluster per event, and record what you decide",
		Description: `Lists clusters of cases that are probably one incident told more than once, most probable
first: the pairs whose dupes score is at least --threshold (default ` + fmt.Sprint(curate.DupesThreshold) + `), joined into one
cluster per event, its best record (the fullest, most linked) first, with the evidence of its
best pair. The terminal shows ` + fmt.Sprint(curate.DupesLimit) + ` clusters at a time (--limit, then --offset); --json lists
every cluster with all its members and pairs unless --limit is given. Each cluster's score has
its band: strong from ` + fmt.Sprint(curate.DupesBands.Strong) + ` (judged pairs there were one incident about 12 times in 13),
possible from ` + fmt.Sprint(curate.DupesBands.Possible) + ` (about 6 in 10), weak below.

The dupes score joins the pair's text similarity (discounted as their dates grow apart, and halved
for two records of one organisation on different days: a status page's template on another day is
a repeat) with same-event evidence: the same organisation, dates days apart, and words of this
incident both records use (a region, an error code, a product; not the organisation's name nor
what it writes in every notice), or a source both cite (an archived copy is the page it archived;
a post's slug on another host of the organisation is the same post). A write-up and a status
notice of one day, each its site's only record of that day, count as one incident whatever words
they share (a status page posts one notice per incident, often in product names alone), and two
notices of one page on different days are two incidents: their shared words count half. An undated
record whose address carries a date (a blog's /2014/05/27/…), or whose date is a year or a month
alone, was written by that day's end, so it is no record of a later incident; one whose summary
begins with the day its story begins ("On 4 October 2023, …") tells one of the next 90 days; one
that cites an incident's page that dated records cite too tells their days' incident. The default
threshold is where the list was measured to be mostly the same incident:
eval/notes/dupes-threshold.md.

Decisions are kept in ` + caselib.DecisionsName + ` in the library's folder (or --decisions FILE),
a TSV file meant to be committed with the library:
   --dismiss A --dismiss B   not duplicates: the pair is not shown again
   --confirm A --confirm B   confirmed duplicates: the pair is marked
   --undo A --undo B         forget the decision about the pair
   --confirm-cluster A       confirm every pair of the cluster case A is in
   --dismiss-cluster A       dismiss every pair of the cluster case A is in

Examples:
   caselink dupes --cases ./library
   caselink dupes --cases ./library --offset 5 --pending
   caselink dupes --cases ./library --confirm-cluster IL-0100
   caselink dupes --cases ./library --dismiss IL-0100 --dismiss IL-0194`,
		Flags: []cli.Flag{
			casesFlag, lenientFlag, noCacheFlag,
			&cli.Float64Flag{Name: "threshold", Value: curate.DupesThreshold, Usage: "list pairs scoring at least this (0–1)"},
			&cli.IntFlag{Name: "limit", Usage: "list at most `N` clusters (0: all)", DefaultText: fmt.Sprint(curate.DupesLimit) + " in the terminal, all with --json"},
			&cli.IntFlag{Name: "offset", Usage: "skip the first `M` clusters of the list"},
			&cli.BoolFlag{Name: "pending", Usage: "list only pairs without a decision (confirmed ones are listed, marked, otherwise)"},
			&cli.BoolFlag{Name: "json", Usage: `print {"threshold","total","pairs","offset","clusters":[{"n","score","cases":[{"id","date","org","title","text","sources"}…],"pairs":[{"a","b","score","band","similarity","event","verdict","evidence","shared","cluster"}…],"links"}…]}: the clusters, their records best first, their pairs (a and b are records) and the pairs linking them to other clusters; records and pairs as /api/dupes gives them`},
			&cli.StringSliceFlag{Name: "dismiss", Usage: "record that the two case ids `A B` are not duplicates (--dismiss A --dismiss B)"},
			&cli.StringSliceFlag{Name: "confirm", Usage: "record that the two case ids `A B` are duplicates (--confirm A --confirm B)"},
			&cli.StringSliceFlag{Name: "undo", Usage: "forget the decision about the two case ids `A B` (--undo A --undo B)"},
			&cli.StringFlag{Name: "confirm-cluster", Usage: "record that every listed pair of the cluster with case `ID` is a duplicate"},
			&cli.StringFlag{Name: "dismiss-cluster", Usage: "record that no listed pair of the cluster with case `ID` is a duplicate"},
			&cli.StringFlag{Name: "decisions", Usage: "the decisions `FILE` (default: " + caselib.DecisionsName + " beside the library)"},
		},
		Action: func(c *cli.Context) error { return env.dupes(c) },
	}
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
	clusterID, clusterVerdict, err := clusterDecision(c, act != nil)
	if err != nil {
		return err
	}
	q := curate.DupesQuery{Threshold: c.Float64("threshold"), Pending: c.Bool("pending"),
		Offset: c.Int("offset"), Limit: c.Int("limit")}
	if !c.IsSet("limit") && !c.Bool("json") {
		q.Limit = curate.DupesLimit
	}
	if err := curate.CheckDupesQuery(q); err != nil {
		return usagef("--%v", err)
	}
	store, where, err := decisionStore(c.String("decisions"), c.StringSlice("cases"))
	if err != nil && (act != nil || clusterID != "") {
		return usagef("%v (--decisions FILE)", err)
	}
	var decisions []caselib.Decision
	if store != nil && act == nil {
		if decisions, err = store.Load(); err != nil {
			return usageError{err}
		}
	}
	// The library of files is not held: its index is opened or built as
	// match's is (withIndex), and the pairs read each case once, for their
	// same-event evidence; what is printed is read again.
	return env.withIndex(c, func(ix *similarity.Index) (func() error, error) {
		if act != nil {
			for _, id := range act.ids {
				if _, ok := ix.Lookup(id); !ok {
					return nil, noSuchCase("", id, ix.Len(), ix.ID)
				}
			}
			return func() error {
				a, b := act.ids[0], act.ids[1]
				if err := store.Record(caselib.Decision{A: a, B: b, Verdict: act.verdict}); err != nil {
					return err
				}
				done := map[string]string{"dismiss": "dismissed", "confirm": "confirmed", "undo": "undid the decision about"}[act.flag]
				fmt.Fprintf(env.stdout, "%s %s %s (recorded in %s)\n", done, a, b, where)
				return nil
			}, nil
		}
		if clusterID != "" {
			if _, ok := ix.Lookup(clusterID); !ok {
				return nil, noSuchCase("", clusterID, ix.Len(), ix.ID)
			}
		}
		p := env.newProgress("dupes", ix.Len())
		var page curate.ClustersPage
		lq := q
		if clusterID != "" {
			lq = curate.DupesQuery{Threshold: q.Threshold}
		}
		if err := similarity.CatchCaseError(func() { page = curate.ListClusters(ix, decisions, lq, p.update) }); err != nil {
			return nil, err
		}
		p.done()
		if clusterID != "" {
			cl, ok := curate.ClusterOf(ix, page.Clusters, clusterID)
			if !ok {
				return nil, usagef("%s is in no cluster of probable duplicates at --threshold %v", clusterID, q.Threshold)
			}
			return func() error {
				for _, d := range curate.ClusterDecisions(ix, cl, clusterVerdict, "") {
					if err := store.Record(d); err != nil {
						return err
					}
				}
				done := map[caselib.Verdict]string{caselib.Duplicate: "confirmed", caselib.NotDuplicate: "dismissed"}[clusterVerdict]
				fmt.Fprintf(env.stdout, "%s %d pair(s) of the cluster of %s (%d records; recorded in %s)\n", done, len(cl.Pairs), clusterID, len(cl.Cases), where)
				return nil
			}, nil
		}
		for _, cl := range page.Clusters {
			if err := ix.ReadCases(cl.Cases...); err != nil {
				return nil, err
			}
		}
		out := api.DupeClusterList{Threshold: q.Threshold, Total: page.Total, Pairs: page.Pairs, Offset: q.Offset, Clusters: []api.DupeClusterRecords{}}
		if c.Bool("json") {
			return func() error {
				// A case read above may have changed in its file since: it
				// is then an error, after the clusters written before it.
				var werr error
				if err := similarity.CatchCaseError(func() {
					werr = writeDupesJSON(env.stdout, out, len(page.Clusters), func(i int) api.DupeClusterRecords {
						return api.NewDupeClusterRecords(ix, page.Clusters[i], "en")
					})
				}); err != nil {
					return err
				}
				return werr
			}, nil
		}
		if err := similarity.CatchCaseError(func() {
			for _, cl := range page.Clusters {
				out.Clusters = append(out.Clusters, api.NewDupeClusterRecords(ix, cl, "en"))
			}
		}); err != nil {
			return nil, err
		}
		return func() error { return env.printDupes(out) }, nil
	})
}

// writeDupesJSON writes head, with the n clusters that cluster(i) makes
// as its clusters, as writeJSON would write the whole list, but one
// cluster at a time: each cluster holds its records' text and its pairs'
// records again, so in a library of many near copies the whole list, and
// its JSON in one buffer, hold gigabytes that are written once.
func writeDupesJSON(w io.Writer, head api.DupeClusterList, n int, cluster func(i int) api.DupeClusterRecords) error {
	head.Clusters = []api.DupeClusterRecords{}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(head); err != nil {
		return err
	}
	if n == 0 {
		_, err := w.Write(buf.Bytes())
		return err
	}
	// The head ends in `"clusters": []` and the object's close: the
	// clusters go between the brackets, at the depth of an element.
	tail := []byte("[]\n}\n")
	if !bytes.HasSuffix(buf.Bytes(), tail) {
		return fmt.Errorf("dupes: unexpected JSON of the list's head")
	}
	bw := bufio.NewWriter(w)
	bw.Write(bytes.TrimSuffix(buf.Bytes(), tail))
	bw.WriteString("[")
	enc.SetIndent("    ", "  ")
	for i := range n {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    ")
		buf.Reset()
		if err := enc.Encode(cluster(i)); err != nil {
			return err
		}
		bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
	bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}

// clusterDecision returns the case id and verdict of --confirm-cluster or
// --dismiss-cluster, "" when neither is given.
func clusterDecision(c *cli.Context, pairGiven bool) (string, caselib.Verdict, error) {
	conf, dis := c.String("confirm-cluster"), c.String("dismiss-cluster")
	switch {
	case conf != "" && dis != "":
		return "", "", usagef("give one of --confirm-cluster and --dismiss-cluster, not both")
	case (conf != "" || dis != "") && pairGiven:
		return "", "", usagef("give a decision on a pair or on a cluster, not both")
	case conf != "":
		return conf, caselib.Duplicate, nil
	case dis != "":
		return dis, caselib.NotDuplicate, nil
	}
	return "", "", nil
}

// dupesShown is how many records of a cluster the terminal lists; --json
// lists them all.
const dupesShown = 5

func (env *env) printDupes(l api.DupeClusterList) error {
	w := bufio.NewWriter(env.stdout)
	if l.Total == 0 {
		fmt.Fprintln(w, "no probable duplicates")
		return w.Flush()
	}
	col := color(env.stdout)
	width := width(env.stdout)
	for i, cl := range l.Clusters {
		if i > 0 {
			fmt.Fprintln(w)
		}
		ids := make([]string, 0, len(cl.Cases))
		for _, c := range cl.Cases[:min(len(cl.Cases), 3)] {
			ids = append(ids, c.ID)
		}
		head := fmt.Sprintf("%.2f  %-8s  %s", cl.Score, curate.DupesBands.Band(cl.Score), strings.Join(ids, " ~ "))
		if n := len(cl.Cases); n > 3 {
			head += fmt.Sprintf(" ~ %d more", n-3)
		}
		if len(cl.Cases) > 2 {
			head += fmt.Sprintf("  (%d records, %d pairs)", len(cl.Cases), len(cl.Pairs))
		}
		if len(cl.Pairs) > 0 && allConfirmed(cl.Pairs) {
			head += "  (confirmed duplicate)"
		}
		fmt.Fprintln(w, bold(head, col))
		for _, c := range cl.Cases[:min(len(cl.Cases), dupesShown)] {
			head := fmt.Sprintf("   %s  %s  %s", c.ID, orDash(c.Date), orDash(c.Org))
			fmt.Fprintf(w, "%s  %s\n", head, cut(c.Title, width-len([]rune(head))-2))
		}
		if n := len(cl.Cases) - dupesShown; n > 0 {
			fmt.Fprintf(w, "   … %d more record(s) (--json lists them)\n", n)
		}
		if best := cl.Pairs[0]; len(best.Evidence) > 0 {
			lead := "   shared: "
			if len(cl.Cases) > 2 {
				lead = fmt.Sprintf("   %s ~ %s shared: ", best.A.ID, best.B.ID)
			}
			fmt.Fprintf(w, "%s%s\n", lead, cut(strings.Join(best.Evidence, ", "), width-len([]rune(lead))))
		}
		if len(cl.Links) > 0 {
			var ls []string
			for _, p := range cl.Links[:min(len(cl.Links), 3)] {
				ls = append(ls, fmt.Sprintf("%s ~ %s %.2f", p.A.ID, p.B.ID, p.Score))
			}
			if n := len(cl.Links) - 3; n > 0 {
				ls = append(ls, fmt.Sprintf("%d more", n))
			}
			lead := "   linked, not joined (another event or a repeat): "
			fmt.Fprintf(w, "%s%s\n", lead, cut(strings.Join(ls, ", "), width-len([]rune(lead))))
		}
	}
	fmt.Fprintln(w)
	n := len(l.Clusters)
	switch {
	case n == l.Total:
		fmt.Fprintf(w, "%d cluster(s), %d pair(s)", l.Total, l.Pairs)
	case n == 0:
		fmt.Fprintf(w, "no cluster past --offset %d of %d cluster(s)", l.Offset, l.Total)
	default:
		fmt.Fprintf(w, "clusters %d–%d of %d (%d pairs)", l.Offset+1, l.Offset+n, l.Total, l.Pairs)
		if next := l.Offset + n; next < l.Total {
			fmt.Fprintf(w, "; %d more: --offset %d", l.Total-next, next)
		}
	}
	fmt.Fprintln(w, "; decide with: caselink dupes --confirm-cluster ID (or --dismiss-cluster ID, --dismiss A --dismiss B)")
	return w.Flush()
}

// allConfirmed reports whether every pair of a cluster is a confirmed
// duplicate.
func allConfirmed(pairs []api.DupePair) bool {
	for _, p := range pairs {
		if p.Verdict != string(caselib.Duplicate) {
			return false
		}
	}
	return true
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
