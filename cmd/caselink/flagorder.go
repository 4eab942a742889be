package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// Flags wherever they stand: urfave/cli v2 stops reading flags at a
// command's first argument, so `caselink match "pods OOMKilled" --json
// --cases ./lib` would take "--json --cases ./lib" as more paste and answer
// from the embedded seeds. flagsFirst moves every flag of the command (with
// its value) before the arguments, so the line means what it says.

// flagsFirst returns args (the whole command line, program name first) with
// the flags after a command's arguments moved before them. What follows
// "--" stays an argument; a flag that takes a value keeps the next word as
// its value even when it begins with '-' (--min-score -1 is then refused by
// the flag's own check, not read as paste). A lone "-" (standard input) is an
// argument. Lines without a known command are returned as they are.
func flagsFirst(app *cli.App, args []string) []string {
	// The command is the first word that is not a flag: the app itself has
	// only --help and --version, which take no value.
	at := -1
	for i := 1; i < len(args); i++ {
		if !strings.HasPrefix(args[i], "-") {
			at = i
			break
		}
	}
	if at < 0 {
		return args
	}
	cmd := app.Command(args[at])
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		tv := true // a flag that cannot say is assumed to take a value, as all but booleans do
		if d, ok := f.(cli.DocGenerationFlag); ok {
			tv = d.TakesValue()
		}
		for _, n := range f.Names() {
			takesValue[n] = tv
		}
	}
	var flags, rest []string
	dashdash := false
	for i := at + 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			dashdash = true
			rest = append(rest, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if takesValue[name] {
			if i+1 == len(args) {
				// The line ends where a value should be: keep the flag
				// last, so that it is refused for its missing value
				// rather than given a word of the paste.
				return append(append([]string{}, args[:at+1]...), flags...)
			}
			i++
			flags = append(flags, args[i])
		}
	}
	out := append([]string{}, args[:at+1]...)
	out = append(out, flags...)
	if dashdash {
		out = append(out, "--")
	}
	return append(out, rest...)
}
