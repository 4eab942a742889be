package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/config"
	"github.com/caselink/caselink/cmd/caselink/internal/tuned"
	"github.com/caselink/caselink/similarity"
)

// configFileFlag is --config, given to every command that reads a library.
var configFileFlag = &cli.StringFlag{
	Name:  "config",
	Usage: "read settings from the caselink.toml `FILE` (default: $" + config.EnvConfig + ", else " + config.FileName + " in the library's folder, else $XDG_CONFIG_HOME/caselink/config.toml)",
}

// source says where a setting in force came from.
type source struct {
	flag, from string
	values     []string
}

// applyConfig fills the flags of the command c that its command line left
// unset: the library from $CASELINK_CASES, then every setting of the config
// file in force. It refuses a --cases value holding a comma that names no
// file (commas do not separate paths: a path may hold one).
func (env *env) applyConfig(c *cli.Context) error {
	has := func(name string) bool {
		return slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
	}
	env.sources = nil
	if has("cases") {
		if err := checkCommas(c.StringSlice("cases")); err != nil {
			return err
		}
		if c.IsSet("cases") {
			env.sources = append(env.sources, source{"cases", "--cases", c.StringSlice("cases")})
		} else if paths := config.EnvLibrary(); len(paths) > 0 {
			for _, p := range paths {
				if err := c.Set("cases", p); err != nil {
					return usagef("$%s: %v", config.EnvCases, err)
				}
			}
			env.sources = append(env.sources, source{"cases", "$" + config.EnvCases, paths})
		}
	}
	var cases []string
	if has("cases") {
		cases = c.StringSlice("cases")
	}
	flagPath := c.String("config")
	if c.Command.Name == "tune" && c.Bool("write") && flagPath != "" {
		// tune --write --config FILE may create the file it names.
		if _, err := os.Stat(flagPath); errors.Is(err, fs.ErrNotExist) {
			env.config = nil
			return nil
		}
	}
	f, err := config.Find(flagPath, cases)
	if err != nil {
		return usageError{err}
	}
	env.config = f
	if f == nil {
		return nil
	}
	settings := f.For(c.Command.Name)
	flags := make([]string, 0, len(settings))
	for fl := range settings {
		flags = append(flags, fl)
	}
	slices.Sort(flags)
	for _, fl := range flags {
		s := settings[fl]
		if !has(fl) || c.IsSet(fl) {
			continue
		}
		for _, v := range s.Values {
			if err := c.Set(fl, v); err != nil {
				return usagef("%s: %s = %s: %s", f.Path, fl, tomlValue([]string{v}), wantOf(c.Command, fl))
			}
		}
		env.sources = append(env.sources, source{fl, f.Path, s.Values})
	}
	return nil
}

// checkCommas refuses a --cases path with a comma that does not exist:
// caselink once split --cases at commas, and now takes a path whole.
func checkCommas(paths []string) error {
	for _, p := range paths {
		if !strings.Contains(p, ",") || strings.Contains(p, "://") {
			continue
		}
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return usagef("--cases %q: no such file or folder; commas do not separate paths: give --cases once per path (--cases %s)",
				p, strings.Join(strings.Split(p, ","), " --cases "))
		}
	}
	return nil
}

// configCommand is caselink config: the settings in force and where each
// came from.
func configCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "print the settings in force and where each came from",
		Description: `Prints the config file in force (--config FILE, else $` + config.EnvConfig + `, else ` + config.FileName + `
in the library's folder, else $XDG_CONFIG_HOME/caselink/config.toml) and every setting it, the
command line or $` + config.EnvCases + ` gives, as TOML with the source of each as a comment.
The keys a file may hold: ` + strings.Join(config.Names(), ", ") + `, and the [weights] table
that caselink tune writes.`,
		Flags: []cli.Flag{casesFlag},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("unexpected arguments %q: config takes only flags", c.Args().Slice())
			}
			// Every value is checked before anything is printed: a bad
			// one is the whole answer.
			for _, k := range config.Keys() {
				if st, ok := configSetting(env.config, k.Name); ok {
					if err := checkSetting(c.App, k.Command, k.Flag, st.Values); err != nil {
						return usagef("%s: %s = %s: %v", env.config.Path, k.Name, tomlValue(st.Values), err)
					}
				}
			}
			weights, err := env.weightsInForce(c)
			if err != nil {
				return err
			}
			w := env.stdout
			if env.config == nil {
				fmt.Fprintln(w, "# no config file")
			} else {
				fmt.Fprintf(w, "# config file: %s (found by %s)\n", env.config.Path, env.config.How)
			}
			libSet := false
			for _, s := range env.sources {
				if s.flag == "cases" {
					libSet = true
					fmt.Fprintf(w, "cases = %s  # from %s\n", tomlList(s.values), s.from)
				}
			}
			if !libSet {
				if s, ok := configSetting(env.config, "cases"); ok {
					fmt.Fprintf(w, "cases = %s  # from %s\n", tomlList(s.Values), env.config.Path)
				} else {
					fmt.Fprintln(w, "cases = []  # default: the embedded seed cases")
				}
			}
			// Every other setting: the file's value (a table's key over
			// its top-level shorthand), else the default.
			type target struct{ command, flag string }
			shown := map[target]bool{}
			keys := config.Keys()
			for i, k := range keys {
				t := target{k.Command, k.Flag}
				if k.Name == "cases" || shown[t] {
					continue
				}
				shown[t] = true
				name, st, set := k.Name, config.Setting{}, false
				for _, o := range keys[i:] {
					if o.Command == k.Command && o.Flag == k.Flag {
						if v, ok := configSetting(env.config, o.Name); ok {
							name, st, set = o.Name, v, true
						}
					}
				}
				if set {
					fmt.Fprintf(w, "%s = %s  # from %s\n", name, tomlValue(st.Values), env.config.Path)
					continue
				}
				if k.Alias { // say it by the table's name
					for _, o := range keys[i+1:] {
						if o.Command == k.Command && o.Flag == k.Flag {
							name = o.Name
							break
						}
					}
				}
				fmt.Fprintf(w, "%s = %s  # default\n", name, tomlValue(flagDefault(c.App, k.Command, k.Flag)))
			}
			weights()
			return nil
		},
	}
}

