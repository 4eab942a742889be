package similarity

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caselink/caselink/eval/sharedtest"
	"github.com/caselink/caselink/similarity/caselib"
)

// The benchmarks run in families over libraries of several sizes, like
// gonum's BenchmarkMulDense…: BenchmarkBuild/synth-10k, BenchmarkMatch/synth-10k
// and so on.
//
//   - synth-1k, synth-10k, synth-100k are seeded synthetic libraries
//     (synthLibrary): they run on a clean clone, and give the same library
//     on every machine.
//   - 1k and 6.8k are the real incidents of ../shared (the first 1,000, all
//     6,854); 20k and 100k their scale-ups made with
//     ../shared/bench/scale_corpus.py (set CASELINK_CORPUS_20K /
//     CASELINK_CORPUS_100K to their paths). They skip when absent.
//
// Select a size with -bench 'Match/synth-10k$'. The 100k sizes take seconds
// to build (once per process: the indexes are shared by the families), and
// AllRelated and Duplicates over 100k cases tens of seconds an operation
// (the README's performance section); leave them out with, e.g.,
// -bench '/^(synth-)?10?k$' (sizes 1k and 10k) when that is too long.

// corpus is one size of a benchmark family.
type corpus struct {
	name   string
	synth  int    // > 0: a synthetic library of this many cases
	path   string // else a library file (the first n cases when n > 0)
	n      int
	shared bool // path is in ../shared: required in CI (see package sharedtest)
}

func corpora() []corpus {
	return []corpus{
		{name: "synth-1k", synth: 1000},
		{name: "synth-10k", synth: 10000},
		{name: "synth-100k", synth: 100000},
		{name: "1k", path: incidents, n: 1000, shared: true},
		{name: "6.8k", path: incidents, shared: true},
		{name: "20k", path: os.Getenv("CASELINK_CORPUS_20K")},
		{name: "100k", path: os.Getenv("CASELINK_CORPUS_100K")},
	}
}

// cases returns the corpus's cases, or skips when they are absent.
func (c corpus) cases(b *testing.B) []*caselib.Case {
	b.Helper()
	if c.synth > 0 {
		return synthLibrary(c.synth, 1)
	}
	switch {
	case c.shared:
		sharedtest.Need(b, c.path)
	case c.path == "":
		b.Skip("corpus path not set")
	default:
		if _, err := os.Stat(c.path); err != nil {
			b.Skipf("%s absent", c.path)
		}
	}
	lib, err := caselib.Load([]string{c.path}, caselib.LoadOptions{Lenient: true})
	if err != nil {
		b.Fatal(err)
	}
	cases := lib.Cases
	if c.n > 0 && c.n < len(cases) {
		cases = cases[:c.n]
	}
	return cases
}

var incidents = sharedtest.Path("data/incidents/cases.jsonl")

var (
	benchMu      sync.Mutex
	benchIndexes = map[string]*Index{}
)

// index returns the corpus built with the default configuration, built once
// per process.
func (c corpus) index(b *testing.B) *Index {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	if ix, ok := benchIndexes[c.name]; ok {
		return ix
	}
	ix, err := BuildCases(c.cases(b), DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	ix.opts = benchOptions()
	benchIndexes[c.name] = ix
	return ix
}

// paste is a realistic on-call paste for the corpus: for real incidents,
// alert lines and a sentence; for a synthetic library (whose words are
// made up), the title and summary of a case in the middle.
func (c corpus) paste(ix *Index) string {
	if c.synth > 0 {
		cs := ix.Case(ix.Len() / 2)
		return strings.TrimSpace(cs.Title.EN + "\n" + cs.Summary.EN)
	}
	return benchPaste
}

// A realistic on-call paste: alert lines and a sentence.
const benchPaste = `[FIRING:2] KubePodCrashLooping: pod api-7f9c OOMKilled in us-east-1, restarts 14
HTTP 503 from the load balancer, p99 latency 4.2s, connection pool exhausted on postgres
started right after the 14:05 deploy, rolling back now`

// family runs bench on every corpus, as sub-benchmarks named by size.
func family(b *testing.B, bench func(b *testing.B, c corpus)) {
	for _, c := range corpora() {
		b.Run(c.name, func(b *testing.B) { bench(b, c) })
	}
}

func BenchmarkBuild(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		docs := Documents(c.cases(b))
		b.ResetTimer()
		for range b.N {
			if _, err := Build(docs, DefaultConfig()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(docs)), "cases")
	})
}

// BenchmarkIndexMemory reports what an index holds: the heap it keeps
// once built (index-MB; the cases it indexes are not counted), that per
// posting (B/posting), and the most heap in use while building, cases
// included (peak-MB, sampled every few milliseconds). Compare sizes: the
// bytes per posting should not grow with the library.
func BenchmarkIndexMemory(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		cases := c.cases(b)
		before := liveHeap()
		var ix *Index
		var peak uint64
		b.ResetTimer()
		for range b.N {
			ix = nil
			stop := samplePeak(&peak)
			var err error
			if ix, err = BuildCases(cases, DefaultConfig()); err != nil {
				b.Fatal(err)
			}
			stop()
		}
		b.StopTimer()
		kept := float64(liveHeap()) - float64(before)
		b.ReportMetric(kept/(1<<20), "index-MB")
		b.ReportMetric(kept/float64(ix.Postings()), "B/posting")
		b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
		runtime.KeepAlive(ix)
	})
}

