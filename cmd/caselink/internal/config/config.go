// Package config finds and reads caselink.toml, the settings a team keeps
// beside its library or in the user's config folder, and says where each
// setting in force came from.
//
// The file holds the library (cases = ["./library"], or a postgres:// URL),
// the commands' defaults ([match], [relate], [dupes], and top-level top,
// min-score and dupes-threshold for the everyday ones), and [serve] (addr,
// tokens, host, notify, limits …). The [weights] table belongs to caselink
// tune, which writes it into the same file: this package reads past it.
// What does not live here: flag parsing (the CLI) and what the settings mean
// (the commands).
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// FileName is the config file in a library's folder.
const FileName = "caselink.toml"

// EnvConfig names a config file; EnvCases is the library, a list of paths
// joined by the system's path list separator (":" on Unix), or one
// postgres:// URL.
const (
	EnvConfig = "CASELINK_CONFIG"
	EnvCases  = "CASELINK_CASES"
)

// Setting is one flag's value set by the file.
type Setting struct {
	Flag   string   // the command's flag it sets, e.g. "top"
	Values []string // as the flag would be given, one per repetition
}

// key is one key the file may hold: its dotted name, the commands it is a
// flag of, the flag, and whether it is a path (made absolute against the
// file's folder).
type key struct {
	name     string
	commands []string // nil: every command with the flag
	flag     string
	path     bool
	list     bool
}

// keys are the settings of the file.
var keys = []key{
	{name: "cases", flag: "cases", path: true, list: true},
	{name: "top", commands: []string{"match"}, flag: "top"},
	{name: "min-score", commands: []string{"match"}, flag: "min-score"},
	{name: "dupes-threshold", commands: []string{"dupes"}, flag: "threshold"},
	{name: "match.top", commands: []string{"match"}, flag: "top"},
	{name: "match.min-score", commands: []string{"match"}, flag: "min-score"},
	{name: "relate.top", commands: []string{"relate"}, flag: "top"},
	{name: "relate.min-score", commands: []string{"relate"}, flag: "min-score"},
	{name: "dupes.threshold", commands: []string{"dupes"}, flag: "threshold"},
	{name: "serve.addr", commands: []string{"serve"}, flag: "addr"},
	{name: "serve.tokens", commands: []string{"serve"}, flag: "tokens", path: true},
	{name: "serve.host", commands: []string{"serve"}, flag: "host", list: true},
	{name: "serve.notify", commands: []string{"serve"}, flag: "notify"},
	{name: "serve.public-url", commands: []string{"serve"}, flag: "public-url"},
	{name: "serve.max-paste", commands: []string{"serve"}, flag: "max-paste"},
	{name: "serve.poll", commands: []string{"serve"}, flag: "poll"},
	{name: "serve.log-format", commands: []string{"serve"}, flag: "log-format"},
	{name: "serve.decisions", commands: []string{"serve"}, flag: "decisions", path: true},
	{name: "serve.insecure-no-auth", commands: []string{"serve"}, flag: "insecure-no-auth"},
	{name: "serve.limits.max-paste", commands: []string{"serve"}, flag: "max-paste"},
	{name: "serve.limits.max-case-size", commands: []string{"serve"}, flag: "max-case-size"},
	{name: "cache.max-size", commands: []string{"cache"}, flag: "max-size"},
}

// foreign are the tables other parts of caselink keep in the same file.
var foreign = []string{"weights"}

// File is a config file read.
type File struct {
	Path string // as found
	How  string // how it was found: "--config", "$CASELINK_CONFIG", "the library's folder", "$XDG_CONFIG_HOME"
	// Settings by key name (e.g. "serve.addr"), paths made absolute
	// against the file's folder.
	Settings map[string]Setting
}

// Read reads the config file at path. A key the file may not hold, a value
// of the wrong type or NaN is an error naming the file and the key.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	f := &File{Path: path, Settings: map[string]Setting{}}
	dir := filepath.Dir(path)
	for _, k := range md.Keys() {
		name := k.String()
		if slices.Contains(foreign, k[0]) {
			continue
		}
		if md.Type(k...) == "Hash" {
			if !slices.ContainsFunc(keys, func(x key) bool { return strings.HasPrefix(x.name, name+".") }) {
				return nil, fmt.Errorf("%s: unknown table [%s]", path, name)
			}
			continue
		}
		i := slices.IndexFunc(keys, func(x key) bool { return x.name == name })
		if i < 0 {
			return nil, fmt.Errorf("%s: unknown key %q (known: %s)", path, name, knownKeys())
		}
		vals, err := values(lookup(doc, k), keys[i].list)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", path, name, err)
		}
		if keys[i].path {
			for j, v := range vals {
				if !filepath.IsAbs(v) && !strings.Contains(v, "://") && v != "-" {
					vals[j] = filepath.Join(dir, v)
				}
			}
		}
		f.Settings[name] = Setting{Flag: keys[i].flag, Values: vals}
	}
	return f, nil
}

func knownKeys() string {
	var names []string
	for _, k := range keys {
		names = append(names, k.name)
	}
	return strings.Join(names, ", ")
}

func lookup(doc map[string]any, k toml.Key) any {
	var v any = doc
	for _, part := range k {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[part]
	}
	return v
}

