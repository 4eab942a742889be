package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) string {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	p := write(t, filepath.Join(dir, FileName), `cases = ["lib", "/abs/more.jsonl", "postgres://db/x?table=cases"]
top = 2
[match]
top = 4
[serve]
host = "a.example"
insecure-no-auth = true
max-paste = "32KiB"
[weights]
"view.symptoms" = 1.2
[weights.future]
anything = "goes"
`)
	f, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Settings["cases"].Values, []string{filepath.Join(dir, "lib"), "/abs/more.jsonl", "postgres://db/x?table=cases"}; !reflect.DeepEqual(got, want) {
		t.Errorf("cases %v, want %v", got, want)
	}
	m := f.For("match")
	if m["top"].Values[0] != "4" || m["cases"].Flag != "cases" || m["addr"].Flag != "" {
		t.Errorf("For(match) = %v: want [match] top over top-level top, no serve keys", m)
	}
	s := f.For("serve")
	if s["host"].Values[0] != "a.example" || s["insecure-no-auth"].Values[0] != "true" || s["max-paste"].Values[0] != "32KiB" {
		t.Errorf("For(serve) = %v", s)
	}
	for text, want := range map[string]string{
		"tpo = 3":                 ` unknown key "tpo"`,
		"[serv]\naddr = \"x\"":    "unknown table [serv]",
		"top = [1, 2]":            "top: want one value, got a list",
		"min-score = nan":         "min-score: want a number, got NaN",
		"[serve]\naddr = 8080":    "", // a number where a string is wanted: the flag refuses it later
		"top = ":                  ":1: ",
		"[serve]\nhost = [1, {}]": "serve.host: want a string",
	} {
		_, err := Read(write(t, filepath.Join(dir, "bad.toml"), text))
		if want == "" {
			if err != nil {
				t.Errorf("%q: %v", text, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), filepath.Join(dir, "bad.toml")) {
			t.Errorf("%q: err %v, want one naming the file and %q", text, err, want)
		}
	}
}

func TestFindOrder(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	named := write(t, filepath.Join(dir, "named.toml"), "top = 1\n")
	env := write(t, filepath.Join(dir, "env.toml"), "top = 2\n")
	write(t, filepath.Join(lib, FileName), "top = 3\n")
	xdg := filepath.Join(dir, "xdg")
	write(t, filepath.Join(xdg, "caselink", "config.toml"), "top = 4\n")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Setenv(EnvConfig, env)
	check := func(flag string, paths []string, wantPath, wantHow string) {
		t.Helper()
		f, err := Find(flag, paths)
		if err != nil || f == nil || f.Path != wantPath || f.How != wantHow {
			t.Errorf("Find(%q, %v) = %+v, %v; want %s by %s", flag, paths, f, err, wantPath, wantHow)
		}
	}
	check(named, []string{lib}, named, "--config")
	check("", []string{lib}, env, "$"+EnvConfig)
	t.Setenv(EnvConfig, "")
	check("", []string{lib}, filepath.Join(lib, FileName), "the library's folder")
	check("", []string{filepath.Join(lib, "a.json")}, filepath.Join(xdg, "caselink", "config.toml"), "$XDG_CONFIG_HOME") // no such file: no folder
	check("", nil, filepath.Join(xdg, "caselink", "config.toml"), "$XDG_CONFIG_HOME")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "none"))
	if f, err := Find("", nil); f != nil || err != nil {
		t.Errorf("no file anywhere: %+v, %v", f, err)
	}
	if _, err := Find(filepath.Join(dir, "missing.toml"), nil); err == nil || !strings.HasPrefix(err.Error(), "--config: ") {
		t.Errorf("a missing --config file: %v", err)
	}
}

func TestEnvLibrary(t *testing.T) {
	sep := string(os.PathListSeparator)
	for v, want := range map[string][]string{
		"":                                    nil,
		"lib":                                 {"lib"},
		"lib" + sep + "more.jsonl" + sep:      {"lib", "more.jsonl"},
		"postgres://db:5432/x?table=cases":    {"postgres://db:5432/x?table=cases"},
		" postgresql://u:p@db/x?table=cases ": {"postgresql://u:p@db/x?table=cases"},
	} {
		t.Setenv(EnvCases, v)
		if got := EnvLibrary(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s=%q: %v, want %v", EnvCases, v, got, want)
		}
	}
}

// LibraryFile, the lookup the tuned weights use, names the file Find reads
// the settings from whenever that file is the library's (not the user's):
// settings and weights never come from two files.
func TestLibraryFileIsFindsFile(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	named := write(t, filepath.Join(dir, "named.toml"), "top = 1\n")
	env := write(t, filepath.Join(dir, "env.toml"), "top = 2\n")
	write(t, filepath.Join(lib, FileName), "top = 3\n")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "none"))
	for _, c := range []struct {
		flag, env string
		paths     []string
	}{
		{named, env, []string{lib}},
		{"", env, []string{lib}},
		{"", "", []string{lib}},
		{"", "", []string{filepath.Join(lib, FileName), "other"}},
	} {
		t.Setenv(EnvConfig, c.env)
		f, err := Find(c.flag, c.paths)
		p, how := LibraryFile(c.flag, c.paths)
		if err != nil || f == nil || f.Path != p || f.How != how {
			t.Errorf("flag %q, env %q, paths %v: Find reads %+v (%v), LibraryFile names %s by %s", c.flag, c.env, c.paths, f, err, p, how)
		}
	}
	t.Setenv(EnvConfig, "")
	for _, paths := range [][]string{nil, {"-"}, {"postgres://h/db?table=t"}, {filepath.Join(dir, "gone")}} {
		if p, _ := LibraryFile("", paths); p != "" {
			t.Errorf("%v: LibraryFile names %s, want none", paths, p)
		}
	}
}
