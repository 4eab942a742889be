package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/tokenize"
)

func analyzeCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:      "analyze",
		Usage:     "print the terms caselink makes of a text",
		ArgsUsage: "[TEXT…]  (no TEXT reads standard input)",
		Flags:     []cli.Flag{casesFlag, lenientFlag, noCacheFlag},
		Description: `Prints one term per line: its position in the text, the term used for matching, the
text it came from, and the step that made it — like Elasticsearch's _analyze — so you
can see why two texts match or not. Steps: word (the token, normalized), part (of a
compound), class (an IP, a time, 5xx…), synonym, bigram, and glossary: the English term
a Korean word stands for. A Korean word loses its particles and endings (노드가 → 노드);
one the glossary knows is replaced by its English terms (노드가 → node, glossary), one
it does not know is kept (as word).

With a library (--cases, or the one the config names), the text is read as match reads
a paste against it: a word the library never uses, within an edit or two of one it does,
is read as that word (step typo, e.g. typo conection→connection), and a fifth
column counts the cases that hold each term (0: the library never uses it, so it
cannot match).

Examples:
   caselink analyze "pods OOMKilled in us-east-1, HTTP 503 from kube-apiserver"
   caselink analyze "prod 클러스터에서 파드들 계속 OOMKilled로 죽음, 배포 직후부터"
   caselink analyze --cases ./library "conection refused by the databse"`,
		Action: func(c *cli.Context) error {
			text := strings.Join(c.Args().Slice(), " ")
			if !c.Args().Present() || text == "-" {
				b, err := io.ReadAll(env.stdin)
				if err != nil {
					return err
				}
				text = string(b)
			}
			if strings.TrimSpace(text) == "" {
				return usagef("nothing to analyze: give TEXT or pipe it on standard input")
			}
			if len(c.StringSlice("cases")) > 0 {
				return env.withIndex(c, func(ix *similarity.Index) (func() error, error) {
					return func() error { return env.printPasteTerms(ix.PasteTerms(text)) }, nil
				})
			}
			w := bufio.NewWriter(env.stdout)
			for _, t := range tokenize.New(tokenize.DefaultOptions()).Analyze(text) {
				fmt.Fprintf(w, "%d\t%s\t%s\t%s\n", t.Pos, t.Text, t.Surface, t.Kind)
			}
			return w.Flush()
		},
	}
}

// printPasteTerms prints analyze's lines for a text read against a
// library: position, term, the text it came from, step (typo, with the
// paste's word and the library's, for a correction) and how many cases
// hold the term.
func (env *env) printPasteTerms(terms []similarity.PasteTerm) error {
	w := bufio.NewWriter(env.stdout)
	for _, t := range terms {
		step := t.Kind.String()
		if t.Typo != "" {
			step = "typo " + t.Surface + "→" + t.Typo
		}
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%d\n", t.Pos, t.Text, t.Surface, step, t.Cases)
	}
	return w.Flush()
}
