// Command caselink finds similar past incidents in an incident library.
//
// It answers three jobs from a terminal: match (paste what you see, get the
// past cases most like it), relate (fill every case's related list) and dupes
// (pairs of cases that are probably the same incident), plus show, analyze,
// eval, serve and tune (learn the engine's weights from the curators'
// links). Run `caselink --help` or see README.md.
//
// This package only wires flags, input and output to the engine
// (package similarity) and the case library (package similarity/caselib):
// no scoring logic lives here.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/similarity/caselib"
)

// version is the caselink version; release builds set it with -ldflags.
var version = "0.1.0-dev"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // a runtime failure
	exitUsage   = 2 // bad usage or bad input
)

// usageError marks an error as the user's: bad flags, arguments or input.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// failure marks an error as a runtime failure (exit 1) even when it names
// the input, such as a case file that cannot be written.
type failure struct{ err error }

func (e failure) Error() string { return e.err.Error() }
func (e failure) Unwrap() error { return e.err }

// run runs caselink with the given arguments and streams and returns its
// exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	app := newApp(env)
	err := app.Run(flagsFirst(app, args))
	if interrupted.Load() {
		// The signal's handler is removing the temporary files and exits
		// 130: an error of the write it broke is not the run's outcome.
		select {}
	}
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "caselink: %v\n", err)
	var ue usageError
	var le *caselib.Error
	var fe failure
	switch {
	case errors.As(err, &fe):
		return exitFailure
	case errors.As(err, &ue), errors.As(err, &le), isFlagError(err):
		return exitUsage
	}
	return exitFailure
}

func newApp(env *env) *cli.App {
	app := &cli.App{
		Name:    "caselink",
		Usage:   "find similar past incidents in an incident library",
		Version: version,
		Description: "caselink reads an incident library (case files, folders of them, or JSON Lines; the\n" +
			"embedded seed cases when --cases is not given) and finds the cases most like a paste\n" +
			"(match), links every case to its most similar ones (relate) and lists probable\n" +
			"duplicates (dupes).",
		Reader:               env.stdin,
		Writer:               env.stdout,
		ErrWriter:            env.stderr,
		EnableBashCompletion: false,
		// Without a command, print the help; an unknown command is bad usage.
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return unknownCommand(c.App, c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, isSub bool) error {
			return usageError{flagSuggestion(c.Command, err)}
		},
		Commands: []*cli.Command{
			matchCommand(env),
			relateCommand(env),
			dupesCommand(env),
			showCommand(env),
			analyzeCommand(env),
			evalCommand(env),
			serveCommand(env),
			benchCommand(env),
			checkCommand(env),
			indexCommand(env),
			cacheCommand(env),
			importCommand(env),
			exportCommand(env),
			completionCommand(env),
			configCommand(env),
			tuneCommand(env),
			{
				Name:  "version",
				Usage: "print the caselink version",
				Action: func(c *cli.Context) error {
					fmt.Fprintf(env.stdout, "caselink version %s\n", version)
					return nil
				},
			},
		},
	}
	// A path may hold a comma: --cases a,b is one path, not two.
	app.DisableSliceFlagSeparator = true
	for _, c := range app.Commands {
		c.OnUsageError = app.OnUsageError
		if slices.Contains(c.Flags, cli.Flag(casesFlag)) {
			if !slices.ContainsFunc(c.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), "config") }) {
				c.Flags = append(c.Flags, configFileFlag)
			}
			c.Flags = append(c.Flags, quietFlag)
			before := c.Before
			c.Before = func(ctx *cli.Context) error {
				env.quiet = ctx.Bool("quiet")
				if err := env.applyConfig(ctx); err != nil {
					return err
				}
				env.sweepTemps(ctx)
				if before != nil {
					return before(ctx)
				}
				return nil
			}
		}
		if slices.Contains(c.Flags, cli.Flag(lenientFlag)) {
			c.Flags = append(c.Flags, maxCaseFlag)
		}
	}
	return app
}

// isFlagError reports whether err comes from urfave/cli itself: flag
// parsing, or help for a command that does not exist. caselink's own code
// never returns a cli.ExitCoder.
func isFlagError(err error) bool {
	var ec cli.ExitCoder
	return errors.As(err, &ec)
}
