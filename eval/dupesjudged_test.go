package eval

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Wilson interval of a judged sample: inside [0, 1], around the share,
// and as published for 8 of 10 (0.49–0.94).
func TestWilson(t *testing.T) {
	p, lo, hi := wilson(8, 10)
	if math.Abs(p-0.8) > 1e-9 || math.Abs(lo-0.490) > 0.005 || math.Abs(hi-0.943) > 0.005 {
		t.Errorf("wilson(8, 10) = %.3f [%.3f, %.3f], want 0.8 [0.490, 0.943]", p, lo, hi)
	}
	if _, lo, hi := wilson(10, 10); hi < 0.9999 || math.Abs(lo-0.722) > 0.005 {
		t.Errorf("wilson(10, 10) interval [%.3f, %.3f], want [0.72, 1]", lo, hi)
	}
	if _, lo, hi := wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("wilson(0, 0) interval [%v, %v], want [0, 1]", lo, hi)
	}
}

// A later file's verdict wins; a bad verdict names the file, line and pair.
func TestReadJudgedPairs(t *testing.T) {
	dir := t.TempDir()
	a, b, bad := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "bad.jsonl")
	os.WriteFile(a, []byte(`{"a":"Y","b":"X","verdict":"different","rank":3}`+"\n"+`{"a":"P","b":"Q","verdict":"same"}`+"\n"), 0o644)
	os.WriteFile(b, []byte("\n"+`{"a":"X","b":"Y","verdict":"same"}`+"\n"), 0o644)
	os.WriteFile(bad, []byte(`{"a":"X","b":"Y","verdict":"dupe"}`+"\n"), 0o644)
	j, err := ReadJudgedPairs(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if j[[2]string{"X", "Y"}] != VerdictSame || j[[2]string{"P", "Q"}] != VerdictSame || len(j) != 2 {
		t.Errorf("judged %v: want X~Y same (the later file), P~Q same", j)
	}
	if _, err := ReadJudgedPairs(bad); err == nil || !strings.Contains(err.Error(), "bad.jsonl:1: pair X Y") {
		t.Errorf("bad verdict: %v", err)
	}
}
