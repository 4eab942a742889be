package similarity

import (
	"os"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// The benchmark corpora live outside the repository: the 6,854 real cases,
// and their scale-ups made with ../shared/bench/scale_corpus.py (set
// CASELINK_CORPUS_20K / CASELINK_CORPUS_100K to their paths). Benchmarks skip
// when a corpus is absent.
const incidents = "../../shared/data/incidents/cases.jsonl"

func loadCorpus(b *testing.B, path string, n int) []*caselib.Case {
	b.Helper()
	if path == "" {
		b.Skip("corpus path not set")
	}
	if _, err := os.Stat(path); err != nil {
		b.Skipf("%s absent", path)
	}
	lib, err := caselib.Load([]string{path}, caselib.LoadOptions{Lenient: true})
	if err != nil {
		b.Fatal(err)
	}
	cases := lib.Cases
	if n > 0 && n < len(cases) {
		cases = cases[:n]
	}
	return cases
}

type corpus struct {
	name string
	path string
	n    int
}

func corpora() []corpus {
	return []corpus{
		{"1k", incidents, 1000},
		{"6.8k", incidents, 0},
		{"20k", os.Getenv("CASELINK_CORPUS_20K"), 0},
		{"100k", os.Getenv("CASELINK_CORPUS_100K"), 0},
	}
}

func BenchmarkBuild(b *testing.B) {
	for _, c := range corpora() {
		b.Run(c.name, func(b *testing.B) {
			cases := loadCorpus(b, c.path, c.n)
			b.ResetTimer()
			for range b.N {
				if _, err := BuildCases(cases, DefaultConfig()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(cases)), "cases")
		})
	}
}

// A realistic on-call paste: alert lines and a sentence.
const benchPaste = `[FIRING:2] KubePodCrashLooping: pod api-7f9c OOMKilled in us-east-1, restarts 14
HTTP 503 from the load balancer, p99 latency 4.2s, connection pool exhausted on postgres
started right after the 14:05 deploy, rolling back now`

func BenchmarkMatch(b *testing.B) {
	for _, c := range corpora() {
		b.Run(c.name, func(b *testing.B) {
			ix, err := BuildCases(loadCorpus(b, c.path, c.n), DefaultConfig())
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				ix.Match(Query{Text: benchPaste, K: 5})
			}
		})
	}
}

func BenchmarkAllRelated(b *testing.B) {
	for _, c := range corpora() {
		b.Run(c.name, func(b *testing.B) {
			ix, err := BuildCases(loadCorpus(b, c.path, c.n), DefaultConfig())
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				ix.AllRelated(10, 0, nil)
			}
			b.ReportMetric(float64(ix.Len()), "cases")
		})
	}
}
