package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/similarity"
)

// defaultDupesThreshold is the dupes score (similarity discounted by the
// date prior) from which two cases are listed as probable duplicates: on the
// 2,503 GitBugs reports it lists 176 pairs for review, 11 of them among the
// 61 judged duplicates (0.3 lists 405 pairs with 20; 0.5, 94 with 5).
const defaultDupesThreshold = 0.4

// decisionsName is the file, kept in the library's folder, where dismissed
// duplicate pairs are recorded. It starts with a dot so that loading the
// folder as a library skips it.
const decisionsName = ".caselink-decisions.tsv"

func dupesCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "dupes",
		Usage: "list pairs of cases that are probably the same incident",
		Description: `Lists pairs of cases whose dupes score is at least --threshold, most probable first, with
what they share. The dupes score is the pair's similarity, discounted as their dates grow apart:
two reports of one incident are written close together, two similar incidents often years apart. A pair you judge not to be a duplicate is dismissed with --dismiss A B:
the decision is kept in ` + decisionsName + ` in the library's folder (or --decisions FILE)
and the pair is not shown again.

Examples:
   caselink dupes --cases ./library
   caselink dupes --cases ./library --dismiss IL-0100 IL-0194`,
		Flags: []cli.Flag{
			casesFlag, lenientFlag,
			&cli.Float64Flag{Name: "threshold", Value: defaultDupesThreshold, Usage: "list pairs scoring at least this (0–1)"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.StringSliceFlag{Name: "dismiss", Usage: "record that the two case ids `A B` are not duplicates (give the flag twice or as --dismiss A --dismiss B)"},
			&cli.StringFlag{Name: "decisions", Usage: "the decisions `FILE` (default: " + decisionsName + " beside the library)"},
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
	// prior of dupes.
	Similarity float64  `json:"similarity"`
	Evidence   []string `json:"evidence"`
}

func (env *env) dupes(c *cli.Context) error {
	dismiss := c.StringSlice("dismiss")
	dismiss = append(dismiss, c.Args().Slice()...)
	if len(c.StringSlice("dismiss")) == 0 && c.Args().Present() {
		return usagef("unexpected arguments %q (did you mean --dismiss A B?)", c.Args().Slice())
	}
	if len(dismiss) != 0 && len(dismiss) != 2 {
		return usagef("--dismiss takes two case ids, got %d", len(dismiss))
	}
	_, ix, err := env.buildIndex(c)
	if err != nil {
		return err
	}
	path, err := decisionsPath(c)
	if err != nil && (len(dismiss) == 2 || c.String("decisions") != "") {
		return err
	}
	if len(dismiss) == 2 {
		a, b := dismiss[0], dismiss[1]
		for _, id := range dismiss {
			if _, ok := ix.Lookup(id); !ok {
				return usagef("no case with id %q in the library", id)
			}
		}
		if a == b {
			return usagef("--dismiss needs two different case ids")
		}
		if err := appendDecision(path, a, b); err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "dismissed %s %s (recorded in %s)\n", a, b, path)
		return nil
	}
	dismissed := map[[2]string]bool{}
	if path != "" {
		if dismissed, err = readDecisions(path); err != nil {
			return err
		}
	}
	p := env.newProgress("dupes", ix.Len())
	pairs := ix.Duplicates(c.Float64("threshold"), 10, p.update)
	p.done()
	var out []dupePair
	for _, pr := range pairs {
		a, b := ix.Case(pr.A), ix.Case(pr.B)
		if dismissed[pairKey(a.ID, b.ID)] {
			continue
		}
		ex := ix.ExplainPair(pr.A, pr.B)
		out = append(out, dupePair{
			A:     dupeCase{a.ID, a.Date, a.Org, a.Title.EN},
			B:     dupeCase{b.ID, b.Date, b.Org, b.Title.EN},
			Score: similarity.RoundScore(pr.Score), Similarity: similarity.RoundScore(pr.Similarity), Evidence: ex.Why(8),
		})
	}
	if c.Bool("json") {
		if out == nil {
			out = []dupePair{}
		}
		return writeJSON(env.stdout, out)
	}
	return env.printDupes(out)
}

