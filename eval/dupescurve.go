package eval

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/par"
)

// PRPoint is the precision and recall of dupes at one threshold: of the
// Listed candidate pairs scoring at least Threshold, Correct are judged
// duplicates; Precision = Correct/Listed (1 when nothing is listed),
// Recall = Correct over all judged duplicate pairs.
type PRPoint struct {
	Threshold float64 `json:"threshold"`
	Listed    int     `json:"listed"`
	Correct   int     `json:"correct"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
}

// DupesCurve is how well the dupes score separates judged duplicates from
// the rest: the candidate pairs are each judged subject's k most probable
// duplicates ([similarity.Index.DupesOf]), every unordered pair once.
type DupesCurve struct {
	// Judged is the number of judged duplicate pairs (grade > 0) whose two
	// cases are in the library: the denominator of recall.
	Judged int `json:"judged"`
	// Duplicates and Others are the dupes scores of the candidate pairs
	// that are judged duplicates and of the rest, ascending.
	Duplicates []float64 `json:"-"`
	Others     []float64 `json:"-"`
	// Curve has a point at every distinct candidate score, highest
	// threshold first.
	Curve []PRPoint `json:"-"`
	// Table has the points at the thresholds 0.1, 0.2, …, 0.9.
	Table []PRPoint `json:"table"`
}

// MeasureDupes lists the candidate pairs of the judged subjects of related
// (each subject's k most probable duplicates) and measures precision and
// recall of the dupes score over thresholds. Use it with pairs that mean
// "same incident".
func MeasureDupes(ix *similarity.Index, related Judgments, k int) DupesCurve {
	scores, classes := candidatePairs(ix, related, k)
	c := DupesCurve{Judged: judgedInLibrary(ix, related)}
	// Ascending scores, ties broken by class, so the order is the same on
	// every run.
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(x, y int) int {
		if c := cmp.Compare(scores[x], scores[y]); c != 0 {
			return c
		}
		return cmp.Compare(boolInt(classes[x]), boolInt(classes[y]))
	})
	y := make([]float64, len(idx))
	cl := make([]bool, len(idx))
	for i, j := range idx {
		y[i], cl[i] = scores[j], classes[j]
		if cl[i] {
			c.Duplicates = append(c.Duplicates, y[i])
		} else {
			c.Others = append(c.Others, y[i])
		}
	}
	c.Curve = prCurve(y, cl, len(c.Duplicates), len(c.Others), c.Judged)
	for t := 1; t <= 9; t++ {
		th := float64(t) / 10
		listed, correct := 0, 0
		for i, s := range y {
			if s >= th {
				listed++
				if cl[i] {
					correct++
				}
			}
		}
		c.Table = append(c.Table, prPoint(th, listed, correct, c.Judged))
	}
	return c
}

// candidatePairs returns the dupes score of every candidate pair (each
// judged subject's k most probable duplicates, every unordered pair once, in
// the order found) and whether it is judged a duplicate.
func candidatePairs(ix *similarity.Index, related Judgments, k int) (scores []float64, classes []bool) {
	type pair struct {
		a, b  string
		score float64
	}
	subjects := related.Subjects()
	found := make([][]pair, len(subjects))
	par.Each(len(subjects), func(i int) {
		d, ok := ix.Lookup(subjects[i])
		if !ok {
			return
		}
		for _, h := range ix.DupesOf(d, k, 0) {
			a, b := d, h.Doc
			if ix.Case(b).ID < ix.Case(a).ID {
				a, b = b, a
			}
			// Scored in one order, so a pair found from both sides has one score.
			found[i] = append(found[i], pair{ix.Case(a).ID, ix.Case(b).ID, ix.DupeScore(a, b)})
		}
	})
	judged := func(a, b string) bool { return related[a][b] > 0 || related[b][a] > 0 }
	seen := map[[2]string]bool{}
	for _, ps := range found {
		for _, p := range ps {
			if seen[[2]string{p.a, p.b}] {
				continue
			}
			seen[[2]string{p.a, p.b}] = true
			scores = append(scores, p.score)
			classes = append(classes, judged(p.a, p.b))
		}
	}
	return scores, classes
}

// judgedInLibrary counts the judged duplicate pairs (grade > 0) whose two
// cases are in the library, each unordered pair once.
func judgedInLibrary(ix *similarity.Index, related Judgments) int {
	n := 0
	counted := map[[2]string]bool{}
	for a, m := range related {
		for b, g := range m {
			_, okA := ix.Lookup(a)
			_, okB := ix.Lookup(b)
			if k := [2]string{min(a, b), max(a, b)}; g > 0 && okA && okB && !counted[k] {
				counted[k] = true
				n++
			}
		}
	}
	return n
}

// prCurve returns a point at every distinct score of the ascending scores y
// (classes cl; pos and neg of each), highest threshold first.
func prCurve(y []float64, cl []bool, pos, neg, judged int) []PRPoint {
	if len(y) == 0 {
		return nil
	}
	var curve []PRPoint
	// stat.ROC gives the true and false positive rates of the candidates
	// scoring at least each threshold; times the counts of each class they
	// are the correct and wrong pairs listed.
	tpr, fpr, thresh := stat.ROC(nil, y, cl, nil)
	for i := range thresh {
		if i == 0 { // +Inf: nothing listed
			continue
		}
		tp, fp := 0, 0
		if pos > 0 {
			tp = nearestInt(tpr[i] * float64(pos))
		}
		if neg > 0 {
			fp = nearestInt(fpr[i] * float64(neg))
		}
		curve = append(curve, prPoint(thresh[i], tp+fp, tp, judged))
	}
	return curve
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// nearestInt is x rounded to the nearest integer (the rates of stat.ROC are
// counts divided by a total).
func nearestInt(x float64) int { return int(x + 0.5) }

func prPoint(th float64, listed, correct, judged int) PRPoint {
	p := PRPoint{Threshold: th, Listed: listed, Correct: correct, Precision: 1}
	if listed > 0 {
		p.Precision = float64(correct) / float64(listed)
	}
	if judged > 0 {
		p.Recall = float64(correct) / float64(judged)
	}
	return p
}

// WriteDupesTable writes the precision and recall of dupes at each
// threshold of c.Table as an aligned text table.
func WriteDupesTable(w io.Writer, c DupesCurve) error {
	fmt.Fprintf(w, "dupes by threshold (%d judged duplicate pairs; %d candidate pairs, %d of them judged)\n",
		c.Judged, len(c.Duplicates)+len(c.Others), len(c.Duplicates))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "threshold\tlisted\tcorrect\tprecision\trecall\t")
	for _, p := range c.Table {
		fmt.Fprintf(tw, "%.1f\t%d\t%d\t%.4f\t%.4f\t\n", p.Threshold, p.Listed, p.Correct, p.Precision, p.Recall)
	}
	return tw.Flush()
}
