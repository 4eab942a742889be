package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

func relateCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "relate",
		Usage: "fill every case's related list with its most similar cases",
		Description: fmt.Sprintf(`Computes the most similar cases of every case (the score is their similarity, discounted
by up to a quarter for cases months or years apart; for a record written as a title and a body,
a bug report or a status notice, its title's words also count where the other case has them in
its body). Without --write it is a dry run: it prints,
per case, the links it would add (+), those already there (=) and those it would remove (-,
only with --replace), and ends with "N to add, M to remove". With --write it writes them into
the case files, changing nothing but the "related" values (a postgres:// library: in one
transaction, only the rows that change, skipping rows changed since read). Links already
present are kept unless --replace; running --write twice changes nothing the second time.
--write also records the links it adds in .caselink-relate-links.tsv beside the library (a
postgres:// library: the table <table>_caselink), so that caselink tune never learns from them.

Each link shows its band, set from how often judged links of its score were right (the same
scale as match --like): strong from %.2[1]f (right at least 9 times in 10), possible from %.2[2]f
(about half), weak below.

--symmetric adds the back-link of every link, on top of --top: a case many others link to
can get more than --top links.

--only ID (repeatable) and --new (the cases whose related list is empty) link just those
cases, and add a back-link to each case they are linked to: the step after writing one new
post-mortem, which leaves every other link of the library as it is.

Examples:
   caselink relate --cases ./library
   caselink relate --cases ./library --only IL-0400 --write
   caselink relate --cases ./library --new --write
   caselink relate --cases ./library --write --symmetric
   caselink relate --cases cases.jsonl --json --top 10`, curate.CaseBands.Strong, curate.CaseBands.Possible),
		Flags: []cli.Flag{
			casesFlag, lenientFlag, noCacheFlag,
			&cli.IntFlag{Name: "top", Aliases: []string{"n"}, Value: curate.RelateTop, Usage: "how many related cases per case (--symmetric back-links come on top of it)"},
			&cli.Float64Flag{Name: "min-score", Value: curate.RelateMinScore, Usage: "link only cases scoring at least this (0–1); at the default, 80–90% of links are judged related, in libraries of 4 to 100,000 cases; links just under it, about half"},
			&cli.BoolFlag{Name: "write", Usage: "write the links into the case files"},
			&cli.BoolFlag{Name: "replace", Usage: "replace existing links instead of keeping them (the dry run lists the removals)"},
			&cli.BoolFlag{Name: "symmetric", Usage: "make every link two-way"},
			&cli.StringSliceFlag{Name: "only", Usage: "link only the case `ID` (repeatable), with back-links from the cases it is linked to"},
			&cli.BoolFlag{Name: "new", Usage: "link only the cases whose related list is empty, with back-links"},
			&cli.BoolFlag{Name: "json", Usage: `print {"CASE-ID":[{"id","score","link","band"}…]…}: each case's neighbours, best first, what the run does with each link ("add", "keep", "remove"), and the score's band`},
		},
		Action: func(c *cli.Context) error { return env.relate(c) },
	}
}

type scored struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}

// relateCase is one case of relate's plan.
type relateCase struct {
	ID         string   `json:"id"`
	Related    []string `json:"related"`    // the list it would have
	Add        []string `json:"add"`        // links it gains
	Remove     []string `json:"remove"`     // links it loses (only with --replace)
	Neighbours []scored `json:"neighbours"` // what the search found, with scores (none in a write without --json)

	reorder bool // the same links in another order
}

// relateOutput is relate's plan: the cases it shows and the totals.
type relateOutput struct {
	Cases       []relateCase
	Add, Remove int
	// Reorder counts the lists a write rewrites in another order without
	// adding or removing a link (--replace ranks a hand-ordered list).
	Reorder int
}

// totals says what a run adds, removes and reorders, for the last line.
func (out relateOutput) totals() string {
	s := fmt.Sprintf("%d to add, %d to remove", out.Add, out.Remove)
	if out.Reorder > 0 {
		s += fmt.Sprintf(", %d list(s) to reorder", out.Reorder)
	}
	return s
}

