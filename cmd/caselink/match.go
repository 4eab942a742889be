package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/par"
)

func matchCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:      "match",
		Usage:     "find the past cases most like what you see now",
		ArgsUsage: "[TEXT…]  (no TEXT or - reads standard input)",
		Description: fmt.Sprintf(`Paste alert lines, error messages or a Slack message; caselink prints the most similar
past cases with a score (0–1: the share of the paste a case holds, BM25-style) and why they
matched, in the case's own words with yours beside them ("postgres (from PostgresWriteErrors)");
a misspelt word is read as the library's word nearest to it ("primry→primary"). A case lifted by
its likeness to the best hit says how much of its score came from that; cases under --min-score
are counted at the end, with how to see them.

Each hit has a band, set from how often hits of its score were right on judged pastes:
   strong    right at least 9 times in 10 (a paste's score from %.2[1]f; --like's, from %.2[3]f)
   possible  right about half the time (from %.2[2]f; --like's, from %.2[4]f)
   weak      shares words, seldom more
When no hit reaches possible, match says "nothing like this here: a new kind of incident?"
instead of listing weak hits (--weak or a --min-score lists them). "N more" counts every case
the paste shares a word with. An --org the library does not write is read by its other names
(Amazon Web Services, AWS, Amazon), or answered with the nearest of its organisations; a
--domain no case has, with the tags it has.

Examples:
   caselink match "pods OOMKilled after rollout, only new pods get traffic"
   pbpaste | caselink match --cases ./library --top 3
   caselink match --cases ./library --like IL-0191 --long   (more like this case)
   caselink match --cases cases.jsonl --queries alerts.jsonl --json   (batch: one JSON line per query)`, curate.MatchBands.Strong, curate.MatchBands.Possible, curate.CaseBands.Strong, curate.CaseBands.Possible),
		Flags: []cli.Flag{
			casesFlag, lenientFlag, noCacheFlag,
			&cli.IntFlag{Name: "top", Aliases: []string{"n"}, Value: curate.MatchTop, Usage: "how many cases to show"},
			&cli.Float64Flag{Name: "min-score", Value: curate.MatchMinScore, Usage: "hide cases scoring below this (0–1; batch mode: 0 unless given)"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.BoolFlag{Name: "weak", Usage: "list the hits even when all are weak (by default match then says \"nothing like this here\"; giving --min-score lists them too)"},
			&cli.BoolFlag{Name: "long", Aliases: []string{"l"}, Usage: "also show what fixed each case (its first remediation steps) and how long it took"},
			&cli.BoolFlag{Name: "explain", Usage: "with --json: add each hit's stage, its largest score parts and the rest, and the score per view, and where the engine's weights came from"},
			&cli.StringSliceFlag{Name: "org", Usage: "only cases of this organisation (repeatable)"},
			&cli.StringSliceFlag{Name: "domain", Usage: "only cases with this domain tag, e.g. kubernetes (repeatable)"},
			&cli.StringFlag{Name: "since", Usage: "only cases dated on or after `DATE` (YYYY, YYYY-MM or YYYY-MM-DD)"},
			&cli.StringFlag{Name: "until", Usage: "only cases dated on or before `DATE`"},
			&cli.StringFlag{Name: "like", Usage: "instead of a paste, find the cases most like the case `ID` (scored as relate scores them)"},
			&cli.StringFlag{Name: "max-paste", Value: "1MiB", Usage: "refuse a paste larger than `SIZE` (its analysis takes memory in proportion)"},
			&cli.StringFlag{Name: "queries", Usage: "batch mode: JSON Lines `FILE` of {\"id\",\"text\"[,\"candidates\"]}; prints one JSON line per query"},
		},
		Action: func(c *cli.Context) error { return env.match(c) },
	}
}

// A hit as --json prints it is the API's api.Hit, and the answer its
// api.HitList: the CLI and the server share one JSON contract.

