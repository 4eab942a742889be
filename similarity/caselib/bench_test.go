package caselib

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// sharedData returns the path of a file under /work/shared/data, found
// relative to the module root (../shared/data from it), or "" when absent.
func sharedData(rel string) string {
	p := filepath.Join("..", "..", "..", "shared", "data", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// BenchmarkLoadIncidents loads the 6,854-case incident library.
func BenchmarkLoadIncidents(b *testing.B) {
	p := sharedData("incidents/cases.jsonl")
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
