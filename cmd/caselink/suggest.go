package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// Did you mean: an unknown command or flag within two edits of a real one
// (one for short names) is named in the error, so "caselink mach" says
// "did you mean match?".

// nearestName returns the name in names closest to s by edit distance, ""
// when none is within the edits a name of its length allows.
func nearestName(s string, names []string) string {
	best, bestD := "", 3
	if len([]rune(s)) <= 4 {
		bestD = 2
	}
	for _, n := range names {
		if d := editDistance(s, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, transpositions of
// neighbours counting one.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// unknownCommand is the error for a command caselink does not have.
func unknownCommand(app *cli.App, name string) error {
	var names []string
	for _, c := range app.Commands {
		names = append(names, c.Names()...)
	}
	if s := nearestName(name, names); s != "" {
		return usagef("unknown command %q: did you mean %s? (caselink --help lists them)", name, s)
	}
	return usagef("unknown command %q; run caselink --help for the list", name)
}

// noSuchCase is the error for an id the library does not have, naming the
// nearest id it does have (IL-191 → IL-0191, il-0191 → IL-0191) when one
// is within two edits, case aside. prefix names the flag ("--like: "), or
// is "". The library's ids are n, the i-th given by idAt (an index opened
// from the cache knows its ids without reading its cases).
func noSuchCase(prefix, id string, n int, idAt func(i int) string) error {
	lower := make([]string, n)
	for i := range n {
		lower[i] = strings.ToLower(idAt(i))
	}
	if s := nearestName(strings.ToLower(id), lower); s != "" {
		for i := range n {
			if lower[i] == s {
				return usagef("%sno case with id %q in the library: did you mean %s?", prefix, id, idAt(i))
			}
		}
	}
	return usagef("%sno case with id %q in the library", prefix, id)
}

// flagSuggestion adds "did you mean --X?" to a flag parsing error about an
// undefined flag of cmd, when one is near.
func flagSuggestion(cmd *cli.Command, err error) error {
	const undefined = "flag provided but not defined: "
	msg := err.Error()
	// The flag package says `invalid value "x" for flag -top: parse error`:
	// say instead what the flag wants.
	var value, flag string
	if n, _ := fmt.Sscanf(msg, "invalid value %q for flag -%s", &value, &flag); n == 2 {
		flag = strings.TrimSuffix(flag, ":")
		if want := wantOf(cmd, flag); !strings.HasPrefix(want, "not ") {
			return fmt.Errorf("--%s %q: %s", flag, value, want)
		}
	}
	i := strings.Index(msg, undefined)
	if i < 0 || cmd == nil {
		return err
	}
	name := strings.TrimLeft(msg[i+len(undefined):], "-")
	var names []string
	for _, f := range cmd.Flags {
		names = append(names, f.Names()...)
	}
	if s := nearestName(name, names); s != "" {
		return fmt.Errorf("%w: did you mean --%s?", err, s)
	}
	if cmd.Name == "match" || cmd.Name == "analyze" {
		// Flags count wherever they stand (flagsFirst), so a word of the
		// paste that begins with '-' must follow "--".
		return fmt.Errorf("%w (a paste that holds a word beginning with '-' goes after --: caselink %s [FLAGS] -- TEXT)", err, cmd.Name)
	}
	return err
}
