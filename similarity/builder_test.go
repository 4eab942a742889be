package similarity

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// readFile returns the content of path.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// buildStream indexes cases through a Builder, reading a case back from
// cases when asked.
func buildStream(t *testing.T, cases []*caselib.Case, cfg Config) (*Index, [32]byte) {
	t.Helper()
	ix, sum, _ := buildStreamFrom(t, cases, cfg, nil)
	return ix, sum
}

// buildStreamFrom is buildStream reusing prev's analysis when prev is not
// nil (it fails the test when the Builder refuses it), and returns how
// many cases' analysis was reused.
func buildStreamFrom(t *testing.T, cases []*caselib.Case, cfg Config, prev *Index) (*Index, [32]byte, int) {
	t.Helper()
	b, err := NewBuilder(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if prev != nil && !b.Reuse(prev) {
		t.Fatal("Reuse refused an index of the same analyzer")
	}
	for _, c := range cases {
		if err := b.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	ix, sum, err := b.Index(func(i int) (*caselib.Case, error) { return cases[i], nil })
	if err != nil {
		t.Fatal(err)
	}
	return ix, sum, b.Reused()
}

// An index built case by case, without holding the cases, is the index of
// the whole library: the same sum, the same cache file byte for byte (on
// one core, where a build's raw term ids do not depend on the scheduling),
// and the same answers (on every core).
func TestBuilderEqualsBuild(t *testing.T) {
	// Not parallel: it sets GOMAXPROCS. Three batches and a part.
	cases := synthLibrary(2*streamBatch+777, 11)
	cases[5].Org, cases[5].Date, cases[5].Domain = "Org A", "2024-02-03", []string{"dns", "storage"}
	cases[6].Org, cases[6].Date = "Org B", "not a date"
	cfg := DefaultConfig()
	prev := runtime.GOMAXPROCS(1)
	whole, err := BuildCases(cases, cfg)
	if err != nil {
		runtime.GOMAXPROCS(prev)
		t.Fatal(err)
	}
	streamed, sum := buildStream(t, cases, cfg)
	runtime.GOMAXPROCS(prev)
	if sum != CasesSum(cases) {
		t.Fatal("the Builder's sum is not the cases' DocsSum")
	}
	if streamed.HoldsCases() {
		t.Error("an index built from a stream says it holds its cases")
	}
	dir := t.TempDir()
	key := CacheKeyOf(sum, cfg, "test")
	a, b := filepath.Join(dir, "whole.idx"), filepath.Join(dir, "stream.idx")
	if err := whole.SaveCache(a, key); err != nil {
		t.Fatal(err)
	}
	if err := streamed.SaveCache(b, key); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, a), readFile(t, b)) {
		t.Fatal("the streamed index saves another file than the whole library's")
	}
	if got := streamed.Domains(5); len(got) != 2 || got[1] != "storage" || streamed.Org(6) != "Org B" {
		t.Fatalf("case fields: %q, %q", got, streamed.Org(6))
	}
	parallel, _ := buildStream(t, cases[:600], cfg)
	small, err := BuildCases(cases[:600], cfg)
	if err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, small, parallel)
}

// An index saves the same cache file however many cores built it: the
// workers of the analysis take chunks of cases in whatever order the
// scheduler lets them, and the file (term ids included) must not show it.
func TestCacheFileSameOnAnyCores(t *testing.T) {
	// Not parallel: it sets GOMAXPROCS.
	cases := synthLibrary(2*streamBatch+777, 5)
	cfg := DefaultConfig()
	dir := t.TempDir()
	key := CacheKeyOf(CasesSum(cases), cfg, "test")
	save := func(name string, procs int, stream bool) []byte {
		prev := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(prev)
		var ix *Index
		if stream {
			ix, _ = buildStream(t, cases, cfg)
		} else {
			var err error
			if ix, err = BuildCases(cases, cfg); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(dir, name)
		if err := ix.SaveCache(path, key); err != nil {
			t.Fatal(err)
		}
		return readFile(t, path)
	}
	for _, stream := range []bool{false, true} {
		one := save("one.idx", 1, stream)
		for i := range 2 {
			if !bytes.Equal(save(fmt.Sprint("many", i, ".idx"), 4, stream), one) {
				t.Fatalf("built on 4 cores (stream %v), the index saves another file than on one", stream)
			}
		}
	}
}

// A Builder refuses a repeated id, then every later call.
func TestBuilderRefusesRepeatedID(t *testing.T) {
	t.Parallel()
	cases := synthLibrary(3, 2)
	b, err := NewBuilder(DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*caselib.Case{cases[0], cases[1], cases[0]} {
		err = b.Add(c)
	}
	if err == nil {
		t.Fatal("a repeated id was taken")
	}
	if b.Add(cases[2]) == nil {
		t.Error("a Builder that failed took another case")
	}
	if _, _, err := b.Index(nil); err == nil {
		t.Error("a Builder that failed gave an index")
	}
}

// BenchmarkLoadIndexMemory compares the two ways of indexing a library of
// files: loading it whole and building (whole), and reading it as a
// stream into a Builder (stream). It reports the most heap in use from the
// start of the load to the index (peak-MB, sampled every few
// milliseconds) and the heap kept once built (kept-MB: the index, and for
// whole the library it holds). The synthetic libraries are written to a
// JSON Lines file first.
func BenchmarkLoadIndexMemory(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		path := c.path
		if c.synth > 0 {
			path = writeSynth(b, synthLibrary(c.synth, 1))
		} else {
			c.cases(b) // skips when absent
		}
		if c.n > 0 {
			b.Skip("a part of a file: no file to stream")
		}
		for _, way := range []string{"whole", "stream"} {
			b.Run(way, func(b *testing.B) {
				before := liveHeap()
				var ix *Index
				var lib *caselib.Library
				var peak uint64
				for range b.N {
					ix, lib = nil, nil
					stop := samplePeak(&peak)
					ix, lib = loadIndex(b, path, way == "stream")
					stop()
				}
				b.StopTimer()
				kept := float64(liveHeap()) - float64(before)
				b.ReportMetric(kept/(1<<20), "kept-MB")
				b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
				runtime.KeepAlive(ix)
				runtime.KeepAlive(lib)
			})
		}
	})
}