func (env *env) match(c *cli.Context) error {
	if err := curate.CheckTop("--top", c.Int("top")); err != nil {
		return usageError{err}
	}
	if err := curate.CheckScore("--min-score", c.Float64("min-score")); err != nil {
		return usageError{err}
	}
	if c.Bool("explain") && !c.Bool("json") && c.String("queries") == "" { // batch mode always prints JSON
		return usagef("--explain adds to the JSON output: give --json too")
	}
	filter := similarity.Filter{Orgs: c.StringSlice("org"), Domains: c.StringSlice("domain"),
		Since: c.String("since"), Until: c.String("until")}
	if err := filter.Validate(); err != nil {
		return usageError{err}
	}
	if qf := c.String("queries"); qf != "" {
		if c.Args().Present() {
			return usagef("give either --queries or TEXT, not both")
		}
		return env.withIndex(c, func(ix *similarity.Index) (func() error, error) { return env.matchBatch(c, ix, qf, filter) })
	}
	if id := c.String("like"); c.IsSet("like") {
		if c.Args().Present() {
			return usagef("give either --like ID or TEXT, not both")
		}
		return env.withIndex(c, func(ix *similarity.Index) (func() error, error) { return env.matchLike(c, ix, id, filter) })
	}
	text, err := env.pasteText(c)
	if err != nil {
		return err
	}
	return env.withIndex(c, func(ix *similarity.Index) (func() error, error) { return env.matchPaste(c, ix, text, filter) })
}

// withIndex runs answer on the library's index and prints what it
// returns. Unless --no-cache, the index is first opened from the cache
// without reading the library, when the library's stamp says its files are
// as when it was indexed (stampfile.go); should a case that answer reads
// turn out changed since, nothing has been printed yet, and the library is
// read and indexed and answer runs again. Else a library of files is read
// as a stream and indexed through the cache without holding its cases
// (streamIndexed), with the same fallback; any other library is loaded and
// indexed through the cache (buildIndex). Each answer reads the cases it
// prints with Index.ReadCases before explaining them, so that a case that
// cannot be read again is an error (*similarity.CaseError) here, not a
// panic in the explanation.
func (env *env) withIndex(c *cli.Context, answer func(ix *similarity.Index) (print func() error, err error)) error {
	if !c.Bool("no-cache") {
		cfg, from, err := engineConfig(c)
		if err != nil {
			return err
		}
		o, err := stampOptionsOf(c)
		if err != nil {
			return err
		}
		if ix, notes, ok := openLazy(o, cfg); ok {
			env.weightsFrom = from
			if afterLazyOpen != nil {
				afterLazyOpen()
			}
			print, err := answer(ix)
			var unread *similarity.CaseError
			if !errors.As(err, &unread) { // else a case changed since its stamp: read the library
				fmt.Fprint(env.stderr, notes)
				if err != nil {
					return err
				}
				return print()
			}
		}
	}
	cfg, from, err := engineConfig(c)
	if err != nil {
		return err
	}
	r, notes, ok, err := env.streamIndexed(c, cfg) // stream.go
	if err != nil {
		return err
	}
	if ok {
		env.weightsFrom = from
		print, err := answer(r.ix)
		var unread *similarity.CaseError
		if !errors.As(err, &unread) { // else a case changed since it was read: read the library whole
			fmt.Fprint(env.stderr, notes)
			if err != nil {
				return err
			}
			return print()
		}
	}
	_, ix, err := env.buildIndex(c)
	if err != nil {
		return err
	}
	print, err := answer(ix)
	if err != nil {
		return err
	}
	return print()
}

// afterLazyOpen, when set by a test, runs between opening an index
// without the library and reading its cases.
var afterLazyOpen func()

// matchPaste answers a paste: the hits, and the note of those hidden.
func (env *env) matchPaste(c *cli.Context, ix *similarity.Index, text string, filter similarity.Filter) (func() error, error) {
	if err := curate.CheckPaste(ix, text); err != nil {
		return nil, usageError{err}
	}
	filter, notes, err := curate.ResolveFilter(ix, filter, curate.CLIFlags)
	if err != nil {
		return nil, usageError{err}
	}
	q := similarity.Query{Text: text, K: c.Int("top"), MinScore: c.Float64("min-score"), Filter: filter}
	out, err := api.MatchAnswer(ix, q, "en", c.Bool("explain"), notes, curate.CLIFlags)
	if err != nil {
		return nil, err
	}
	out.Weights = env.explainedWeights(c)
	return func() error {
		if c.Bool("json") {
			return writeJSON(env.stdout, out)
		}
		for _, n := range out.Filters {
			fmt.Fprintf(env.stdout, "%s\n", n)
		}
		if len(out.Filters) > 0 {
			fmt.Fprintln(env.stdout)
		}
		// Asking for a --min-score is asking for the hits down to it.
		if out.Novel && !c.Bool("weak") && !c.IsSet("min-score") {
			fmt.Fprintln(env.stdout, curate.NothingLike)
			if len(out.Hits) > 0 {
				h := out.Hits[0]
				fmt.Fprintf(env.stdout, "   the best hit, %s, scores %.2f (weak): --weak lists the %d weak hit%s\n", h.ID, h.Score, len(out.Hits), plural(len(out.Hits), "", "s"))
			}
		} else if err := env.printHits(out.Hits, c.Bool("long")); err != nil {
			return err
		}
		if out.Note != "" {
			fmt.Fprintf(env.stdout, "\n%s\n", out.Note)
		}
		return nil
	}, nil
}

