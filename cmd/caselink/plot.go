package main

import (
	"bytes"
	"fmt"
	imgcolor "image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/caselink/caselink/eval"
	"github.com/caselink/caselink/similarity/caselib"
)

// Colours of the plot: judged duplicates against the rest.
var (
	dupeColor  = imgcolor.RGBA{R: 0x1f, G: 0x5f, B: 0xd0, A: 0xff}
	otherColor = imgcolor.RGBA{R: 0xd0, G: 0x60, B: 0x20, A: 0xff}
)

// plotDupes draws c into a PNG at path (written atomically): on the left
// the distributions of the dupes score of the judged duplicates and of the
// other candidate pairs, each as a histogram normalized to an area of 1, a
// dashed line at threshold; on the right the precision-recall curve, the
// point of threshold marked. It is how a curator picks a threshold by
// looking.
func plotDupes(path string, c eval.DupesCurve, threshold float64) error {
	hist := plot.New()
	hist.Title.Text = "dupes score: judged duplicates against the rest"
	hist.X.Label.Text = "dupes score"
	hist.Y.Label.Text = "density"
	hist.X.Min, hist.X.Max = 0, 1
	hist.Legend.Top = true
	top := 1.0 // the highest bar, for the height of the threshold line
	for _, s := range []struct {
		name   string
		scores []float64
		col    imgcolor.Color
	}{
		{fmt.Sprintf("other candidate pairs (%d)", len(c.Others)), c.Others, otherColor},
		{fmt.Sprintf("judged duplicates (%d)", len(c.Duplicates)), c.Duplicates, dupeColor},
	} {
		if len(s.scores) == 0 {
			continue
		}
		h, err := plotter.NewHistogram(binned(s.scores), 20)
		if err != nil {
			return err
		}
		h.Normalize(1)
		for _, b := range h.Bins {
			top = max(top, b.Weight)
		}
		h.FillColor = withAlpha(s.col, 0x60)
		h.LineStyle.Color = s.col
		hist.Add(h)
		hist.Legend.Add(s.name, h)
	}
	hist.Add(vline(threshold, 0, top))

	pr := plot.New()
	pr.Title.Text = fmt.Sprintf("precision and recall (%d judged pairs)", c.Judged)
	pr.X.Label.Text = "recall"
	pr.Y.Label.Text = "precision"
	pr.X.Min, pr.X.Max, pr.Y.Min, pr.Y.Max = 0, 1, 0, 1.02
	pts := make(plotter.XYs, 0, len(c.Curve))
	for _, p := range c.Curve {
		pts = append(pts, plotter.XY{X: p.Recall, Y: p.Precision})
	}
	if len(pts) > 0 {
		line, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		line.Color, line.Width = dupeColor, vg.Points(1.5)
		pr.Add(line, plotter.NewGrid())
		at := atThreshold(c.Curve, threshold)
		mark, err := plotter.NewScatter(plotter.XYs{{X: at.Recall, Y: at.Precision}})
		if err != nil {
			return err
		}
		mark.Color, mark.Radius = otherColor, vg.Points(4)
		pr.Add(mark)
		pr.Legend.Add(fmt.Sprintf("threshold %.2f: precision %.2f, recall %.2f", threshold, at.Precision, at.Recall), mark)
		pr.Legend.Top = true
	}

	const w, h = 12 * vg.Inch, 4.5 * vg.Inch
	img := vgimg.New(w, h)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Inch / 3, PadY: vg.Inch / 6, PadTop: vg.Inch / 8, PadBottom: vg.Inch / 8,
		PadLeft: vg.Inch / 8, PadRight: vg.Inch / 4}
	canvases := plot.Align([][]*plot.Plot{{hist, pr}}, tiles, dc)
	hist.Draw(canvases[0][0])
	pr.Draw(canvases[0][1])
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return err
	}
	return caselib.WriteFileAtomic(path, buf.Bytes(), 0o644)
}

// binned clamps scores into [0, 1) so that a score of exactly 1 falls in
// the last of the histogram's bins over [0, 1], and adds the bounds as two
// zero-weight points so that every histogram has the same bins.
func binned(scores []float64) plotter.XYs {
	xy := make(plotter.XYs, 0, len(scores)+2)
	xy = append(xy, plotter.XY{X: 0}, plotter.XY{X: 1})
	for _, s := range scores {
		xy = append(xy, plotter.XY{X: min(max(s, 0), 0.99999), Y: 1})
	}
	return xy
}

// vline is a dashed vertical line at x from y0 to y1.
func vline(x, y0, y1 float64) *plotter.Line {
	l, _ := plotter.NewLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}})
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	l.Color = imgcolor.Gray{Y: 0x50}
	return l
}

func withAlpha(c imgcolor.Color, a uint8) imgcolor.Color {
	r, g, b, _ := c.RGBA()
	return imgcolor.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}

// atThreshold is the point of the curve at threshold: the lowest threshold
// of the curve at least as high (what listing pairs scoring at least
// threshold gives).
func atThreshold(curve []eval.PRPoint, threshold float64) eval.PRPoint {
	at := eval.PRPoint{Threshold: threshold, Precision: 1}
	for _, p := range curve { // highest threshold first
		if p.Threshold < threshold {
			break
		}
		at = p
	}
	return at
}
