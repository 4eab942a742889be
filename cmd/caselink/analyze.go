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
		Description: `Prints one term per line: its position in the text, the term used for matching, and
the text it came from — like Elasticsearch's _analyze — so you can see why two texts
match or not.

Example:
   caselink analyze "pods OOMKilled in us-east-1, HTTP 503 from kube-apiserver"`,
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
				fmt.Fprintf(w, "%d\t%s\t%s\n", t.Pos, t.Text, t.Surface)
			}
			return w.Flush()
		},
	}
}