func (env *env) printDupes(pairs []dupePair) error {
	w := bufio.NewWriter(env.stdout)
	if len(pairs) == 0 {
		fmt.Fprintln(w, "no probable duplicates")
		return w.Flush()
	}
	col := color(env.stdout)
	width := width(env.stdout)
	for i, p := range pairs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, bold(fmt.Sprintf("%.2f  %s ~ %s", p.Score, p.A.ID, p.B.ID), col))
		for _, c := range []dupeCase{p.A, p.B} {
			head := fmt.Sprintf("   %s  %s  %s", c.ID, orDash(c.Date), orDash(c.Org))
			fmt.Fprintf(w, "%s  %s\n", head, cut(c.Title, width-len([]rune(head))-2))
		}
		if len(p.Evidence) > 0 {
			fmt.Fprintf(w, "   shared: %s\n", cut(strings.Join(p.Evidence, ", "), width-11))
		}
	}
	fmt.Fprintf(w, "\n%d pair(s); dismiss one with: caselink dupes --dismiss A --dismiss B\n", len(pairs))
	return w.Flush()
}

// decisionsPath returns --decisions, or the decisions file beside the
// library: in the folder named by --cases, or in the folder of the case file.
func decisionsPath(c *cli.Context) (string, error) {
	if p := c.String("decisions"); p != "" {
		return p, nil
	}
	paths := c.StringSlice("cases")
	if len(paths) == 0 {
		return "", usagef("the embedded seeds have no folder to keep decisions in: give --cases or --decisions FILE")
	}
	if paths[0] == "-" {
		return "", usagef("a library read from standard input has no folder: give --decisions FILE")
	}
	if isTableLibrary(paths) {
		return "", usagef("a library in PostgreSQL has no folder: give --decisions FILE")
	}
	st, err := os.Stat(paths[0])
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return filepath.Join(paths[0], decisionsName), nil
	}
	return filepath.Join(filepath.Dir(paths[0]), decisionsName), nil
}

func pairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// readDecisions reads a decisions file: lines "A<TAB>B<TAB>not-duplicate<TAB>date".
// A missing file holds no decisions.
func readDecisions(path string) (map[[2]string]bool, error) {
	out := map[[2]string]bool{}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 3 || f[2] != "not-duplicate" {
			return nil, usagef("%s:%d: want A<TAB>B<TAB>not-duplicate", path, n+1)
		}
		out[pairKey(f[0], f[1])] = true
	}
	return out, nil
}

// appendDecision records that a and b are not duplicates, keeping the file
// sorted and without repeats; it is rewritten atomically.
func appendDecision(path, a, b string) error {
	old, err := readDecisions(path)
	if err != nil {
		return err
	}
	var comments, pairs []string
	if data, err := os.ReadFile(path); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			switch {
			case strings.TrimSpace(l) == "":
			case strings.HasPrefix(l, "#"):
				comments = append(comments, l)
			default:
				pairs = append(pairs, l)
			}
		}
	} else {
		comments = []string{"# caselink: pairs dismissed as not duplicates (A<TAB>B<TAB>not-duplicate<TAB>date)"}
	}
	k := pairKey(a, b)
	if !old[k] {
		pairs = append(pairs, strings.Join([]string{k[0], k[1], "not-duplicate", time.Now().UTC().Format("2006-01-02")}, "\t"))
	}
	sort.Strings(pairs)
	data := strings.Join(append(comments, pairs...), "\n") + "\n"
	return writeFileAtomic(path, []byte(data))
}

// writeFileAtomic writes data to a temporary file in path's folder and
// renames it over path, so a failure leaves the old file as it was.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".caselink-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