// relateLink is one entry of a case's list in relate --json. The output
// keeps the contract scripts and scorers rely on, case id → [{"id",
// "score"}…] (the neighbours, best first), and says of each entry what the
// run does with it: "add" (a new link), "keep" (already there), or, after
// the neighbours and without a score, "remove" (--replace) and "add" (a
// back-link of --symmetric or --only).
type relateLink struct {
	ID    string   `json:"id"`
	Score *float64 `json:"score,omitempty"`
	Link  string   `json:"link,omitempty"`
	Band  string   `json:"band,omitempty"` // the score's confidence band (curate.CaseBands)
}

// writeJSONLinks prints out as relate --json does: an object of case id →
// its links (caseLinks), ids in order, indented as writeJSON indents. It
// writes one case at a time, so a million cases' links are never held
// twice over as values and as text.
func writeJSONLinks(w io.Writer, out relateOutput) error {
	if len(out.Cases) == 0 {
		return writeJSON(w, map[string][]relateLink{})
	}
	order := make([]int32, len(out.Cases))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(out.Cases[a].ID, out.Cases[b].ID) })
	bw := bufio.NewWriter(w)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ") // the depth of a member of the object
	encode := func(v any) error {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			return err
		}
		bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return nil
	}
	bw.WriteString("{")
	for k, i := range order {
		if k > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n  ")
		rc := out.Cases[i]
		if err := encode(rc.ID); err != nil {
			return err
		}
		bw.WriteString(": ")
		if err := encode(caseLinks(rc)); err != nil {
			return err
		}
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// caseLinks returns the links of one case as relate --json prints them.
func caseLinks(rc relateCase) []relateLink {
	list := []relateLink{}
	listed := map[string]bool{}
	for _, n := range rc.Neighbours {
		score := n.Score
		link := "keep"
		if slices.Contains(rc.Add, n.ID) {
			link = "add"
		} else if !slices.Contains(rc.Related, n.ID) {
			link = "" // found, but not linked (it would need --replace room)
		}
		list = append(list, relateLink{ID: n.ID, Score: &score, Band: curate.CaseBands.Band(score), Link: link})
		listed[n.ID] = true
	}
	for _, id := range rc.Add {
		if !listed[id] {
			list = append(list, relateLink{ID: id, Link: "add"})
		}
	}
	for _, id := range rc.Remove {
		list = append(list, relateLink{ID: id, Link: "remove"})
	}
	return list
}

func (env *env) relate(c *cli.Context) error {
	top, minScore := c.Int("top"), c.Float64("min-score")
	if err := checkRelateFlags(c); err != nil {
		return err
	}
	lib, ix, err := env.relateIndex(c)
	if err != nil {
		return err
	}
	cases := relateCases(lib, ix)
	policy := curate.LinkPolicy{Replace: c.Bool("replace"), Symmetric: c.Bool("symmetric")}
	var found [][]similarity.Hit
	if c.IsSet("only") || c.Bool("new") {
		if policy.Only, err = env.onlyCases(c, ix, cases); err != nil {
			return err
		}
		found = make([][]similarity.Hit, ix.Len())
		for _, d := range policy.Only {
			found[d] = ix.Related(d, top, minScore)
		}
	} else {
		p := env.newProgress("relate", ix.Len())
		found = ix.AllRelated(top, minScore, p.update)
		p.done()
	}
	if c.Bool("write") {
		return env.planAndWrite(c, lib, ix, cases, found, policy)
	}
	plan := curate.ProposeLinks(cases, found, policy)
	out := relateReport(cases, found, plan, true)
	// The report holds what is printed: the hits and the plan are let go,
	// and the collector kept near the live heap while the lines are made,
	// as planAndWrite does (a dry run at a million cases peaked at more than
	// twice a write's memory).
	hint := out.Add == 0
	plan = curate.Plan{}
	if !hint {
		found = nil
	}
	freeMemory()
	defer collectSooner()()
	if c.Bool("json") {
		fmt.Fprintf(env.stderr, "dry run: %s; run with --write to write them\n", out.totals())
		return writeJSONLinks(env.stdout, out)
	}
	if err := env.printLinks(ix, out); err != nil {
		return err
	}
	if hint {
		env.noLinkHint(ix, found, policy, minScore)
	}
	return nil
}

// relateIndex is buildIndex for relate: a library of files is read as a
// stream and indexed as it is read (stream.go), keeping of each case only
// what writing its related list back needs, so that relate never holds the
// library's text beside its index; other libraries are loaded whole.
func (env *env) relateIndex(c *cli.Context) (*caselib.Library, *similarity.Index, error) {
	cfg, from, err := engineConfig(c)
	if err != nil {
		return nil, nil, err
	}
	env.writable = true
	r, notes, ok, err := env.streamIndexed(c, cfg)
	env.writable = false
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return env.buildIndex(c)
	}
	env.weightsFrom = from
	fmt.Fprint(env.stderr, notes)
	return r.lib, r.ix, nil
}