// liveHeap returns the bytes of heap objects still reachable.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC() // the first may leave finalized objects for the second
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// samplePeak records the largest heap in use into peak until stopped.
func samplePeak(peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			*peak = max(*peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// BenchmarkOpenCache opens a saved index, as a warm command does (the
// documents are made beforehand, as the caller's).
func BenchmarkOpenCache(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		ix := c.index(b)
		docs := Documents(ix.Cases())
		key := CacheKey(docs, ix.Config(), "bench")
		path := b.TempDir() + "/index"
		if err := ix.SaveCache(path, key); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			if _, err := OpenCache(path, key, docs, ix.Config()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkMatch(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		ix := c.index(b)
		q := Query{Text: c.paste(ix), K: 5}
		b.ResetTimer()
		for range b.N {
			ix.Match(q)
		}
	})
}

// BenchmarkMatchTitles matches the titles of 200 cases spread over the
// library, one a iteration, as `caselink bench` does without a query file:
// short pastes, each with its own case among the hits.
func BenchmarkMatchTitles(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		ix := c.index(b)
		var texts []string
		for i := 0; i < ix.Len(); i += max(1, ix.Len()/200) {
			texts = append(texts, ix.Case(i).Title.EN)
		}
		b.ResetTimer()
		for i := range b.N {
			ix.Match(Query{Text: texts[i%len(texts)], K: 10})
		}
	})
}

// BenchmarkMatchPastes matches long pastes, one an iteration: for the real
// libraries the 40 on-call pastes of ../shared/data/real-pastes (alert
// lines, logs and messages of 15 to 90 words, full of common ones), for the
// synthetic ones pastes made of the titles and summaries of three cases.
func BenchmarkMatchPastes(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		ix := c.index(b)
		var texts []string
		if c.synth > 0 {
			r := rand.New(rand.NewPCG(3, 3))
			for range 40 {
				texts = append(texts, longPaste(ix, r, 3))
			}
		} else {
			sharedtest.Need(b, realPastes)
			texts = pasteTexts(b, realPastes)
		}
		b.ResetTimer()
		for i := range b.N {
			ix.Match(Query{Text: texts[i%len(texts)], K: 10})
		}
	})
}

var realPastes = sharedtest.Path("data/real-pastes/queries.jsonl")

// BenchmarkRelated relates one case after another (a different case each
// iteration, cycling through the library).
func BenchmarkRelated(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		ix := c.index(b)
		b.ResetTimer()
		for i := range b.N {
			ix.Related((i*7919)%ix.Len(), 10, 0)
		}
	})
}

func BenchmarkAllRelated(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		ix := c.index(b)
		b.ResetTimer()
		for range b.N {
			ix.AllRelated(10, 0, nil)
		}
		b.ReportMetric(float64(ix.Len()), "cases")
	})
}

func BenchmarkDuplicates(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		ix := c.index(b)
		b.ResetTimer()
		var pairs int
		for range b.N {
			pairs = len(ix.Duplicates(0.5, 5, nil))
		}
		b.ReportMetric(float64(ix.Len()), "cases")
		b.ReportMetric(float64(pairs), "pairs")
	})
}

// TestSynthPasteFindsItsCase guards the benchmarks' premise: the synthetic
// sizes are different libraries, and a synthetic paste finds its case.
func TestSynthPasteFindsItsCase(t *testing.T) {
	t.Parallel()
	small := synthLibrary(50, 1)
	if again := synthLibrary(50, 1); fmt.Sprint(again[7].Summary) != fmt.Sprint(small[7].Summary) {
		t.Fatal("synthLibrary is not deterministic")
	}
	ix, err := BuildCases(small, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	c := corpus{name: "synth-50", synth: 50}
	res := ix.Match(Query{Text: c.paste(ix), K: 3})
	if len(res.Hits) == 0 || res.Hits[0].ID != ix.Case(ix.Len()/2).ID {
		t.Fatalf("synthetic paste of %s: hits %v", ix.Case(ix.Len()/2).ID, hitIDs(res.Hits))
	}
}

// BenchmarkReindex re-indexes the library after one case's text changed, as
// serve does on a reload (compare with BenchmarkBuild of the same size).
func BenchmarkReindex(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		ix := c.index(b)
		docs := Documents(ix.Cases())
		edited := *docs[len(docs)/2].Case
		edited.Title.EN += " (edited)"
		docs[len(docs)/2] = NewDocument(&edited)
		b.ResetTimer()
		for range b.N {
			if _, err := ix.Reindex(docs); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(docs)), "cases")
	})
}

// benchOptions are the options of the benchmarks' indexes:
// CASELINK_TRAVERSAL=maxscore makes every search take the term-at-a-time
// MaxScore traversal instead of the block-max one, so that one test binary
// can time both (run it twice and compare with benchstat).
func benchOptions() searchOptions {
	if os.Getenv("CASELINK_TRAVERSAL") == "maxscore" {
		return searchOptions{blocks: func(*search) bool { return false }}
	}
	return searchOptions{}
}

// BenchmarkOpenCacheLazy opens a saved index without its cases, as a warm
// match does (caselink match on an unchanged library).
func BenchmarkOpenCacheLazy(b *testing.B) {
	family(b, func(b *testing.B, c corpus) {
		ix := c.index(b)
		key := CacheKey(Documents(ix.Cases()), ix.Config(), "bench")
		path := b.TempDir() + "/index"
		if err := ix.SaveCache(path, key); err != nil {
			b.Fatal(err)
		}
		load := func(i int) (*caselib.Case, error) { return ix.Case(i), nil }
		b.ResetTimer()
		for range b.N {
			if _, err := OpenCacheLazy(path, key, ix.Config(), load); err != nil {
				b.Fatal(err)
			}
		}
	})
}
