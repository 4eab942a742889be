package tuned

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

func TestSaveKeepsTheRestOfTheFile(t *testing.T) {
	w := Weights{Values: map[string]float64{"tags": 0, "cause": 0.6}, Note: "test"}
	table := "[weights]\nnote = \"test\"\ncause = 0.6\ntags = 0\n"
	for _, tc := range []struct{ name, before, after string }{
		{"no file", "", table},
		{"table added at the end", "# top\n[serve]\naddr = \"127.0.0.1:1\"", "# top\n[serve]\naddr = \"127.0.0.1:1\"\n\n" + table},
		{"table replaced in the middle", "[serve]\nx = 1 # keep\n\n[weights]\ntags = 0.5\n# old\n\n[weights.sub]\ny = 2\n[other]\nz = [\n  1,\n  2,\n]\n",
			"[serve]\nx = 1 # keep\n\n" + table + "\n[other]\nz = [\n  1,\n  2,\n]\n"},
		{"table last", "a = 1\n[weights]\ntags = 0.5\n", "a = 1\n" + table},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			if tc.before != "" {
				if err := os.WriteFile(path, []byte(tc.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := Save(path, w); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tc.after {
				t.Errorf("file:\n%s\nwant:\n%s", got, tc.after)
			}
			back, err := Load(path)
			if err != nil || back.Note != "test" || len(back.Values) != 2 || back.Values["cause"] != 0.6 {
				t.Errorf("Load = %+v, %v", back, err)
			}
			if st, _ := os.Stat(path); tc.before != "" && st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want the original's 0600", st.Mode().Perm())
			}
		})
	}
}

func TestSaveRefusesWhatItCannotPlace(t *testing.T) {
	for _, before := range []string{
		"weights = { tags = 0.5 }\n", // the table inline: splicing would define it twice
		"[serve\nbroken",             // not TOML: left for the user to fix
	} {
		path := filepath.Join(t.TempDir(), FileName)
		os.WriteFile(path, []byte(before), 0o644)
		err := Save(path, Weights{Values: map[string]float64{"tags": 0}})
		got, _ := os.ReadFile(path)
		if string(got) != before {
			t.Errorf("%q: file changed to %q", before, got)
		}
		if err == nil {
			t.Errorf("%q: Save succeeded", before)
		}
	}
}

func TestLoadErrorsNameFileAndKey(t *testing.T) {
	dir := t.TempDir()
	for body, want := range map[string]string{
		"[weights]\ntagz = 1\n":                                        `unknown key "tagz"`,
		"[weights]\ntags = 2\n":                                        "tags = 2: want a number from 0 to 1",
		"[weights]\ntags = \"high\"\n":                                 `tags = "high": want a number`,
		"[weights]\nsymptoms = 0\ncause = 0\nresponse = 0\ntags = 0\n": "every view weighs 0",
		"weights = 3\n":                                                "weights is not a table",
	} {
		path := filepath.Join(dir, "c.toml")
		os.WriteFile(path, []byte(body), 0o644)
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: error %v, want the file and %q", body, err, want)
		}
	}
	w, err := Load(filepath.Join(dir, "absent.toml"))
	if err != nil || !w.Empty() {
		t.Errorf("absent file: %+v, %v", w, err)
	}
}

func TestApplyCapture(t *testing.T) {
	cfg := similarity.DefaultConfig()
	Apply(&cfg, Weights{Values: map[string]float64{"tags": 0.1, "tag_component": 0.2, "second_stage": 0.5}})
	if cfg.Views[similarity.Tags] != 0.1 || cfg.TagKinds[2] != 0.2 || cfg.Expand != 0.5 {
		t.Errorf("Apply: views %v kinds %v expand %v", cfg.Views, cfg.TagKinds, cfg.Expand)
	}
	got := Capture(cfg, "tags", "relate_date")
	if len(got.Values) != 2 || got.Values["tags"] != 0.1 || got.Values["relate_date"] != cfg.RelateDate {
		t.Errorf("Capture = %v", got.Values)
	}
	if len(Capture(cfg).Values) != len(Fields) {
		t.Errorf("Capture() has %d keys, want every field", len(Capture(cfg).Values))
	}
}

func TestCuratedLeavesOutRelateLinks(t *testing.T) {
	cases := []*caselib.Case{
		{ID: "a", Related: []string{"b", "c", "zz"}},
		{ID: "b", Related: []string{"a"}},
		{ID: "c"}, {ID: "d"}, {ID: "e"},
	}
	machine := map[Link]bool{{"a", "c"}: true}
	ds := []caselib.Decision{{A: "d", B: "e", Verdict: caselib.Duplicate}, {A: "c", B: "d", Verdict: caselib.NotDuplicate}}
	s := Curated(cases, machine, ds)
	if s.Links != 2 || s.Machine != 1 || s.Unknown != 1 || s.Duplicates != 1 || s.NotDuplicates != 1 {
		t.Errorf("signal %+v", s)
	}
	if s.Related["a"]["c"] != 0 || s.Related["a"]["b"] != 1 || s.Related["b"]["a"] != 1 || s.Related["e"]["d"] != 2 {
		t.Errorf("related %v", s.Related)
	}
	// a-b is one group, d-e (a confirmed duplicate) another; the dismissed
	// pair c-d joins nothing, so c is a group of its own.
	if s.Groups != 3 || s.group["d"] != s.group["e"] || s.group["c"] != "case:c" || s.group["a"] == s.group["d"] {
		t.Errorf("groups %d: %v", s.Groups, s.group)
	}
	if err := s.Enough(2); err == nil || !strings.Contains(err.Error(), "too few curated links") {
		t.Errorf("Enough: %v", err)
	}
}

