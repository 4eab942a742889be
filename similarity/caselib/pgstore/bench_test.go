package pgstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/caselink/caselink/eval/sharedtest"
	"github.com/caselink/caselink/similarity/caselib"
)

// The incident library (6,854 cases) loaded from its JSON Lines file and
// from a table holding the same cases, side by side:
//
//	go test ./similarity/caselib/pgstore -run '^$' -bench LoadIncidents
func BenchmarkLoadIncidentsFile(b *testing.B) {
	p := incidentsFile(b)
	for b.Loop() {
		if _, err := caselib.Load([]string{p}, caselib.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// incidentsFile returns the 6,854-case library, or skips the benchmark.
func incidentsFile(b *testing.B) string {
	p := sharedtest.Path("data/incidents/cases.jsonl")
	sharedtest.Need(b, p)
	return p
}

// BenchmarkLoadIncidentsSideBySide loads the file and the table one after
// the other in each round, so that a busy machine slows both alike, and
// reports each one's mean time and their ratio, with the time of the
// server's part alone (rows-ms: reading the rows as Load does, without
// decoding them).
func BenchmarkLoadIncidentsSideBySide(b *testing.B) {
	p := incidentsFile(b)
	src, _ := newTable(b, p)
	ctx := context.Background()
	var file, rows, table time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := caselib.Load([]string{p}, caselib.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := readOnly(ctx, src); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if _, err := Load(ctx, src, caselib.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
		file += t1.Sub(t0)
		rows += t2.Sub(t1)
		table += time.Since(t2)
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 / float64(b.N) }
	b.ReportMetric(ms(file), "file-ms")
	b.ReportMetric(ms(rows), "rows-ms")
	b.ReportMetric(ms(table), "table-ms")
	b.ReportMetric(table.Seconds()/file.Seconds(), "table/file")
}

// readOnly reads every row as Load does, without decoding the cases.
func readOnly(ctx context.Context, src *Source) error {
	conn, err := src.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	pages, err := src.check(ctx, conn)
	if err != nil {
		return err
	}
	chans, err := src.readRanges(ctx, conn, pages)
	if err != nil {
		return err
	}
	for _, ch := range chans {
		for r := range ch {
			if r.err != nil {
				err = r.err
			}
		}
	}
	return err
}

func BenchmarkLoadIncidentsPostgres(b *testing.B) {
	p := incidentsFile(b)
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

// BenchmarkWriteRelatedIncidents writes a new related list into every one
// of the 6,854 rows, in one transaction (each run alternates between two
// lists, so every row changes every time).
func BenchmarkWriteRelatedIncidents(b *testing.B) {
	p := incidentsFile(b)
	src, _ := newTable(b, p)
	ctx := context.Background()
	t, err := Load(ctx, src, caselib.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	lists := [2]map[string][]string{{}, {}}
	cases := t.Lib.Cases
	for i, c := range cases {
		lists[0][c.ID] = []string{cases[(i+1)%len(cases)].ID, cases[(i+2)%len(cases)].ID}
		lists[1][c.ID] = []string{cases[(i+3)%len(cases)].ID}
	}
	round := 0
	for b.Loop() {
		res, err := t.WriteRelated(ctx, lists[round%2], time.Now())
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Updated) != len(cases) {
			b.Fatalf("updated %d rows of %d (%d skipped)", len(res.Updated), len(cases), len(res.Skipped))
		}
		round++
	}
	b.ReportMetric(float64(len(cases)), "rows")
}

// BenchmarkStampIncidents takes the fingerprint serve polls, on the
// 6,854-row table (a new connection each time, as serve does).
func BenchmarkStampIncidents(b *testing.B) {
	p := incidentsFile(b)
	src, _ := newTable(b, p)
	ctx := context.Background()
	for b.Loop() {
		if _, err := Stamp(ctx, src); err != nil {
			b.Fatal(err)
		}
	}
}
