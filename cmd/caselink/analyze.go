package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/tokenize"
)

func analyzeCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:      "analyze",
		Usage:     "print the terms caselink makes of a text",
		ArgsUsage: "[TEXT…]  (no TEXT reads standard input)",
		Description: `Prints one term per line: its position in the text, the term used for matching, the
text it came from, and the step that made it — like Elasticsearch's _analyze — so you
can see why two texts match or not. Steps: word (the token, normalized), part (of a
compound), class (an IP, a time, 5xx…), synonym, bigram, and glossary: the English term
a Korean word stands for. A Korean word loses its particles and endings (노드가 → 노드);
one the glossary knows is replaced by its English terms (노드가 → node, glossary), one
it does not know is kept (as word).

Examples:
   caselink analyze "pods OOMKilled in us-east-1, HTTP 503 from kube-apiserver"
   caselink analyze "prod 클러스터에서 파드들 계속 OOMKilled로 죽음, 배포 직후부터"`,
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
			w := bufio.NewWriter(env.stdout)
			for _, t := range tokenize.New(tokenize.DefaultOptions()).Analyze(text) {
				fmt.Fprintf(w, "%d\t%s\t%s\t%s\n", t.Pos, t.Text, t.Surface, t.Kind)
			}
			return w.Flush()
		},
	}
}
