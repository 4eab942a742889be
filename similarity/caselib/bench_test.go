package caselib

import (
	"os"
	"runtime"
	"testing"

	"github.com/caselink/caselink/eval/sharedtest"
)

// sharedData returns the path of a file under ../shared/data (beside the
// module root), or "" when absent; with shared data required (in CI) it
// fails tb instead.
func sharedData(tb testing.TB, rel string) string {
	tb.Helper()
	p := sharedtest.Path("data/" + rel)
	if !sharedtest.Present(tb, p) {
		return ""
	}
	return p
}

// BenchmarkLoadIncidents loads the 6,854-case incident library.
func BenchmarkLoadIncidents(b *testing.B) {
	p := sharedData(b, "incidents/cases.jsonl")
	if p == "" {
		b.Skip("incident library not present")
	}
	st, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	var n int
	for b.Loop() {
		lib, err := Load([]string{p}, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		n = len(lib.Cases)
	}
	b.ReportMetric(float64(n), "cases")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heapMB")
}

// BenchmarkLoadFile loads the file named by $CASELIB_BENCH_FILE, e.g. a
// 100,000-case library for the scale target.
func BenchmarkLoadFile(b *testing.B) {
	p := os.Getenv("CASELIB_BENCH_FILE")
	if p == "" {
		b.Skip("CASELIB_BENCH_FILE not set")
	}
	st, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	var n int
	for b.Loop() {
		lib, err := Load([]string{p}, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		n = len(lib.Cases)
	}
	b.ReportMetric(float64(n), "cases")
}
