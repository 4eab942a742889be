package tokenize

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/caselink/caselink/eval/sharedtest"
)

var updateDigests = flag.Bool("update", false, "rewrite testdata/analysis-digests.txt")

// digestOptions are the option sets whose output TestOutputUnchanged pins:
// the defaults, every step on, every step off, each step off alone, the
// on-call steps (oncall.go) all off (the defaults before them) and all on, and
// single synonym groups and glossary sections switched off by name.
func digestOptions() map[string]Options {
	def := DefaultOptions()
	with := func(f func(o *Options)) Options { o := DefaultOptions(); f(&o); return o }
	return map[string]Options{
		"default":                  def,
		"all-on":                   allOn(),
		"all-off":                  {},
		"no-stem":                  with(func(o *Options) { o.Stem = false }),
		"no-split":                 with(func(o *Options) { o.SplitCompounds = false }),
		"no-synonyms":              with(func(o *Options) { o.Synonyms = false }),
		"no-stop":                  with(func(o *Options) { o.StopWords = false }),
		"drop-classes":             with(func(o *Options) { o.DropClasses = true }),
		"no-korean":                with(func(o *Options) { o.Korean = false }),
		"no-glossary":              with(func(o *Options) { o.Glossary = false }),
		"short-tokens":             with(func(o *Options) { o.MaxTokenBytes = 8 }),
		"synonyms-off-database":    with(func(o *Options) { offSynonyms(o, "database", "kubernetes") }),
		"glossary-off-first-three": with(func(o *Options) { offSections(o, GlossarySections()[:3]...) }),
		"oncall-off":               onCallOff(),
		"oncall-all-on":            with(func(o *Options) { o.IPLiterals, o.AlertCodes = true, true }),
	}
}

// corpusTexts returns every JSON string of the seeds and, without -short and
// when present, of the shared incidents and judged pastes (English and
// Korean), by corpus.
func corpusTexts(t *testing.T) map[string][]string {
	out := map[string][]string{}
	seeds, _ := filepath.Glob("../seeds/*.json")
	out["seeds"] = jsonStrings(t, seeds...)
	shared := []string{
		sharedtest.Path("data/incidents/cases.jsonl"),
		sharedtest.Path("data/incidents-judged/noisy-queries.jsonl"),
		sharedtest.Path("data/incidents-judged/queries-ko.jsonl"),
		sharedtest.Path("data/seeds-ko/queries-ko.jsonl"),
	}
	if testing.Short() {
		return out // the shared corpora take seconds: checked without -short
	}
	if sharedtest.Present(t, shared...) {
		out["shared"] = jsonStrings(t, shared...)
	}
	return out
}

// jsonStrings returns the string values of the JSON documents (whole files
// or JSON Lines) in files, in order.
func jsonStrings(t *testing.T, files ...string) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k])
			}
		}
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bufio.NewReader(fh))
		for dec.More() {
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			walk(v)
		}
		fh.Close()
	}
	return out
}

// TestOutputUnchanged pins the analyzer's exact output (every term's Text,
// Surface, Pos and Kind) on the corpora, as a digest per option set, so
// that a restructuring of the steps cannot change a term unnoticed. After a
// deliberate change of the output, rewrite the digests with -update.
func TestOutputUnchanged(t *testing.T) {
	const file = "testdata/analysis-digests.txt"
	want := map[string]string{}
	if b, err := os.ReadFile(file); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if k, v, ok := strings.Cut(l, " "); ok {
				want[k] = v
			}
		}
	}
	got := map[string]string{}
	for corpus, texts := range corpusTexts(t) {
		for name, o := range digestOptions() {
			a := New(o)
			h := sha256.New()
			for i, s := range texts {
				for _, term := range a.Analyze(s) {
					fmt.Fprintf(h, "%d\t%s\t%s\t%d\t%d\n", i, term.Text, term.Surface, term.Pos, term.Kind)
				}
			}
			key := corpus + "/" + name
			got[key] = fmt.Sprintf("%x", h.Sum(nil))
			if !*updateDigests && want[key] != got[key] {
				t.Errorf("%s: analysis output changed (digest %s, want %s)", key, got[key], want[key])
			}
		}
	}
	if *updateDigests {
		for k, v := range want { // keep the corpora absent here
			if _, ok := got[k]; !ok {
				got[k] = v
			}
		}
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %s\n", k, got[k])
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// offSynonyms turns off the synonym groups of the given canonical terms.
func offSynonyms(o *Options, canon ...string) { o.SynonymsOff = strings.Join(canon, ",") }

// offSections turns off the glossary sections of the given names.
func offSections(o *Options, names ...string) {
	o.GlossarySectionsOff = strings.Join(names, ", ")
}