// relateCases returns the cases relate plans from: the library's own, when
// they are those of the index in its order (a library loaded whole, or
// streamed with what writing it needs), else the index's, which reads a
// case from its file when asked.
func relateCases(lib *caselib.Library, ix *similarity.Index) curate.Cases {
	if lib == nil || len(lib.Cases) != ix.Len() {
		return ix
	}
	for i, cs := range lib.Cases {
		if cs.ID != ix.ID(i) {
			return ix
		}
	}
	return curate.CaseList(lib.Cases)
}

// planAndWrite plans the links of relate --write from the hits found and
// writes them. The plan needs the cases' ids and related lists alone, so
// the index and the cases' text are let go first: at a million cases the
// index is most of the memory, and the plan, the writers' maps and the
// collector's headroom on top of them then take its place instead of
// adding to it (a run peaked at nearly three times the search's memory).
func (env *env) planAndWrite(c *cli.Context, lib *caselib.Library, ix *similarity.Index, cases curate.Cases, found [][]similarity.Hit, policy curate.LinkPolicy) error {
	if _, own := cases.(*similarity.Index); !own {
		if ix.HoldsCases() {
			lib.DropText() // both writers need only the cases' ids, lists and places
		}
		ix = nil
		freeMemory()
		// What is left is small, and planning and writing make garbage
		// of about twice their live memory (each spliced line, each line
		// of the record): collecting at half the live memory rather than
		// at all of it keeps the heap near what it holds, for a few more
		// collections of that small heap.
		defer collectSooner()()
	}
	plan := curate.ProposeLinks(cases, found, policy)
	// The neighbours are shown only with --json: without it, the report
	// holds the links alone.
	out := relateReport(cases, found, plan, c.Bool("json"))
	changed := plan.Changed(cases)
	found, plan = nil, curate.Plan{}
	freeMemory()
	return env.writeRelated(c, lib, changed, out)
}

// writeGCPercent is the collector's target (GOGC) while relate --write
// plans and writes, once the index is let go, and while a dry run prints.
const writeGCPercent = 50

// collectSooner sets the collector's target to writeGCPercent, unless it
// is lower already (or off), and returns what restores it.
func collectSooner() (restore func()) {
	old := debug.SetGCPercent(writeGCPercent)
	if old < writeGCPercent {
		debug.SetGCPercent(old)
	}
	return func() { debug.SetGCPercent(old) }
}

// freeMemory collects what the process no longer uses and returns it to
// the system. Two collections: memory that a sync.Pool held (the index's
// scorers) is kept one collection longer.
func freeMemory() {
	runtime.GC()
	debug.FreeOSMemory()
}

// checkRelateFlags refuses bad values and a --write that cannot write,
// before the library is read.
func checkRelateFlags(c *cli.Context) error {
	if err := curate.CheckTop("--top", c.Int("top")); err != nil {
		return usageError{err}
	}
	if err := curate.CheckScore("--min-score", c.Float64("min-score")); err != nil {
		return usageError{err}
	}
	if c.Args().Present() {
		return usagef("unexpected arguments %q (did you mean --only ID?)", c.Args().Slice())
	}
	if c.Bool("write") {
		for _, p := range c.StringSlice("cases") {
			if p == "-" {
				return usagef("--write cannot write cases read from standard input: give the files with --cases")
			}
		}
		if len(c.StringSlice("cases")) == 0 {
			return usagef("--write cannot write the embedded seed cases: give your library with --cases")
		}
	}
	return nil
}