// values turns a TOML value into flag values.
func values(v any, list bool) ([]string, error) {
	one := func(v any) (string, error) {
		switch x := v.(type) {
		case string:
			return x, nil
		case bool:
			return strconv.FormatBool(x), nil
		case int64:
			return strconv.FormatInt(x, 10), nil
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return "", fmt.Errorf("want a number, got %v", x)
			}
			return strconv.FormatFloat(x, 'g', -1, 64), nil
		}
		return "", fmt.Errorf("want a string, number or boolean, got %T", v)
	}
	if l, ok := v.([]any); ok {
		if !list {
			return nil, errors.New("want one value, got a list")
		}
		out := make([]string, 0, len(l))
		for _, x := range l {
			s, err := one(x)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	}
	s, err := one(v)
	if err != nil {
		return nil, err
	}
	return []string{s}, nil
}

// For returns the settings of the file for command, by flag, keys of the
// command's own table ([match] top) winning over top-level ones (top).
func (f *File) For(command string) map[string]Setting {
	out := map[string]Setting{}
	for _, k := range keys { // keys lists top-level keys before tables
		s, ok := f.Settings[k.name]
		if !ok || (k.commands != nil && !slices.Contains(k.commands, command)) {
			continue
		}
		out[k.flag] = s
	}
	return out
}

// Find returns the config file in force: LibraryFile when it names one
// (--config, $CASELINK_CONFIG, or a caselink.toml that exists in the
// library's folder), else $XDG_CONFIG_HOME/caselink/config.toml
// ($HOME/.config when unset). Nil when there is none; a file named by
// --config or $CASELINK_CONFIG that cannot be read is an error.
func Find(flagPath string, libraryPaths []string) (*File, error) {
	try := func(p, how string) (*File, error) {
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		f, err := Read(p)
		if err != nil {
			return nil, err
		}
		f.How = how
		return f, nil
	}
	p, how := LibraryFile(flagPath, libraryPaths)
	if named := how != HowFolder; p != "" && named {
		f, err := Read(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", how, err)
		}
		f.How = how
		return f, nil
	}
	if p != "" {
		if f, err := try(p, how); f != nil || err != nil {
			return f, err
		}
	}
	if p := userConfig(); p != "" {
		return try(p, "$XDG_CONFIG_HOME")
	}
	return nil, nil
}

// HowFolder is how LibraryFile says it found the caselink.toml of the
// library's folder (the others are "--config" and "$CASELINK_CONFIG").
const HowFolder = "the library's folder"

// LibraryFile is caselink's one lookup of a library's caselink.toml, for
// its settings (Find) and its tuned weights (cmd/caselink's weightsAt):
// flagPath (--config) when given, else $CASELINK_CONFIG, else FileName in
// the library's folder (LibraryFolder), whether or not it exists yet (tune
// --write creates it). how says which ("--config", "$CASELINK_CONFIG",
// HowFolder). It returns "" when there is none: the embedded seeds,
// standard input, a postgres:// library or a path that cannot be reached.
func LibraryFile(flagPath string, libraryPaths []string) (path, how string) {
	if flagPath != "" {
		return flagPath, "--config"
	}
	if p := os.Getenv(EnvConfig); p != "" {
		return p, "$" + EnvConfig
	}
	if dir := LibraryFolder(libraryPaths); dir != "" {
		return filepath.Join(dir, FileName), HowFolder
	}
	return "", ""
}

// LibraryFolder returns the folder of a library named by paths: the first
// path when it is a folder, else its folder; "" for none, standard input or
// a postgres:// library.
func LibraryFolder(paths []string) string {
	if len(paths) == 0 || paths[0] == "-" || strings.Contains(paths[0], "://") {
		return ""
	}
	st, err := os.Stat(paths[0])
	if err != nil {
		return ""
	}
	if st.IsDir() {
		return paths[0]
	}
	return filepath.Dir(paths[0])
}

func userConfig() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "caselink", "config.toml")
}

// EnvLibrary returns the library named by $CASELINK_CASES: its paths split
// at the path list separator, or the one postgres:// URL it holds (which
// may contain the separator). Empty when unset.
func EnvLibrary() []string {
	v := strings.TrimSpace(os.Getenv(EnvCases))
	if v == "" {
		return nil
	}
	if strings.HasPrefix(v, "postgres://") || strings.HasPrefix(v, "postgresql://") {
		return []string{v}
	}
	var out []string
	for _, p := range filepath.SplitList(v) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Key describes one key a file may hold: its dotted name, the command
// whose flag it sets ("" for every command with the flag) and the flag.
// Alias is true for a top-level shorthand of a table's key (top for
// match.top).
type Key struct {
	Name, Command, Flag string
	Alias               bool
}

// Keys returns the keys a file may hold, in the order caselink config
// prints them.
func Keys() []Key {
	var out []Key
	for _, k := range keys {
		c := ""
		if len(k.commands) > 0 {
			c = k.commands[0]
		}
		out = append(out, Key{Name: k.name, Command: c, Flag: k.flag, Alias: k.name != "cases" && !strings.Contains(k.name, ".")})
	}
	return out
}

// Names returns the keys a file may hold, sorted.
func Names() []string {
	var out []string
	for _, k := range keys {
		out = append(out, k.name)
	}
	sort.Strings(out)
	return out
}
