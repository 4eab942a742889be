package main

import (
	"bufio"
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// defaultRelateMinScore is the lowest relate score (similarity with the mild
// date prior) linked by default: in the judged noisy library, the judged
// cases' neighbours scoring 0.125–0.175 are judged related 54% of the time,
// those scoring 0.075–0.125 only 15%. At 0.15 relate lists 82 links there, 70
// of them judged (0.2 would list 28, all judged).
const defaultRelateMinScore = 0.15

func relateCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "relate",
		Usage: "fill every case's related list with its most similar cases",
		Description: `Computes the most similar cases of every case (the score is their similarity, discounted
by up to a quarter for cases months or years apart). Without --write it is a dry run: it prints,
per case, the links it would add (+) and those already there (=). With --write it writes
them into the case files, changing nothing but the "related" values (for a postgres://
library: in one transaction, only the rows that change, skipping rows changed since read). Links already present
are kept unless --replace; running --write twice changes nothing the second time.

Examples:
   caselink relate --cases ./library
   caselink relate --cases ./library --write --symmetric
   caselink relate --cases cases.jsonl --json --top 10`,
		Flags: []cli.Flag{
			casesFlag, lenientFlag,
			&cli.IntFlag{Name: "top", Aliases: []string{"n"}, Value: 5, Usage: "how many related cases per case"},
			&cli.Float64Flag{Name: "min-score", Value: defaultRelateMinScore, Usage: "link only cases scoring at least this (0–1)"},
			&cli.BoolFlag{Name: "write", Usage: "write the links into the case files"},
			&cli.BoolFlag{Name: "replace", Usage: "replace existing links instead of keeping them"},
			&cli.BoolFlag{Name: "symmetric", Usage: "make every link two-way"},
			&cli.BoolFlag{Name: "json", Usage: `print {"id": [{"id","score"}…]} for every case`},
		},
		Action: func(c *cli.Context) error { return env.relate(c) },
	}
}

type scored struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}

func (env *env) relate(c *cli.Context) error {
	if c.Int("top") < 1 {
		return usagef("--top must be at least 1")
	}
	lib, ix, err := env.buildIndex(c)
	if err != nil {
		return err
	}
	p := env.newProgress("relate", ix.Len())
	all := ix.AllRelated(c.Int("top"), c.Float64("min-score"), p.update)
	p.done()
	if c.Bool("json") {
		out := make(map[string][]scored, len(all))
		for d, hits := range all {
			list := make([]scored, len(hits))
			for i, h := range hits {
				list[i] = scored{h.ID, round(h.Score)}
			}
			out[ix.Case(d).ID] = list
		}
		return writeJSON(env.stdout, out)
	}
	next := proposeLinks(ix, all, c.Bool("replace"), c.Bool("symmetric"))
	if c.Bool("write") {
		changed := map[string][]string{}
		for d, ids := range next {
			if cs := ix.Case(d); !slices.Equal(ids, cs.Related) {
				changed[cs.ID] = ids
			}
		}
		if env.table != nil {
			return env.writeTableRelated(c, changed)
		}
		files, err := caselib.WriteRelated(lib, changed)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "updated related of %d case(s) in %d file(s)\n", len(changed), len(files))
		return nil
	}
	return env.printLinks(ix, all, next)
}

// proposeLinks returns the related list every case would have: the links it
// has (unless replace) followed by the new ones, most similar first; with
// symmetric, each link a→b also gets b→a.
func proposeLinks(ix *similarity.Index, all [][]similarity.Hit, replace, symmetric bool) [][]string {
	next := make([][]string, len(all))
	for d, hits := range all {
		var ids []string
		if !replace {
			ids = slices.Clone(ix.Case(d).Related)
		}
		for _, h := range hits {
			if !slices.Contains(ids, h.ID) {
				ids = append(ids, h.ID)
			}
		}
		next[d] = ids
	}
	if symmetric {
		for d := range all {
			id := ix.Case(d).ID
			for _, other := range next[d] {
				if o, ok := ix.Lookup(other); ok && !slices.Contains(next[o], id) {
					next[o] = append(next[o], id)
				}
			}
		}
	}
	return next
}

func (env *env) printLinks(ix *similarity.Index, all [][]similarity.Hit, next [][]string) error {
	w := bufio.NewWriter(env.stdout)
	col := color(env.stdout)
	width := width(env.stdout)
	adds := 0
	for d := range all {
		cs := ix.Case(d)
		score := map[string]float64{}
		for _, h := range all[d] {
			score[h.ID] = h.Score
		}
		fmt.Fprintf(w, "%s  %s\n", bold(cs.ID, col), cut(cs.Title.EN, width-len(cs.ID)-2))
		if len(next[d]) == 0 {
			fmt.Fprintln(w, "  (no related case above the minimum score)")
		}
		for _, id := range next[d] {
			mark := "+"
			if slices.Contains(cs.Related, id) {
				mark = "="
			} else {
				adds++
			}
			title := ""
			if o, ok := ix.Lookup(id); ok {
				title = ix.Case(o).Title.EN
			}
			s := "    "
			if v, ok := score[id]; ok {
				s = fmt.Sprintf("%.2f", v)
			}
			head := fmt.Sprintf("  %s %s  %s", mark, id, s)
			fmt.Fprintf(w, "%s  %s\n", head, cut(title, width-len([]rune(head))-2))
		}
	}
	fmt.Fprintf(w, "\ndry run: %d link(s) to add; run with --write to write them\n", adds)
	return w.Flush()
}
