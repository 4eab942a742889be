package eval

import (
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// TestCalibrationArithmetic checks the calibration on hand-made hits: the
// precision of a band, the threshold from which hits stay right, and the
// queries left silent.
func TestCalibrationArithmetic(t *testing.T) {
	var hits []GradedHit
	// Ten right hits from 0.10 to 0.19, then ten from 0.01 to 0.10 that
	// are right one time in two.
	for i := range 10 {
		hits = append(hits, GradedHit{Query: "a", Score: 0.10 + float64(i)/100, Grade: 2})
		hits = append(hits, GradedHit{Query: "b", Score: 0.01 + float64(i)/100, Grade: i % 2})
	}
	if p := Precision(hits, 0.10, 2); p.N != 10 || p.P1() != 1 || p.P2() != 1 {
		t.Errorf("top band %+v: want 10 hits, all right", p)
	}
	if p := Precision(hits, 0, 0.10); p.N != 10 || p.P1() != 0.5 || p.P2() != 0 {
		t.Errorf("low band %+v: want 10 hits, half right", p)
	}
	// From 0.08 up 12 of 13 hits are right; from 0.07, 12 of 14.
	if th := Threshold(hits, 0.9, 5); th != 0.08 {
		t.Errorf("strong threshold %v, want 0.08", th)
	}
	if th := Threshold(hits, 0.9, 50); th != 1 {
		t.Errorf("threshold with too few hits %v, want 1 (no band)", th)
	}
	qs := []Query{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	if share, n, all := Silent(hits, qs, func(s float64) bool { return s >= 0.15 }); n != 2 || all != 3 || share != 2.0/3 {
		t.Errorf("silent %v %d/%d: want b and c (c has no hit)", share, n, all)
	}
	bands := Bands(hits, 4)
	total := 0
	for _, b := range bands {
		total += b.N
	}
	if len(bands) != 4 || total != len(hits) {
		t.Errorf("4 bands of %d hits: %+v", len(hits), bands)
	}
	var b strings.Builder
	WriteBands(&b, bands)
	if !strings.Contains(b.String(), "grade≥1") {
		t.Errorf("table:\n%s", b.String())
	}
}

// TestWithout checks that a paste's relevant cases, left out of the
// library, leave the search to the others.
func TestWithout(t *testing.T) {
	lib, err := caselib.LoadSeeds()
	if err != nil {
		t.Fatal(err)
	}
	ix, err := similarity.BuildCases(lib.Cases, similarity.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	qs := []Query{{ID: "q", Text: "loki distributor pods OOMKilled after the rollout", Relevant: map[string]int{"IL-0191": 2, "IL-0100": 0}}}
	if ex := Without(qs)["q"]; len(ex) != 1 || ex[0] != "IL-0191" {
		t.Fatalf("Without: %v, want IL-0191 alone (grade 0 stays)", ex)
	}
	in, out := MatchHits(ix, qs, 10, nil), MatchHits(ix, qs, 10, Without(qs))
	if len(in) == 0 || in[0].ID != "IL-0191" || in[0].Grade != 2 {
		t.Errorf("in the library: %+v", in)
	}
	for _, h := range out {
		if h.ID == "IL-0191" {
			t.Errorf("IL-0191 found with it removed")
		}
	}
}
