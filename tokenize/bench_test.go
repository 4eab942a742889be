package tokenize

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/caselink/caselink/eval/sharedtest"
)

// collect appends every string stored under the key lang ("en", "ko")
// anywhere in v.
func collect(v any, lang string, out []string) []string {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == lang {
				out = append(out, s)
				continue
			}
			out = collect(e, lang, out)
		}
	case []any:
		for _, e := range x {
			out = collect(e, lang, out)
		}
	}
	return out
}

// seedTexts returns the English strings of the seed cases in ../seeds.
func seedTexts(tb testing.TB) []string { return seedLangTexts(tb, "en") }

// seedKoreanTexts returns the Korean strings (ko) of the seed cases.
func seedKoreanTexts(tb testing.TB) []string { return seedLangTexts(tb, "ko") }

// seedLangTexts returns the strings of the seed cases in one language.
func seedLangTexts(tb testing.TB, lang string) []string {
	tb.Helper()
	files, err := filepath.Glob("../seeds/*.json")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no seed files: %v", err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		out = collect(v, lang, out)
	}
	return out
}

var incidentsPath = sharedtest.Path("data/incidents/cases.jsonl")

// loadIncidents returns title.en and summary.en of every case in the
// shared incident corpus.
func loadIncidents() ([]string, error) {
	f, err := os.Open(incidentsPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	type en struct {
		EN *string `json:"en"`
	}
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var c struct {
			Title   en `json:"title"`
			Summary en `json:"summary"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, err
		}
		for _, s := range []*string{c.Title.EN, c.Summary.EN} {
			if s != nil && *s != "" {
				out = append(out, *s)
			}
		}
	}
	return out, sc.Err()
}

// incidentTexts returns loadIncidents, skipping (or, with shared data
// required, failing) when the corpus is absent; a corpus present but
// unreadable fails.
func incidentTexts(tb testing.TB) []string {
	tb.Helper()
	sharedtest.Need(tb, incidentsPath)
	out, err := loadIncidents()
	if err != nil {
		tb.Fatalf("incident corpus unreadable: %v", err)
	}
	return out
}

// benchTexts analyzes texts b.N times, reporting MB/s, MB per CPU second,
// allocations per token and terms per token.
func benchTexts(b *testing.B, texts []string, opts Options) {
	a := New(opts)
	size, tokens := 0, 0
	for _, t := range texts {
		size += len(t)
		tokens += len(segment(t, nil))
	}
	var dst []Term
	for _, t := range texts { // warm the word cache, as a long-running indexer would
		dst = a.AppendTerms(dst[:0], t)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 := processCPUTime()
	terms := 0
	for i := 0; i < b.N; i++ {
		terms = 0
		for _, t := range texts {
			dst = a.AppendTerms(dst[:0], t)
			terms += len(dst)
		}
	}
	b.StopTimer()
	if cpu := processCPUTime() - cpu0; cpu > 0 {
		// throughput per CPU second: robust when other processes share the machine
		b.ReportMetric(float64(size)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
	runtime.ReadMemStats(&ms1)
	n := float64(b.N) * float64(tokens)
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/n, "allocs/token")
	b.ReportMetric(float64(terms)/float64(tokens), "terms/token")
}

// BenchmarkAnalyzeKorean analyzes the Korean text of the seed cases (the
// target is 15 MB/s on one core).
func BenchmarkAnalyzeKorean(b *testing.B) {
	benchTexts(b, seedKoreanTexts(b), DefaultOptions())
}

// BenchmarkAnalyzeSeeds analyzes the English text of the seed cases.
func BenchmarkAnalyzeSeeds(b *testing.B) {
	benchTexts(b, seedTexts(b), DefaultOptions())
}

// BenchmarkAnalyzeIncidents analyzes title and summary of every case of the
// shared incident corpus.
func BenchmarkAnalyzeIncidents(b *testing.B) {
	benchTexts(b, incidentTexts(b), DefaultOptions())
}

// BenchmarkAnalyzeIncidentsAllOn turns every step on, bigrams included.
func BenchmarkAnalyzeIncidentsAllOn(b *testing.B) {
	o := DefaultOptions()
	o.Bigrams = true
	benchTexts(b, incidentTexts(b), o)
}

// BenchmarkAnalyzeIncidentsCold builds a new Analyzer per pass, so every
// distinct word is normalized and stemmed once per pass (an empty cache).
func BenchmarkAnalyzeIncidentsCold(b *testing.B) {
	texts := incidentTexts(b)
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var dst []Term
	cpu0 := processCPUTime()
	for i := 0; i < b.N; i++ {
		a := New(DefaultOptions())
		for _, t := range texts {
			dst = a.AppendTerms(dst[:0], t)
		}
	}
	b.StopTimer()
	if cpu := processCPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkAnalyzeIncidentsParallel analyzes the corpus from GOMAXPROCS
// goroutines sharing one Analyzer, as the engine's parallel indexer does.
func BenchmarkAnalyzeIncidentsParallel(b *testing.B) {
	texts := incidentTexts(b)
	a := New(DefaultOptions())
	size := 0
	for _, t := range texts {
		size += len(t)
		a.Analyze(t)
	}
	b.SetBytes(int64(size) / int64(len(texts)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPUTime()
	b.RunParallel(func(pb *testing.PB) {
		var dst []Term
		i := 0
		for pb.Next() {
			dst = a.AppendTerms(dst[:0], texts[i%len(texts)])
			i++
		}
	})
	b.StopTimer()
	if cpu := processCPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(size)/float64(len(texts))*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
}
