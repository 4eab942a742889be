package caselib

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLoadPlain compares the load pipeline with a plain loop on the
// incident library and on $CASELIB_BENCH_FILE.
func BenchmarkLoadPlain(b *testing.B) {
	files := map[string]string{"incidents": sharedData(b, "incidents/cases.jsonl"), "file": os.Getenv("CASELIB_BENCH_FILE")}
	for _, name := range []string{"incidents", "file"} {
		p := files[name]
		if p == "" {
			continue
		}
		for _, plain := range []bool{false, true} {
			mode := "pipeline"
			if plain {
				mode = "plain"
			}
			b.Run(name+"/"+mode, func(b *testing.B) {
				plainLoad = plain
				defer func() { plainLoad = false }()
				st, _ := os.Stat(p)
				b.SetBytes(st.Size())
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Load([]string{p}, LoadOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestPlainLoadEqualsPipeline: the plain loop that BenchmarkLoadPlain
// measures the pipeline against loads the same cases in the same order and
// stops at the same error, so the comparison is of like with like.
func TestPlainLoadEqualsPipeline(t *testing.T) {
	paths := [][]string{{"testdata/ok"}, {"../../seeds"}}
	bad, _ := filepath.Glob("testdata/bad/*")
	for _, b := range bad {
		paths = append(paths, []string{b})
	}
	if p := sharedData(t, "incidents/cases.jsonl"); p != "" && !testing.Short() {
		paths = append(paths, []string{p})
	}
	for _, ps := range paths {
		for _, lenient := range []bool{false, true} {
			got := [2]string{}
			for i, plain := range []bool{false, true} {
				plainLoad = plain
				lib, err := Load(ps, LoadOptions{Lenient: lenient, Warn: func(error) {}})
				plainLoad = false
				got[i] = fmt.Sprint(err)
				if lib != nil {
					for _, c := range lib.Cases {
						got[i] += fmt.Sprintf("\n%s %v %s", c.ID, c.Loc, c.Title.EN)
					}
					got[i] += fmt.Sprintf("\nskipped %d", lib.Skipped)
				}
			}
			if got[0] != got[1] {
				t.Errorf("%v (lenient %v): pipeline\n%s\nplain loop\n%s", ps, lenient, got[0], got[1])
			}
		}
	}
}
