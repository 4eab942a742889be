package pgstore

import (
	"context"
	"fmt"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// The incident library (6,854 cases) loaded from its JSON Lines file and
// from a table holding the same cases, side by side:
//
//	go test ./similarity/caselib/pgstore -run '^$' -bench LoadIncidents
func BenchmarkLoadIncidentsFile(b *testing.B) {
	p := sharedData("incidents/cases.jsonl")
	if p == "" {
		b.Skip("incident library not present")
	}
	for b.Loop() {
		if _, err := caselib.Load([]string{p}, caselib.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadIncidentsPostgres(b *testing.B) {
	p := sharedData("incidents/cases.jsonl")
	if p == "" {
		b.Skip("incident library not present")
	}
	src, _ := newTable(b, p)
	ctx := context.Background()
	for _, readers := range []int{1, maxReadersDefault} {
		b.Run(fmt.Sprintf("readers=%d", readers), func(b *testing.B) {
			defer func(old int) { maxReaders = old }(maxReaders)
			maxReaders = readers
			benchLoad(b, ctx, src)
		})
	}
}

func benchLoad(b *testing.B, ctx context.Context, src *Source) {
	var n int
	for b.Loop() {
		t, err := Load(ctx, src, caselib.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		n = t.Lib.Len()
	}
	b.ReportMetric(float64(n), "cases")
}