// loadIndex indexes the library of path, loaded whole or as a stream.
func loadIndex(b *testing.B, path string, stream bool) (*Index, *caselib.Library) {
	opts := caselib.LoadOptions{Lenient: true}
	if !stream {
		lib, err := caselib.Load([]string{path}, opts)
		if err != nil {
			b.Fatal(err)
		}
		ix, err := BuildCases(lib.Cases, DefaultConfig())
		if err != nil {
			b.Fatal(err)
		}
		return ix, lib
	}
	bl, err := NewBuilder(DefaultConfig(), nil)
	if err != nil {
		b.Fatal(err)
	}
	lib, err := caselib.Stream([]string{path}, opts, bl.Add)
	if err != nil {
		b.Fatal(err)
	}
	ix, _, err := bl.Index(func(int) (*caselib.Case, error) { return nil, errors.New("not read here") })
	if err != nil {
		b.Fatal(err)
	}
	return ix, lib
}

// writeSynth writes cases to a JSON Lines file, with the fields
// synthLibrary sets.
func writeSynth(b *testing.B, cases []*caselib.Case) string {
	type line struct {
		ID          string   `json:"id"`
		Date        string   `json:"date,omitempty"`
		Title       string   `json:"title"`
		Summary     string   `json:"summary,omitempty"`
		Remediation []string `json:"remediation,omitempty"`
		Domain      []string `json:"domain,omitempty"`
		Symptoms    []string `json:"symptoms,omitempty"`
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, c := range cases {
		l := line{ID: c.ID, Date: c.Date, Title: c.Title.EN, Summary: c.Summary.EN, Domain: c.Domain, Symptoms: c.Symptoms}
		for _, r := range c.Remediation {
			l.Remediation = append(l.Remediation, r.EN)
		}
		if err := enc.Encode(l); err != nil {
			b.Fatal(err)
		}
	}
	path := filepath.Join(b.TempDir(), "synth.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkBuilder times a Builder indexing a library given case by case
// (analysis, the documents' sum and weighing; not reading the file): what
// the streaming build costs past decoding. cpu-s/op is the process's CPU
// time (all cores) an operation.
func BenchmarkBuilder(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		cases := c.cases(b)
		runtime.GC()
		b.ResetTimer()
		cpu := processCPUTime()
		for range b.N {
			bl, err := NewBuilder(DefaultConfig(), nil)
			if err != nil {
				b.Fatal(err)
			}
			for _, cs := range cases {
				if err := bl.Add(cs); err != nil {
					b.Fatal(err)
				}
			}
			if _, _, err := bl.Index(nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric((processCPUTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
		b.ReportMetric(float64(len(cases)), "cases")
	})
}

// A Builder that reuses an index's analysis (a server reloading a library it
// indexed as a stream) returns the index of a fresh build: the same answers
// to match, relate and dupes. It analyzes only the cases that are new or
// whose text or tags changed, whether the old index was just built or opened
// from its cache file (without its cases, or for reuse alone), and however
// many of them wait for analysis at once.
func TestBuilderReuseEqualsBuild(t *testing.T) {
	t.Parallel()
	lib := synthLibrary(2*streamBatch+streamBatch/2+300, 7)
	spellVariously(lib)
	old := lib[:2*streamBatch]
	cfg := DefaultConfig()
	built, sum := buildStream(t, old, cfg)
	path := filepath.Join(t.TempDir(), "old.idx")
	if err := built.SaveCache(path, CacheKeyOf(sum, cfg, "test")); err != nil {
		t.Fatal(err)
	}
	opened, err := OpenCacheLazy(path, CacheKeyOf(sum, cfg, "test"), cfg, func(i int) (*caselib.Case, error) { return old[i], nil })
	if err != nil {
		t.Fatal(err)
	}
	// Case 10's title and case 11's tags change, case 12 gains a link (not
	// indexed), cases 20 and 30 go, case 40 moves to the end, and more new
	// cases than a batch come in the middle.
	retitled, retagged, linked := *old[10], *old[11], *old[12]
	retitled.Title.EN = "pods OOMKilled after the rollout " + retitled.Title.EN
	retagged.Symptoms = append([]string{"sym-new"}, retagged.Symptoms...)
	linked.Related = []string{old[13].ID}
	var now []*caselib.Case
	for i, c := range old {
		switch i {
		case 10:
			now = append(now, &retitled)
		case 11:
			now = append(now, &retagged)
		case 12:
			now = append(now, &linked)
		case 20, 30, 40:
		case 1000:
			now = append(now, lib[len(old):]...)
			now = append(now, c)
		default:
			now = append(now, c)
		}
	}
	now = append(now, old[40])
	wantReused := len(old) - 4 // all but 10, 11 (changed) and 20, 30 (gone)
	fresh, _ := buildStream(t, now, cfg)
	// Every case's relate and dupes would take seconds: every 17th
	// case's, and the changed ones'.
	answers := func(ix *Index) string {
		var b strings.Builder
		for i := range ix.Len() {
			if i%17 == 0 || i == 10 || i == 11 {
				fmt.Fprintln(&b, ix.Related(i, 5, 0), ix.DupesOf(i, 5, 0))
			}
		}
		return b.String()
	}
	want := answers(fresh)
	// Opened for reuse: the pages read to check the file are given back,
	// and what the Builder takes is read again from the file.
	forReuse, err := OpenCacheForReuse(path, CacheKeyOf(sum, cfg, "test"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := forReuse.ReadCase(0); err == nil {
		t.Error("an index opened for reuse read a case")
	}
	for name, prev := range map[string]*Index{"built": built, "opened": opened, "opened for reuse": forReuse} {
		re, sum, reused := buildStreamFrom(t, now, cfg, prev)
		if sum != CasesSum(now) {
			t.Errorf("%s: the sum is not the cases' DocsSum", name)
		}
		if reused != wantReused {
			t.Errorf("%s: %d cases' analysis reused, want %d", name, reused, wantReused)
		}
		sameSurfaces(t, re, fresh)
		if got := answers(re); got != want {
			t.Errorf("%s: relate or dupes differ from a fresh build:\nreused %.300s\nfresh  %.300s", name, got, want)
		}
		for _, q := range []string{"pods OOMKilled after the rollout", old[5].Summary.EN, lib[len(lib)-1].Title.EN, "sym-new"} {
			a, b := re.Match(Query{Text: q, K: 10}), fresh.Match(Query{Text: q, K: 10})
			if fmt.Sprint(a.Hits) != fmt.Sprint(b.Hits) {
				t.Errorf("%s: match %q differs:\nreused %v\nfresh  %v", name, q, a.Hits, b.Hits)
			}
		}
	}
	// Another analyzer makes other terms of the same text: nothing to reuse.
	other := cfg
	other.Analyzer.Stem = !other.Analyzer.Stem
	if b, _ := NewBuilder(other, nil); b.Reuse(built) {
		t.Error("Reuse took the analysis of an index with another analyzer")
	}
	// A vocabulary that reloads filled with terms no case uses any more
	// is left behind, as Reindex leaves it.
	small, _ := buildStream(t, old[:50], cfg)
	small.voc = small.voc.copy()
	for i := range 2*len(small.craw) + staleTerms {
		small.voc.intern(letters(i), "", 0)
	}
	if b, _ := NewBuilder(cfg, nil); b.Reuse(small) {
		t.Error("Reuse took a vocabulary of more unused terms than Reindex allows")
	}
}

// spellVariously writes the titles of every third case in capitals, so
// that a term's spelling depends on which case has it first.
func spellVariously(cases []*caselib.Case) {
	for i, c := range cases {
		if i%3 == 0 {
			c.Title.EN = strings.ToUpper(c.Title.EN)
		}
	}
}

// sameSurfaces fails the test unless a spells every term as b does (as the
// first case that has it writes it), which explanations and typo
// corrections show.
func sameSurfaces(t *testing.T, a, b *Index) {
	t.Helper()
	if len(a.craw) != len(b.craw) {
		t.Fatalf("%d terms in use, want %d", len(a.craw), len(b.craw))
	}
	bad := 0
	for c := range a.craw {
		ta, tb := a.voc.terms[a.craw[c]], b.voc.terms[b.craw[c]]
		if sa, sb := a.surfaceOf(uint32(c)), b.surfaceOf(uint32(c)); ta != tb || sa != sb {
			if bad++; bad <= 3 {
				t.Errorf("term %d: %q spelled %q, want %q spelled %q", c, ta, sa, tb, sb)
			}
		}
	}
	if bad > 3 {
		t.Errorf("%d terms in all spelled otherwise", bad)
	}
}
