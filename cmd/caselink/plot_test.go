package main

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/caselink/caselink/eval"
)

// The plot is a PNG of two panels, wider than high, with something drawn
// in the colours of both classes; an empty curve still draws.
func TestPlotDupes(t *testing.T) {
	c := eval.DupesCurve{
		Judged:     3,
		Duplicates: []float64{0.45, 0.8, 1},
		Others:     []float64{0.05, 0.1, 0.1, 0.2, 0.5},
		Curve: []eval.PRPoint{{Threshold: 1, Listed: 1, Correct: 1, Precision: 1, Recall: 1.0 / 3},
			{Threshold: 0.5, Listed: 3, Correct: 2, Precision: 2.0 / 3, Recall: 2.0 / 3},
			{Threshold: 0.05, Listed: 8, Correct: 3, Precision: 3.0 / 8, Recall: 1}},
	}
	for name, curve := range map[string]eval.DupesCurve{"full": c, "empty": {}} {
		path := filepath.Join(t.TempDir(), "plot.png")
		if err := plotDupes(path, curve, 0.4); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() < 600 || b.Dx() <= b.Dy() {
			t.Errorf("%s: image %v, want two panels side by side", name, b)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v", name, st.Mode().Perm())
		}
		if name != "full" {
			continue
		}
		seen := map[string]bool{}
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y += 2 {
			for x := b.Min.X; x < b.Max.X; x += 2 {
				r, g, bl, _ := img.At(x, y).RGBA()
				switch {
				case bl>>8 > 0xb0 && r>>8 < 0x60:
					seen["blue"] = true
				case r>>8 > 0xb0 && bl>>8 < 0x60 && g>>8 < 0x90:
					seen["orange"] = true
				}
			}
		}
		if !seen["blue"] || !seen["orange"] {
			t.Errorf("colours drawn: %v, want both classes", seen)
		}
	}
}
