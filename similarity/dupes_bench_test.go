package similarity

import "testing"

// BenchmarkDuplicates lists the probable duplicates of a whole library at
// the default threshold, as caselink dupes does: the pruned text search of
// every case plus the same-event evidence of its block.
func BenchmarkDuplicates(b *testing.B) {
	for _, c := range corpora() {
		b.Run(c.name, func(b *testing.B) {
			ix, err := Build(loadCorpus(b, c.path, c.n), DefaultConfig())
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				ix.Duplicates(0.4, 10, nil)
			}
			b.ReportMetric(float64(ix.Len()), "cases")
		})
	}
}