// onlyCases returns the cases --only names and, with --new, those without
// related links, each once, in that order.
func (env *env) onlyCases(c *cli.Context, ix *similarity.Index, cases curate.Cases) ([]int, error) {
	only := []int{}
	for _, id := range c.StringSlice("only") {
		d, ok := ix.Lookup(id)
		if !ok {
			return nil, noSuchCase("--only: ", id, ix.Len(), ix.ID)
		}
		if !slices.Contains(only, d) {
			only = append(only, d)
		}
	}
	if c.Bool("new") {
		fresh := 0
		for d := range ix.Len() {
			if len(cases.Case(d).Related) == 0 {
				fresh++
				if !slices.Contains(only, d) {
					only = append(only, d)
				}
			}
		}
		if fresh == 0 {
			fmt.Fprintln(env.stderr, "caselink: --new: every case already has related links")
		}
	}
	return only, nil
}

// writeRelated writes the changed related lists into the library's files
// (or its table) and reports what it wrote.
func (env *env) writeRelated(c *cli.Context, lib *caselib.Library, changed map[string][]string, out relateOutput) error {
	// Ctrl-C from here on removes the temporary files of every write,
	// the record of relate's links included.
	stop := env.cleanUpOnSignal()
	defer stop()
	if interruptHook != nil {
		interruptHook("write")
	}
	// The links relate adds are recorded first, so that a link in the
	// library is never taken for a curator's (caselink tune).
	log, err := linksAt(c.StringSlice("cases"))
	if err != nil {
		return failure{err}
	}
	added, removed := planLinks(out)
	if err := log.record(c, added, nil); err != nil {
		return failure{err}
	}
	// Once the library is written, the rest is best effort: the exit
	// status says whether the library was written, so a failure to
	// update the record (a connection the server dropped) is a warning.
	afterWrite := func() {
		if err := log.record(c, nil, removed); err != nil {
			fmt.Fprintf(env.stderr, "caselink: warning: the library is written, but the record of the links relate removed is not: %v\n", err)
		}
	}
	if env.table != nil {
		if err := env.writeTableRelated(c, changed, out); err != nil {
			return err
		}
		afterWrite()
		return nil
	}
	files, err := caselib.WriteRelated(lib, changed)
	if err != nil {
		return failure{err}
	}
	afterWrite()
	msg := fmt.Sprintf("updated related of %d case(s) in %d file(s): %d link(s) added, %d removed",
		len(changed), len(files), out.Add, out.Remove)
	if out.Reorder > 0 {
		msg += fmt.Sprintf(", %d list(s) reordered", out.Reorder)
	}
	msg += "\n"
	if !c.Bool("json") {
		fmt.Fprint(env.stdout, msg)
		return nil
	}
	fmt.Fprint(env.stderr, msg)
	return writeJSONLinks(env.stdout, out)
}

// relateReport lists the subject cases and every case whose related list
// the plan changes, in library order; with neighbours, what the search
// found for each.
func relateReport(ix curate.Cases, found [][]similarity.Hit, plan curate.Plan, neighbours bool) relateOutput {
	out := relateOutput{Cases: []relateCase{}}
	for d, next := range plan.Next {
		cs := ix.Case(d)
		add, remove := curate.Diff(cs.Related, next)
		reorder := len(add) == 0 && len(remove) == 0 && next != nil && !slices.Equal(cs.Related, next)
		if !plan.Subject[d] && len(add) == 0 && len(remove) == 0 && !reorder {
			continue
		}
		if reorder {
			out.Reorder++
		}
		rc := relateCase{ID: cs.ID, Related: nonNil(next), Add: nonNil(add), Remove: nonNil(remove), Neighbours: []scored{}}
		rc.reorder = reorder
		if neighbours {
			rc.Neighbours = make([]scored, 0, len(found[d]))
			for _, h := range found[d] {
				rc.Neighbours = append(rc.Neighbours, scored{h.ID, similarity.RoundScore(h.Score)})
			}
		}
		out.Cases = append(out.Cases, rc)
		out.Add += len(add)
		out.Remove += len(remove)
	}
	return out
}

