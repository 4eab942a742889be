package eval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// twinLibrary is three pairs of near-identical write-ups and two loners.
func twinLibrary(t *testing.T) *similarity.Index {
	t.Helper()
	texts := map[string]string{
		"A1": "checkout 502 after the load balancer certificate expired", "A2": "load balancer certificate expired and checkout returned 502",
		"B1": "dns resolver timeouts in one region after a config push", "B2": "a config push made the dns resolver time out in one region",
		"C1": "database disk full, write-ahead log filled the volume", "C2": "the write-ahead log filled the database disk volume",
		"L1": "kafka consumer lag grew after a rebalance storm", "L2": "cron job ran twice and double-charged customers",
	}
	var cases []*caselib.Case
	for id, text := range texts {
		c := &caselib.Case{ID: id, Date: "2024-01-10"}
		c.Title.EN = text + " outage in production"
		cases = append(cases, c)
	}
	ix, err := similarity.BuildCases(cases, similarity.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// The curve built with stat.ROC must count, at each threshold, what a
// plain loop over the candidates counts; the judged pair never found still
// counts against recall.
func TestMeasureDupes(t *testing.T) {
	ix := twinLibrary(t)
	rel, err := ParsePairs(strings.NewReader("A1\tA2\t2\nB1\tB2\t2\nC1\tC2\t2\nL1\tL2\t2\nA1\tNOPE\t2\n"), "dupes.tsv")
	if err != nil {
		t.Fatal(err)
	}
	c := MeasureDupes(ix, rel, 3)
	if c.Judged != 4 {
		t.Errorf("Judged = %d, want 4 (the pair with an unknown case does not count)", c.Judged)
	}
	all := append(append([]float64{}, c.Duplicates...), c.Others...)
	if len(c.Duplicates) < 3 || len(all) == 0 {
		t.Fatalf("candidates: %d duplicates, %d in all", len(c.Duplicates), len(all))
	}
	for _, p := range c.Curve {
		listed, correct := 0, 0
		for _, s := range c.Duplicates {
			if s >= p.Threshold {
				listed++
				correct++
			}
		}
		for _, s := range c.Others {
			if s >= p.Threshold {
				listed++
			}
		}
		if p.Listed != listed || p.Correct != correct || p.Recall != float64(correct)/4 {
			t.Errorf("at %v: curve %+v, counted %d listed %d correct", p.Threshold, p, listed, correct)
		}
	}
	if len(c.Curve) == 0 || c.Curve[len(c.Curve)-1].Listed != len(all) {
		t.Errorf("the lowest threshold of the curve must list every candidate: %+v", c.Curve)
	}
	if c.Table[0].Threshold != 0.1 || c.Table[8].Threshold != 0.9 || c.Table[8].Listed > c.Table[0].Listed {
		t.Errorf("table %+v", c.Table)
	}
	var b strings.Builder
	if err := WriteDupesTable(&b, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "4 judged duplicate pairs") || !strings.Contains(b.String(), fmt.Sprintf("%.4f", c.Table[0].Precision)) {
		t.Errorf("table:\n%s", b.String())
	}
}
