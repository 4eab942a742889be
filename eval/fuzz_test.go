package eval

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParseJudgments: a judged-pairs file or a queries file written by
// hand either parses or gives a one-line error naming the file; it never
// panics, and every pair it reads has two ids and a grade of 0 or more.
func FuzzParseJudgments(f *testing.F) {
	f.Add([]byte("# c\nA\tB\t2\n#12\t#34\t1\toneway\n"))
	f.Add([]byte("dv_id\tlibrary_id\trelation\tnote\nDV-1\tx\tsame-event\t\nDV-2\n"))
	f.Add([]byte("dv_id\tlibrary_id\trelation\tnote\nDV-1\tDV-1\tsame-event\t\n"))
	f.Add([]byte(`{"id":"q1","text":"disk full","relevant":{"A":2}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := ParsePairs(bytes.NewReader(data), "r.tsv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "r.tsv") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("bad error %q", err)
			}
		}
		for a, m := range j {
			for b, g := range m {
				if a == "" || b == "" || a == b || g < 0 {
					t.Fatalf("read pair %q %q grade %d", a, b, g)
				}
			}
		}
		if _, err := ParseQueries(bytes.NewReader(data), "q.jsonl"); err != nil {
			if !strings.HasPrefix(err.Error(), "q.jsonl") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("bad error %q", err)
			}
		}
	})
}