// weightsInForce reads the library's [weights] and returns the printer of
// the table in force: each weight the library's file (or table) sets, with
// where from, and every other one at its default, so that the numbers every
// command scores with are in view.
func (env *env) weightsInForce(c *cli.Context) (print func(), err error) {
	s, err := weightsAt(c)
	if err != nil {
		return nil, err
	}
	var set tuned.Weights
	if !s.none() {
		if set, err = s.load(c); err != nil {
			return nil, usageError{err}
		}
	}
	return func() { env.printWeights(s, set) }, nil
}

func (env *env) printWeights(s weightsStore, set tuned.Weights) {
	w := env.stdout
	fmt.Fprintln(w, "\n[weights]")
	if set.Note != "" {
		fmt.Fprintf(w, "# %s\n", set.Note)
	}
	all := tuned.Capture(similarity.DefaultConfig())
	for _, f := range tuned.Fields {
		if v, ok := set.Values[f.Key]; ok {
			fmt.Fprintf(w, "%s = %s  # from %s\n", f.Key, strconv.FormatFloat(v, 'g', -1, 64), s)
			continue
		}
		fmt.Fprintf(w, "%s = %s  # default\n", f.Key, strconv.FormatFloat(all.Values[f.Key], 'g', -1, 64))
	}
}

// checkSetting reports a value of a config file that the flag it sets
// would refuse, saying what the flag wants.
func checkSetting(app *cli.App, command, flag string, values []string) error {
	cmd := app.Command(command)
	f := flagOf(cmd, flag)
	for _, v := range values {
		var err error
		switch f.(type) {
		case *cli.IntFlag:
			_, err = strconv.ParseInt(v, 0, 64)
		case *cli.Float64Flag:
			_, err = strconv.ParseFloat(v, 64)
		case *cli.BoolFlag:
			_, err = strconv.ParseBool(v)
		case *cli.DurationFlag:
			_, err = time.ParseDuration(v)
		}
		if err != nil {
			return errors.New(wantOf(cmd, flag))
		}
	}
	return nil
}

// flagOf returns the flag of cmd named name, nil when cmd is nil or has
// none.
func flagOf(cmd *cli.Command, name string) cli.Flag {
	if cmd == nil {
		return nil
	}
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

// wantOf says what kind of value the flag of cmd takes, for an error about
// a value it refused ("parse error" says nothing to a user).
func wantOf(cmd *cli.Command, flag string) string {
	switch flagOf(cmd, flag).(type) {
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag:
		return "want a whole number, such as 5"
	case *cli.Float64Flag:
		return "want a number, such as 0.5"
	case *cli.BoolFlag:
		return "want true or false"
	case *cli.DurationFlag:
		return "want a duration, such as 1s or 500ms"
	}
	return "not a value this setting takes"
}

func configSetting(f *config.File, name string) (config.Setting, bool) {
	if f == nil {
		return config.Setting{}, false
	}
	s, ok := f.Settings[name]
	return s, ok
}

// tomlList writes values as a TOML list of strings.
func tomlList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// tomlValue writes one value as TOML (a number or boolean bare, else a
// string), several as a list.
func tomlValue(vs []string) string {
	if len(vs) != 1 {
		return tomlList(vs)
	}
	v := vs[0]
	if _, err := strconv.ParseFloat(v, 64); err == nil || v == "true" || v == "false" {
		return v
	}
	return fmt.Sprintf("%q", v)
}

// flagDefault returns the default of the flag of command, as text.
func flagDefault(app *cli.App, command, flag string) []string {
	switch x := flagOf(app.Command(command), flag).(type) {
	case *cli.StringSliceFlag:
		if x.Value == nil {
			return []string{}
		}
		return x.Value.Value()
	case *cli.BoolFlag:
		return []string{strconv.FormatBool(x.Value)}
	case cli.DocGenerationFlag:
		return []string{x.GetValue()}
	}
	return nil
}
