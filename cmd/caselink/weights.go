package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/tuned"
	"github.com/caselink/caselink/similarity"
)

// weights.go applies the weights a library learned (caselink tune --write:
// the [weights] table of caselink.toml) wherever an index is built. The
// general config loader can take over weightsPath; engineConfig is the one
// place the weights reach the engine.

// scoringCommands are the commands that score with the library's weights;
// each gets --config.
var scoringCommands = []string{"match", "relate", "dupes", "serve", "eval", "tune"}

// configFlag is --config, added to every command of scoringCommands.
var configFlag = &cli.StringFlag{
	Name:  "config",
	Usage: "the caselink.toml `FILE` whose [weights] table the engine scores with (default: " + tuned.FileName + " in the library's folder)",
}

// weightsPath returns the file the library's weights are kept in: --config
// FILE, else caselink.toml in the library's folder; "" when there is none (the
// embedded seeds, standard input, a postgres:// library without --config).
func weightsPath(c *cli.Context) string {
	if f := c.String("config"); f != "" {
		return f
	}
	paths := c.StringSlice("cases")
	if isTableLibrary(paths) {
		return ""
	}
	p, err := tuned.Beside(paths, tuned.FileName)
	if err != nil {
		return ""
	}
	return p
}

// engineConfig returns the configuration a command scores with: the
// defaults with the library's [weights] applied, and a sentence saying where
// the weights came from (for match --explain).
func engineConfig(c *cli.Context) (similarity.Config, string, error) {
	cfg := similarity.DefaultConfig()
	path := weightsPath(c)
	if path == "" {
		return cfg, "defaults", nil
	}
	w, err := tuned.Load(path)
	if err != nil {
		return cfg, "", usageError{err}
	}
	if w.Empty() {
		return cfg, "defaults (no [weights] in " + path + ")", nil
	}
	tuned.Apply(&cfg, w)
	from := fmt.Sprintf("[weights] of %s", path)
	if w.Note != "" {
		from += ": " + w.Note
	}
	return cfg, from, nil
}