func TestRecordLinks(t *testing.T) {
	path := filepath.Join(t.TempDir(), LinksName)
	if err := RecordLinks(path, map[string][]string{"b": {"a"}, "a": {"c", "b"}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := RecordLinks(path, nil, map[string][]string{"a": {"c"}}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := linksHeader + "\na\tb\nb\ta\n"
	if string(got) != want {
		t.Errorf("file %q, want %q", got, want)
	}
	st, _ := os.Stat(path)
	if err := RecordLinks(path, map[string][]string{"a": {"b"}}, nil); err != nil {
		t.Fatal(err)
	}
	if st2, _ := os.Stat(path); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("recording a known link rewrote the file")
	}
	links, err := ReadLinks(path)
	if err != nil || len(links) != 2 || !links[Link{"b", "a"}] {
		t.Errorf("ReadLinks = %v, %v", links, err)
	}
}

// TestRecordLinksHashIDs: links of cases whose ids start with # (issue
// numbers) are read back from the record, though their lines start with #,
// so tune leaves them out as it does every link relate wrote. They used to
// be read as comments, and so taken for curated links.
func TestRecordLinksHashIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), LinksName)
	if err := RecordLinks(path, map[string][]string{"#12": {"#34", "a"}, "a": {"#12"}}, nil); err != nil {
		t.Fatal(err)
	}
	links, err := ReadLinks(path)
	want := map[Link]bool{{"#12", "#34"}: true, {"#12", "a"}: true, {"a", "#12"}: true}
	if err != nil || !maps.Equal(links, want) {
		t.Fatalf("ReadLinks = %v, %v; want %v", links, err, want)
	}
	// Recording again merges with the file as read: nothing is lost.
	if err := RecordLinks(path, map[string][]string{"b": {"#12"}}, nil); err != nil {
		t.Fatal(err)
	}
	want[Link{"b", "#12"}] = true
	if links, err = ReadLinks(path); err != nil || !maps.Equal(links, want) {
		t.Fatalf("after a second record, ReadLinks = %v, %v; want %v", links, err, want)
	}
}

// TestRecordLinksAsSet: RecordLinks, which merges a sorted file with the
// links added as it reads it, writes what updating the set of the file's
// links and writing it sorted writes, and leaves the file alone when the set
// does not change; for files in their own order, out of order, with
// repeated links, comments and CRLF line ends, and no file at all.
func TestRecordLinksAsSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ids := []string{"a", "b", "c", "d", "e", "f", "ab", "B"}
	pick := func() string { return ids[rng.IntN(len(ids))] }
	links := func(n int) map[string][]string {
		m := map[string][]string{}
		for range n {
			f := pick()
			m[f] = append(m[f], pick())
		}
		return m
	}
	dir := t.TempDir()
	for round := range 400 {
		path := filepath.Join(dir, fmt.Sprintf("%d.tsv", round))
		var file []byte
		if round%10 != 0 { // else no file
			var lines []string
			for range rng.IntN(12) {
				lines = append(lines, pick()+"\t"+pick())
			}
			if round%3 != 0 { // else as written by hand: any order, repeats
				slices.Sort(lines)
				if round%7 != 3 { // else in order with repeats
					lines = slices.Compact(lines)
				}
			}
			if round%4 == 1 {
				lines = append([]string{"# a comment", ""}, lines...)
			}
			sep := "\n"
			if round%5 == 2 {
				sep = "\r\n"
			}
			file = []byte(strings.Join(lines, sep) + sep)
			if err := os.WriteFile(path, file, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		add, remove := links(rng.IntN(6)), links(rng.IntN(3))
		have, err := ParseLinks(path, file)
		if err != nil {
			t.Fatal(err)
		}
		want := file
		if UpdateLinks(have, add, remove) {
			if want, err = FormatLinks(have); err != nil {
				t.Fatal(err)
			}
		}
		if err := RecordLinks(path, add, remove); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		got, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			got, err = nil, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: file %q\nadd %v remove %v\ngot  %q\nwant %q", round, file, add, remove, got, want)
		}
	}
}

// TestRecordLinksRefusals: a line that is no link, and a link the file
// cannot hold, are refused as before, leaving the file as it was.
func TestRecordLinksRefusals(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, LinksName)
	bad := []byte(linksHeader + "\na\tb\nc\n")
	os.WriteFile(path, bad, 0o644)
	if err := RecordLinks(path, map[string][]string{"x": {"y"}}, nil); err == nil || err.Error() != path+":3: want case<TAB>linked case" {
		t.Errorf("bad line: %v", err)
	}
	os.WriteFile(path, []byte(linksHeader+"\na\tb\n"), 0o644)
	err := RecordLinks(path, map[string][]string{"x\ny": {"z"}}, nil)
	if err == nil || !strings.Contains(err.Error(), path+`: case ids "x\ny", "z": tabs and line breaks`) {
		t.Errorf("bad id: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != linksHeader+"\na\tb\n" {
		t.Errorf("file changed by a refused record: %q", got)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*tmp")); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}