// matchLike answers with the cases most like the case id, best first,
// filtered.
func (env *env) matchLike(c *cli.Context, ix *similarity.Index, id string, filter similarity.Filter) (func() error, error) {
	d, ok := ix.Lookup(id)
	if !ok {
		return nil, noSuchCase("--like: ", id, ix.Len(), ix.ID)
	}
	filter, notes, err := curate.ResolveFilter(ix, filter, curate.CLIFlags)
	if err != nil {
		return nil, usageError{err}
	}
	top := c.Int("top")
	k := top
	if !filter.IsZero() {
		k = ix.Len() // filter after ranking; Related clamps k
	}
	var kept []similarity.Hit
	for _, h := range ix.Related(d, k, c.Float64("min-score")) {
		if !ix.Keeps(filter, h.Doc) {
			continue
		}
		if len(kept) == top {
			break
		}
		kept = append(kept, h)
	}
	if err := ix.ReadCases(append(hitDocs(kept), d)...); err != nil {
		return nil, err
	}
	hits := []api.Hit{}
	for _, h := range kept {
		hits = append(hits, api.NewHit(ix, len(hits), h, ix.ExplainPair(d, h.Doc), "en"))
	}
	if len(hits) == 0 {
		if n := curate.EmptyFilterNote(ix, filter, curate.CLIFlags); n != "" {
			notes = append(notes, n)
		}
	}
	return func() error {
		if c.Bool("json") {
			return writeJSON(env.stdout, api.HitList{Hits: hits, Weights: env.explainedWeights(c), Filters: notes})
		}
		for _, n := range notes {
			fmt.Fprintf(env.stdout, "%s\n\n", n)
		}
		return env.printHits(hits, c.Bool("long"))
	}, nil
}

// pasteText returns the paste: the arguments joined, or standard input when
// there are none or the only one is "-".
func (env *env) pasteText(c *cli.Context) (string, error) {
	args := c.Args().Slice()
	fromStdin := len(args) == 0 || (len(args) == 1 && args[0] == "-")
	maxPaste, err := maxPasteBytes(c)
	if err != nil {
		return "", err
	}
	if !fromStdin {
		text := strings.Join(args, " ")
		if strings.TrimSpace(text) == "" {
			return "", usagef("nothing to match: TEXT is blank")
		}
		if int64(len(text)) > maxPaste {
			return "", pasteTooLarge(int64(len(text)), maxPaste, true)
		}
		return text, nil
	}
	for _, p := range c.StringSlice("cases") {
		if p == "-" {
			return "", usagef("standard input cannot hold both the paste and the cases: give the paste as TEXT")
		}
	}
	if f, ok := env.stdin.(*os.File); ok && isTerminal(f) {
		fmt.Fprintln(env.stderr, "caselink: paste what you see, then Ctrl-D")
	}
	// Read one byte more than the limit, not the whole input: a paste too
	// large costs its limit in memory, never its own size.
	b, err := io.ReadAll(io.LimitReader(env.stdin, maxPaste+1))
	if err != nil {
		return "", fmt.Errorf("reading standard input: %w", err)
	}
	if int64(len(b)) > maxPaste {
		return "", pasteTooLarge(int64(len(b)), maxPaste, false)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", usagef("nothing to match: give TEXT or paste on standard input")
	}
	return string(b), nil
}