// planLinks returns the links a plan adds and removes, by case id.
func planLinks(out relateOutput) (added, removed map[string][]string) {
	added, removed = map[string][]string{}, map[string][]string{}
	for _, rc := range out.Cases {
		if len(rc.Add) > 0 {
			added[rc.ID] = rc.Add
		}
		if len(rc.Remove) > 0 {
			removed[rc.ID] = rc.Remove
		}
	}
	return added, removed
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// noLinkHint tells, when the search found no link at all, what the best
// pair scored, so that a user of a small library sees why relate proposes
// nothing and what --min-score would show it.
func (env *env) noLinkHint(ix *similarity.Index, found [][]similarity.Hit, p curate.LinkPolicy, minScore float64) {
	for _, hits := range found {
		if len(hits) > 0 {
			return
		}
	}
	subjects := p.Only
	if subjects == nil {
		subjects = make([]int, ix.Len())
		for d := range subjects {
			subjects[d] = d
		}
	}
	best, a, b := 0.0, "", ""
	for _, d := range subjects {
		if h := ix.Related(d, 1, 0); len(h) > 0 && (h[0].Score > best || a == "") {
			best, a, b = h[0].Score, ix.Case(d).ID, h[0].ID
		}
	}
	if a == "" {
		return
	}
	fmt.Fprintf(env.stderr, "caselink: no pair scores --min-score %.2f or more; the best, %s ~ %s, scores %.2f "+
		"(give --min-score %.2f to see it; links under the default are right about half the time)\n",
		minScore, a, b, best, math.Floor(best*100)/100)
}

func (env *env) printLinks(ix *similarity.Index, out relateOutput) error {
	w := bufio.NewWriter(env.stdout)
	col := color(env.stdout)
	width := width(env.stdout)
	// score of a link either way, from whichever side found it: from's
	// own neighbour score, else id's of from. Looked up in the two cases'
	// lists rather than kept in a map of every pair both ways, which at a
	// million cases held gigabytes.
	pos := make(map[string]int, len(out.Cases))
	for i, rc := range out.Cases {
		pos[rc.ID] = i
	}
	found := func(of, id string) (float64, bool) {
		if i, ok := pos[of]; ok {
			for _, s := range out.Cases[i].Neighbours {
				if s.ID == id {
					return s.Score, true
				}
			}
		}
		return 0, false
	}
	score := func(from, id string) (float64, bool) {
		if v, ok := found(from, id); ok {
			return v, true
		}
		return found(id, from)
	}
	line := func(mark, from, id string) {
		title := "(no such case: caselink check lists such links)"
		if o, ok := ix.Lookup(id); ok {
			title = ix.Case(o).Title.EN
		}
		s := "    "
		if v, ok := score(from, id); ok {
			s = fmt.Sprintf("%.2f  %-8s", v, curate.CaseBands.Band(v))
		}
		head := fmt.Sprintf("  %s %s  %s", mark, id, s)
		fmt.Fprintf(w, "%s  %s\n", head, cut(title, width-len([]rune(head))-2))
	}
	for _, rc := range out.Cases {
		d, _ := ix.Lookup(rc.ID)
		cs := ix.Case(d)
		fmt.Fprintf(w, "%s  %s\n", bold(cs.ID, col), cut(cs.Title.EN, width-len(cs.ID)-2))
		if len(rc.Related) == 0 && len(rc.Remove) == 0 {
			fmt.Fprintln(w, "  (no related case above the minimum score)")
		}
		for _, id := range rc.Related {
			mark := "="
			if slices.Contains(rc.Add, id) {
				mark = "+"
			}
			line(mark, rc.ID, id)
		}
		for _, id := range rc.Remove {
			line("-", rc.ID, id)
		}
		if rc.reorder {
			fmt.Fprintln(w, "  (the same links, reordered best first)")
		}
	}
	fmt.Fprintf(w, "\ndry run: %s; run with --write to write them\n", out.totals())
	return w.Flush()
}
