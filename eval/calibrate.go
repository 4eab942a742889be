package eval

import (
	"fmt"
	"io"
	"slices"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/par"
)

// GradedHit is one hit of a judged run: its score and the grade the
// judgments give it (0 for a case they do not list: unjudged counts as
// wrong).
type GradedHit struct {
	Query string // the query or subject case it answers
	Rank  int    // 1 for the best
	ID    string
	Score float64
	// First is a match hit's first-pass score, from the paste alone (the
	// second stage re-ranks by it); equal to Score for other hits.
	First float64
	Grade int
}

// MatchHits runs every query on ix (the top k hits scoring above 0, the
// cases in exclude[query id] left out of the library) and grades each hit.
// exclude may be nil.
func MatchHits(ix *similarity.Index, qs []Query, k int, exclude map[string][]string) []GradedHit {
	lists := make([][]GradedHit, len(qs))
	par.Each(len(qs), func(i int) {
		q := qs[i]
		res := ix.Match(similarity.Query{Text: q.Text, K: k, Exclude: exclude[q.ID]})
		for r, h := range res.Hits {
			lists[i] = append(lists[i], GradedHit{Query: q.ID, Rank: r + 1, ID: h.ID, Score: h.Score, First: h.First, Grade: q.Relevant[h.ID]})
		}
	})
	return slices.Concat(lists...)
}

// RelatedHits lists, for every judged subject of rel present in ix, its k
// most similar cases as relate and match --like score them, graded.
func RelatedHits(ix *similarity.Index, rel Judgments, k int) []GradedHit {
	subjects := rel.Subjects()
	lists := make([][]GradedHit, len(subjects))
	par.Each(len(subjects), func(i int) {
		d, ok := ix.Lookup(subjects[i])
		if !ok {
			return
		}
		for r, h := range ix.Related(d, k, 0) {
			lists[i] = append(lists[i], GradedHit{Query: subjects[i], Rank: r + 1, ID: h.ID, Score: h.Score, First: h.Score, Grade: rel[subjects[i]][h.ID]})
		}
	})
	return slices.Concat(lists...)
}

// Without returns, for each query, the cases it judges relevant (grade ≥ 1):
// excluded from the library, they turn the query into a paste about an
// incident the library does not hold.
func Without(qs []Query) map[string][]string {
	out := make(map[string][]string, len(qs))
	for _, q := range qs {
		for id, g := range q.Relevant {
			if g >= 1 {
				out[q.ID] = append(out[q.ID], id)
			}
		}
		slices.Sort(out[q.ID])
	}
	return out
}

// ScoreBand is how often the hits of a score band [Lo, Hi) are right.
type ScoreBand struct {
	Lo, Hi float64
	N      int // hits in the band
	Right  int // of them, graded ≥ 1
	Right2 int // of them, graded 2
}

// P1 is the share of the band's hits graded ≥ 1 (0 for an empty band).
func (b ScoreBand) P1() float64 { return ratio(b.Right, b.N) }

// P2 is the share of the band's hits graded 2.
func (b ScoreBand) P2() float64 { return ratio(b.Right2, b.N) }

func ratio(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(a) / float64(n)
}

// Precision counts the hits scoring in [lo, hi) and how many are right.
func Precision(hits []GradedHit, lo, hi float64) ScoreBand {
	b := ScoreBand{Lo: lo, Hi: hi}
	for _, h := range hits {
		if h.Score >= lo && h.Score < hi {
			b.N++
			if h.Grade >= 1 {
				b.Right++
			}
			if h.Grade >= 2 {
				b.Right2++
			}
		}
	}
	return b
}

// Bands cuts hits into n bands of about equal count by score (the edges
// rounded to 3 decimals, so that a band is a range a person can read), best
// first, and gives each band's precision.
func Bands(hits []GradedHit, n int) []ScoreBand {
	if len(hits) == 0 || n < 1 {
		return nil
	}
	s := make([]float64, len(hits))
	for i, h := range hits {
		s[i] = h.Score
	}
	slices.Sort(s)
	edges := []float64{1.0001}
	for i := n - 1; i >= 1; i-- {
		e := roundTo(s[i*len(s)/n], 1000)
		if e < edges[len(edges)-1] && e > 0 {
			edges = append(edges, e)
		}
	}
	edges = append(edges, 0)
	var out []ScoreBand
	for i := 1; i < len(edges); i++ {
		out = append(out, Precision(hits, edges[i], edges[i-1]))
	}
	return out
}

func roundTo(x float64, m float64) float64 { return float64(int64(x*m+0.5)) / m }

// Threshold proposes the lowest score t, among the hits' own scores rounded
// to 2 decimals (and hits banded by their rounded scores), such that at every score bound from t up, the hits scoring
// at least that bound are right (graded ≥ 1) at least target of the time,
// counting only bounds that keep minN hits or more (fewer are noise). It
// returns 1 when no score qualifies: the band is then empty.
func Threshold(hits []GradedHit, target float64, minN int) float64 {
	// Scores are banded as shown, to 2 decimals.
	shown := make([]GradedHit, len(hits))
	var cands []float64
	for i, h := range hits {
		h.Score = roundTo(h.Score, 100)
		shown[i] = h
		cands = append(cands, h.Score)
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	best := 1.0
	for i := len(cands) - 1; i >= 0; i-- {
		b := Precision(shown, cands[i], 2)
		if b.N < minN {
			continue
		}
		if b.P1() < target {
			break
		}
		best = cands[i]
	}
	return best
}

// Silent reports, for the queries answered by hits, how many have no hit
// that reaches (a product's "possible" band): those it says "nothing like
// this here" about, with their share of qs. A query with no hit at all is
// silent.
func Silent(hits []GradedHit, qs []Query, reaches func(score float64) bool) (share float64, silent, n int) {
	heard := map[string]bool{}
	for _, h := range hits {
		if reaches(h.Score) {
			heard[h.Query] = true
		}
	}
	for _, q := range qs {
		if !heard[q.ID] {
			silent++
		}
	}
	return ratio(silent, len(qs)), silent, len(qs)
}

// WriteBands writes the bands' precision as an aligned table: the score
// range, the hits, and the share right at grade ≥ 1 and at grade 2.
func WriteBands(w io.Writer, bands []ScoreBand) {
	fmt.Fprintf(w, "%-15s %5s %8s %8s\n", "score", "hits", "grade≥1", "grade2")
	for _, b := range bands {
		hi := fmt.Sprintf("%.3f", b.Hi)
		if b.Hi > 1 {
			hi = "1"
		}
		fmt.Fprintf(w, "%-15s %5d %8.2f %8.2f\n", fmt.Sprintf("%.3f–%s", b.Lo, hi), b.N, b.P1(), b.P2())
	}
}
