package similarity

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/caselink/caselink/similarity/caselib"
)

func TestZZSpeed(t *testing.T) {
	path := os.Getenv("SPEED_LIB")
	if path == "" {
		t.Skip()
	}
	lib, err := caselib.Load([]string{path}, caselib.LoadOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	ix, _ := BuildCases(lib.Cases, DefaultConfig())
	fmt.Println("lexicon words", len(ix.lexicon().words))
	for _, qf := range []string{"/tmp/ty/benchq-clean.jsonl", "/tmp/ty/benchq-typo.jsonl"} {
		f, _ := os.Open(qf)
		var texts []string
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var q struct{ Text string }
			json.Unmarshal(sc.Bytes(), &q)
			texts = append(texts, q.Text)
		}
		var on, off []float64
		for rep := 0; rep < 20; rep++ {
			for _, tx := range texts {
				for _, typos := range []bool{rep%2 == 0, rep%2 != 0} {
					ix.cfg.Typos = typos
					t0 := time.Now()
					ix.Match(Query{Text: tx, K: 10})
					d := float64(time.Since(t0).Microseconds()) / 1000
					if typos {
						on = append(on, d)
					} else {
						off = append(off, d)
					}
				}
			}
		}
		slices.Sort(on)
		slices.Sort(off)
		pc := func(x []float64, p float64) float64 { return x[int(p*float64(len(x)-1))] }
		fmt.Printf("%s: typos off p50 %.2f p99 %.2f | on p50 %.2f p99 %.2f | ratio p50 %.3f p99 %.3f\n", qf,
			pc(off, .5), pc(off, .99), pc(on, .5), pc(on, .99), pc(on, .5)/pc(off, .5), pc(on, .99)/pc(off, .99))
	}
}
