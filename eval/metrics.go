package eval

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Metrics holds retrieval quality measures for one ranked list (N = 1) or the
// unweighted mean over N lists. Every measure lies in [0, 1] for a ranking
// that lists each case at most once.
type Metrics struct {
	// NDCG is nDCG@k: graded gain 2^g − 1, discount log2(rank+1), divided
	// by the DCG of the judged grades sorted best first (cut at k).
	NDCG float64 `json:"ndcg"`
	// MRR is the reciprocal rank of the first case with grade > 0 in the
	// top k, 0 when there is none.
	MRR float64 `json:"mrr"`
	// P1 is 1 when the first case has grade > 0.
	P1 float64 `json:"p1"`
	// P1Best is 1 when the first case has the highest judged grade (and
	// that grade is > 0).
	P1Best float64 `json:"p1best"`
	// R5 is the number of cases with grade > 0 among the first five,
	// divided by min(number of relevant cases, 5).
	R5 float64 `json:"r5"`
	// MAP is average precision: the sum of precision at the rank of each
	// relevant case found in the top k, divided by the number of relevant
	// cases (all of them, not cut at k).
	MAP float64 `json:"map"`
	// N is how many lists were averaged.
	N int `json:"n"`
}

// Score measures one ranked list of case ids against graded judgments
// (case id → grade; a grade > 0 means relevant, a missing id counts as 0).
//
// The list is cut at k before anything else; k <= 0 means no cut (score.py
// always cuts). A list whose judgments hold no relevant case scores 0 on every
// measure, as in the SemEval official scorer. Like score.py, Score does not
// remove duplicate ids: a case listed twice is counted twice (CheckRanking
// finds such lists). The result has N = 1.
func Score(ranked []string, relevant map[string]int, k int) Metrics {
	if k > 0 && len(ranked) > k {
		ranked = ranked[:k]
	}
	m := Metrics{N: 1}

	gains := make([]int, len(ranked))
	for i, id := range ranked {
		gains[i] = relevant[id]
	}
	ideal := make([]int, 0, len(relevant))
	nrel, top := 0, 0
	for _, g := range relevant {
		ideal = append(ideal, g)
		if g > 0 {
			nrel++
		}
	}
	if len(ideal) > 0 {
		top = slices.Max(ideal)
	}
	slices.Sort(ideal)
	slices.Reverse(ideal)
	if k > 0 && len(ideal) > k {
		ideal = ideal[:k]
	}
	if idcg := dcg(ideal); idcg != 0 {
		m.NDCG = dcg(gains) / idcg
	}

	hits, ap, inTop5 := 0, 0.0, 0
	for i, g := range gains {
		if g <= 0 {
			continue
		}
		hits++
		ap += float64(hits) / float64(i+1)
		if hits == 1 {
			m.MRR = 1 / float64(i+1)
		}
		if i < 5 {
			inTop5++
		}
	}
	if nrel > 0 {
		m.MAP = ap / float64(nrel)
		m.R5 = float64(inTop5) / float64(min(nrel, 5))
	}
	if len(gains) > 0 && gains[0] > 0 {
		m.P1 = 1
	}
	if len(gains) > 0 && top > 0 && gains[0] == top {
		m.P1Best = 1
	}
	return m
}

// dcg is the discounted cumulative gain of grades in rank order.
func dcg(grades []int) float64 {
	s := 0.0
	for i, g := range grades {
		s += (math.Exp2(float64(g)) - 1) / math.Log2(float64(i+2))
	}
	return s
}

// Mean averages rows with equal weight (it does not weight by their N) and
// sets N to len(rows), as score.py does. The mean of no rows is the zero
// Metrics.
func Mean(rows []Metrics) Metrics {
	var m Metrics
	if len(rows) == 0 {
		return m
	}
	for _, r := range rows {
		m.NDCG += r.NDCG
		m.MRR += r.MRR
		m.P1 += r.P1
		m.P1Best += r.P1Best
		m.R5 += r.R5
		m.MAP += r.MAP
	}
	n := float64(len(rows))
	m.NDCG /= n
	m.MRR /= n
	m.P1 /= n
	m.P1Best /= n
	m.R5 /= n
	m.MAP /= n
	m.N = len(rows)
	return m
}

// Round returns m with every measure rounded to the given number of decimal
// places the way Python's round does (correctly rounded from the exact binary
// value, exact ties to even); score.py prints its averages rounded to 4
// places. N is unchanged.
func (m Metrics) Round(places int) Metrics {
	r := func(x float64) float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return x
		}
		v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', places, 64), 64)
		return v
	}
	return Metrics{NDCG: r(m.NDCG), MRR: r(m.MRR), P1: r(m.P1), P1Best: r(m.P1Best),
		R5: r(m.R5), MAP: r(m.MAP), N: m.N}
}

// String formats m on one line with four decimals, for logs and test
// failures.
func (m Metrics) String() string {
	return fmt.Sprintf("ndcg=%.4f mrr=%.4f p1=%.4f p1best=%.4f r5=%.4f map=%.4f n=%d",
		m.NDCG, m.MRR, m.P1, m.P1Best, m.R5, m.MAP, m.N)
}

// CheckRanking reports the first empty or repeated case id in a ranked list.
// Score counts a repeated id twice (as score.py does), which can push
// measures above 1, so [Run] checks the engine's lists with it.
func CheckRanking(ranked []string) error {
	seen := make(map[string]int, len(ranked))
	for i, id := range ranked {
		if id == "" {
			return fmt.Errorf("rank %d: empty case id", i+1)
		}
		if j, ok := seen[id]; ok {
			return fmt.Errorf("rank %d: case %q already listed at rank %d", i+1, id, j+1)
		}
		seen[id] = i
	}
	return nil
}