func (env *env) printHits(hits []api.Hit, long bool) error {
	w := bufio.NewWriter(env.stdout)
	if len(hits) == 0 {
		fmt.Fprintln(w, "no similar cases")
		return w.Flush()
	}
	col := color(env.stdout)
	width := width(env.stdout)
	for i, h := range hits {
		if i > 0 {
			fmt.Fprintln(w)
		}
		head := fmt.Sprintf("%d  %.2f  %s  %-8s  %s  %s", h.Rank, h.Score, h.ID, h.Band, orDash(h.Date), orDash(h.Org))
		fmt.Fprintf(w, "%s  %s\n", bold(head, col), cut(h.Title, width-len([]rune(head))-2))
		if h.URL != "" {
			fmt.Fprintf(w, "   %s\n", dim(h.URL, col))
		}
		if len(h.Why) > 0 {
			fmt.Fprintf(w, "   why: %s\n", cut(strings.Join(h.Why, ", "), width-8))
		}
		if h.Split != nil && h.Like != "" && h.Score > 0 {
			// Say what moved the hit: the paste, or its likeness to the best hit.
			like := math.Round(100 * h.LikeScore / h.Score)
			fmt.Fprintf(w, "   score: %.0f%% from the paste, %.0f%% like %s\n", 100-like, like, h.Like)
		}
		if long {
			if h.ResolvedAfter != "" {
				fmt.Fprintf(w, "   resolved after %s\n", h.ResolvedAfter)
			}
			for i, r := range h.Remediation {
				label := "   fixed by: "
				if i > 0 {
					label = "             "
				}
				fmt.Fprintf(w, "%s%s\n", label, cut(r, width-len(label)))
			}
		}
	}
	return w.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// batchQuery is one line of a --queries file.
type batchQuery struct {
	ID         string   `json:"id"`
	Text       string   `json:"text"`
	Candidates []string `json:"candidates"`
	line       int
}

// batchAnswer is one line of batch output: the query's id and the API's
// answer to it.
type batchAnswer struct {
	ID string `json:"id"`
	api.HitList
}

// matchBatch answers every query of a JSON Lines file, in order, on all cores.
func (env *env) matchBatch(c *cli.Context, ix *similarity.Index, path string, filter similarity.Filter) (func() error, error) {
	qs, err := readBatch(path)
	if err != nil {
		return nil, err
	}
	var warn strings.Builder
	for _, q := range qs {
		if strings.TrimSpace(q.Text) == "" {
			fmt.Fprintf(&warn, "caselink: warning: %s:%d: query %q has no \"text\": it gets no hits\n", path, q.line, q.ID)
		}
		var unknown []string
		for _, id := range q.Candidates {
			if _, ok := ix.Lookup(id); !ok {
				unknown = append(unknown, id)
			}
		}
		if len(unknown) > 0 {
			fmt.Fprintf(&warn, "caselink: warning: %s:%d: query %q: %d candidate(s) name no case of the library and are left out: %s\n",
				path, q.line, q.ID, len(unknown), strings.Join(unknown, ", "))
		}
	}
	filter, notes, err := curate.ResolveFilter(ix, filter, curate.CLIFlags)
	if err != nil {
		return nil, usageError{err}
	}
	// Batch mode feeds evaluation and triage lists: unless --min-score is
	// given, every hit up to --top is returned, and a query with candidates
	// gets all its candidates back, ranked.
	minScore := 0.0
	if c.IsSet("min-score") {
		minScore = c.Float64("min-score")
	}
	out := make([]batchAnswer, len(qs))
	errs := make([]error, len(qs))
	par.Each(len(qs), func(i int) {
		q := qs[i]
		ans, err := api.MatchAnswer(ix, similarity.Query{Text: q.Text, K: c.Int("top"), MinScore: minScore,
			Candidates: q.Candidates, Filter: filter}, "en", c.Bool("explain"), notes, curate.CLIFlags)
		if errs[i] = err; err != nil {
			return
		}
		out[i] = batchAnswer{ID: q.ID, HitList: ans}
		out[i].Weights = env.explainedWeights(c)
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return func() error {
		fmt.Fprint(env.stderr, warn.String())
		w := bufio.NewWriter(env.stdout)
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, a := range out {
			if err := enc.Encode(a); err != nil {
				return err
			}
		}
		return w.Flush()
	}, nil
}

// hitDocs returns the positions of the hits' cases.
func hitDocs(hits []similarity.Hit) []int {
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.Doc
	}
	return out
}

// explainedWeights is, with --explain, where the index's weights came from
// (the defaults, or the [weights] of a caselink.toml); else "".
func (env *env) explainedWeights(c *cli.Context) string {
	if !c.Bool("explain") {
		return ""
	}
	return env.weightsFrom
}

func readBatch(path string) ([]batchQuery, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usageError{err}
	}
	defer f.Close()
	var qs []batchQuery
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	seen := map[string]int{}
	for sc.Scan() {
		line++
		b := strings.TrimSpace(sc.Text())
		if b == "" {
			continue
		}
		var q batchQuery
		if err := json.Unmarshal([]byte(b), &q); err != nil {
			return nil, usagef("%s:%d: %v", path, line, err)
		}
		if q.ID == "" {
			return nil, usagef("%s:%d: query has no \"id\"", path, line)
		}
		if prev, dup := seen[q.ID]; dup {
			return nil, usagef("%s:%d: query id %q already used on line %d", path, line, q.ID, prev)
		}
		seen[q.ID] = line
		q.line = line
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return qs, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
