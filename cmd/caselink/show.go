package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/similarity"
)

func showCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print one case in readable form",
		ArgsUsage: "ID",
		Description: `Prints a case's title, date, org, tags, symptoms, related cases and url, so that a
suggestion can be checked without opening JSON. --lang ko shows each field's Korean
text where the case has one, and its English where not.

Examples:
   caselink show IL-0191
   caselink show --lang ko IL-0191`,
		Flags: []cli.Flag{casesFlag, lenientFlag, &cli.StringFlag{
			Name: "lang", Value: "en", Usage: "language of the text: en or ko (Korean where the case has it, else English)",
		}},
		Action: func(c *cli.Context) error { return env.show(c) },
	}
}

func (env *env) show(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("show takes one case id")
	}
	id := c.Args().First()
	lang := c.String("lang")
	if lang != "en" && lang != "ko" {
		return usagef("--lang must be en or ko, got %q", lang)
	}
	lib, err := env.loadLibrary(c)
	if err != nil {
		return err
	}
	cs := lib.ByID(id)
	if cs == nil {
		return noSuchCase("", id, lib.Len(), func(i int) string { return lib.Cases[i].ID })
	}
	w := bufio.NewWriter(env.stdout)
	col := color(env.stdout)
	width := min(width(env.stdout), 100)
	fmt.Fprintln(w, bold(cs.ID+"  "+cs.Title.In(lang), col))
	field := func(name, value string) {
		if strings.TrimSpace(value) != "" {
			fmt.Fprintf(w, "%-10s %s\n", name+":", value)
		}
	}
	field("date", cs.Date)
	field("org", cs.Org)
	field("severity", cs.Severity)
	field("url", cs.URL)
	field("tags", strings.Join(similarity.CaseTags(cs), " "))
	field("related", strings.Join(cs.Related, " "))
	para := func(name, text string) {
		if text = strings.TrimSpace(text); text == "" {
			return
		}
		fmt.Fprintf(w, "\n%s\n", bold(name, col))
		for _, p := range strings.Split(text, "\n") {
			for _, l := range wrap(p, width-2) {
				fmt.Fprintf(w, "  %s\n", l)
			}
		}
	}
	para("Symptoms", cs.SymptomsText.In(lang))
	para("Summary", cs.Summary.In(lang))
	para("Detection", cs.Detection.In(lang))
	para("Trigger", cs.Trigger.In(lang))
	return w.Flush()
}

// wrap breaks text into lines of at most n characters at spaces.
func wrap(text string, n int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > n {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
