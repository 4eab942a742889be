package eval

import (
	"testing"

	"github.com/caselink/caselink/eval/sharedtest"
)

// The public judged sets live outside the repository (../shared/data beside
// it) and must never be copied into it. These tests check that the readers
// accept them, and skip when they are absent (fail, in CI: see package
// sharedtest).

// sharedData returns the path of rel under ../shared/data.
func sharedData(rel string) string { return sharedtest.Path("data/" + rel) }

func TestPublicQueries(t *testing.T) {
	tests := []struct {
		path       string
		n          int  // known size; 0 = any
		candidates bool // every query re-ranks candidates
	}{
		{"bench/semeval2016-b/queries-dev.jsonl", 50, true},
		{"bench/semeval2016-b/queries-train2.jsonl", 67, true},
		{"incidents-judged/noisy-queries.jsonl", 50, false},
		{"incidents-judged/queries.jsonl", 50, false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			path := sharedData(tt.path)
			sharedtest.Need(t, path)
			qs, err := ReadQueries(path)
			if err != nil {
				t.Fatal(err)
			}
			if tt.n != 0 && len(qs) != tt.n {
				t.Errorf("%d queries, want %d", len(qs), tt.n)
			}
			for _, q := range qs {
				if tt.candidates && len(q.Candidates) == 0 {
					t.Errorf("query %s: no candidates", q.ID)
				}
				if q.Kind == "" {
					t.Errorf("query %s: no kind", q.ID)
				}
			}
		})
	}
}

func TestPublicPairs(t *testing.T) {
	tests := []struct {
		path   string
		oneway bool // has oneway rows: some judged case is not a subject itself
	}{
		{"incidents-judged/noisy-related.tsv", true},
		{"incidents-judged/related.tsv", false},
		{"bench/gitbugs-hadoop/dupes-train.tsv", false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			path := sharedData(tt.path)
			sharedtest.Need(t, path)
			j, err := ReadPairs(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(j) == 0 {
				t.Fatal("no judgments")
			}
			asymmetric := 0
			for a, m := range j {
				for b, g := range m {
					if j[b][a] != g {
						asymmetric++
					}
				}
			}
			if tt.oneway && asymmetric == 0 {
				t.Error("no oneway judgments found")
			}
			if !tt.oneway && asymmetric != 0 {
				t.Errorf("%d asymmetric judgments in a file without oneway rows", asymmetric)
			}
		})
	}
}
