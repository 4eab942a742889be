package eval

import (
	"math"
	"strings"
	"testing"
)

// Discounts used below, written out: 1/log2(rank+1).
var (
	d1 = 1.0                // rank 1: 1/log2(2)
	d2 = 1 / math.Log2(3)   // rank 2: 0.630930
	d3 = 1 / math.Log2(4)   // rank 3: 0.5
	d4 = 1 / math.Log2(5)   // rank 4: 0.430677
	d5 = 1 / math.Log2(6)   // rank 5: 0.386853
	d6 = 1 / math.Log2(7)   // rank 6: 0.356207
	d7 = 1 / math.Log2(8.0) // rank 7: 0.333333
)

const eps = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) <= eps }

func sameMetrics(a, b Metrics) bool {
	return near(a.NDCG, b.NDCG) && near(a.MRR, b.MRR) && near(a.P1, b.P1) && near(a.P1Best, b.P1Best) &&
		near(a.R5, b.R5) && near(a.MAP, b.MAP) && a.N == b.N
}

func TestScore(t *testing.T) {
	tests := []struct {
		name   string
		ranked []string
		rel    map[string]int
		k      int
		want   Metrics
	}{
		{
			// gains [3 0 0]; DCG = 3·d1 = 3 = IDCG. First hit at rank 1. AP = (1/1)/1.
			name: "target first", ranked: []string{"a", "b", "c"}, rel: map[string]int{"a": 2}, k: 10,
			want: Metrics{NDCG: 1, MRR: 1, P1: 1, P1Best: 1, R5: 1, MAP: 1, N: 1},
		},
		{
			// gains [0 3 0]; DCG = 3·d2, IDCG = 3·d1 → nDCG = d2 = 0.6309.
			// MRR = 1/2. AP = (1/2)/1. R@5 = 1/min(1,5).
			name: "target second", ranked: []string{"x", "a", "y"}, rel: map[string]int{"a": 2}, k: 10,
			want: Metrics{NDCG: d2, MRR: 0.5, P1: 0, P1Best: 0, R5: 1, MAP: 0.5, N: 1},
		},
		{
			// gains [1 3 0] (b has grade 1: 2^1−1 = 1; a grade 2: 2^2−1 = 3).
			// DCG = 1·d1 + 3·d2 = 2.892789; ideal grades [2 1]: IDCG = 3·d1 + 1·d2 = 3.630930;
			// nDCG = 0.796708. P@1 = 1 (b relevant) but P@1best = 0 (best grade is 2).
			// AP = (1/1 + 2/2)/2 = 1. R@5 = 2/2.
			name: "related first", ranked: []string{"b", "a", "x"}, rel: map[string]int{"a": 2, "b": 1}, k: 10,
			want: Metrics{NDCG: (1*d1 + 3*d2) / (3*d1 + 1*d2), MRR: 1, P1: 1, P1Best: 0, R5: 1, MAP: 1, N: 1},
		},
		{
			// Two cases share the best grade: either first gives P@1best = 1.
			// gains [3 1 3]; DCG = 3·d1 + 1·d2 + 3·d3; ideal [2 2 1]: IDCG = 3·d1 + 3·d2 + 1·d3.
			name: "tie at the top", ranked: []string{"b", "c", "a"}, rel: map[string]int{"a": 2, "b": 2, "c": 1}, k: 10,
			want: Metrics{NDCG: (3*d1 + 1*d2 + 3*d3) / (3*d1 + 3*d2 + 1*d3), MRR: 1, P1: 1, P1Best: 1, R5: 1, MAP: 1, N: 1},
		},
		{
			// Hits at ranks 1 and 3, a third relevant case never retrieved.
			// gains [1 0 1 0]; DCG = d1 + d3 = 1.5; ideal [1 1 1]: IDCG = d1 + d2 + d3 = 2.130930.
			// AP divides by all 3 relevant: (1/1 + 2/3)/3 = 0.555556. R@5 = 2/min(3,5) = 2/3.
			name: "AP over all relevant", ranked: []string{"a", "x", "b", "y"}, rel: map[string]int{"a": 1, "b": 1, "c": 1}, k: 10,
			want: Metrics{NDCG: (d1 + d3) / (d1 + d2 + d3), MRR: 1, P1: 1, P1Best: 1, R5: 2.0 / 3, MAP: (1 + 2.0/3) / 3, N: 1},
		},
		{
			// Seven relevant (grade 1), hits at ranks 1, 3, 6.
			// R@5: two hits in the top 5, divided by min(7,5) = 5 → 0.4.
			// AP = (1/1 + 2/3 + 3/6)/7 = 2.166667/7 = 0.309524.
			// DCG = d1 + d3 + d6 = 1.856207; IDCG = d1+…+d7 = 3.637999 → nDCG = 0.510227.
			name:   "R@5 caps the denominator at 5",
			ranked: []string{"r1", "x1", "r2", "x2", "x3", "r3", "x4"},
			rel:    map[string]int{"r1": 1, "r2": 1, "r3": 1, "r4": 1, "r5": 1, "r6": 1, "r7": 1}, k: 10,
			want: Metrics{NDCG: (d1 + d3 + d6) / (d1 + d2 + d3 + d4 + d5 + d6 + d7), MRR: 1, P1: 1, P1Best: 1,
				R5: 2.0 / 5, MAP: (1 + 2.0/3 + 3.0/6) / 7, N: 1},
		},
		{
			// k = 2 cuts [x y a] to [x y] before anything: nothing relevant is left.
			// The ideal list is cut at 2 too ([2 1]), but DCG = 0 so nDCG = 0.
			name: "cut at k first", ranked: []string{"x", "y", "a"}, rel: map[string]int{"a": 2, "b": 1}, k: 2,
			want: Metrics{N: 1},
		},
		{
			// k = 2 cuts [x a b] to [x a]: gains [0 1]; DCG = d2; ideal [1 1]: IDCG = d1 + d2.
			// MRR = 1/2. AP = (1/2)/2 = 0.25 (b counts in the denominator).
			// R@5 looks at the cut list only: 1/min(2,5) = 0.5.
			name: "k below 5 limits R@5", ranked: []string{"x", "a", "b"}, rel: map[string]int{"a": 1, "b": 1}, k: 2,
			want: Metrics{NDCG: d2 / (d1 + d2), MRR: 0.5, P1: 0, P1Best: 0, R5: 0.5, MAP: 0.25, N: 1},
		},
		{
			// The ideal list is cut at k = 1 as well: ideal [2] → IDCG = 3; DCG = 3 (a first).
			name: "ideal cut at k", ranked: []string{"a", "b"}, rel: map[string]int{"a": 2, "b": 2}, k: 1,
			want: Metrics{NDCG: 1, MRR: 1, P1: 1, P1Best: 1, R5: 0.5, MAP: 0.5, N: 1},
		},
		{
			// No relevant case (only a grade 0): every measure 0, as in the SemEval scorer.
			name: "no relevant case", ranked: []string{"a", "b"}, rel: map[string]int{"a": 0}, k: 10,
			want: Metrics{N: 1},
		},
		{
			name: "no judgments", ranked: []string{"a"}, rel: nil, k: 10,
			want: Metrics{N: 1},
		},
		{
			// Nothing retrieved: IDCG = 3 but DCG = 0.
			name: "empty ranking", ranked: nil, rel: map[string]int{"a": 2}, k: 10,
			want: Metrics{N: 1},
		},
		{
			// k <= 0: no cut. gains [0 0 0 0 0 0 1]; DCG = d7, IDCG = d1; MRR = 1/7;
			// AP = (1/7)/1; R@5 = 0/1.
			name: "k 0 means no cut", ranked: []string{"x1", "x2", "x3", "x4", "x5", "x6", "a"}, rel: map[string]int{"a": 1}, k: 0,
			want: Metrics{NDCG: d7, MRR: 1.0 / 7, R5: 0, MAP: 1.0 / 7, N: 1},
		},
		{
			// score.py does not deduplicate and neither does Score: a listed twice is counted twice.
			// gains [1 1]; DCG = d1 + d2 = 1.630930, IDCG = d1 → nDCG 1.63.
			// AP = (1/1 + 2/2)/1 = 2; R@5 = 2/1.
			name: "duplicates counted as score.py does", ranked: []string{"a", "a"}, rel: map[string]int{"a": 1}, k: 10,
			want: Metrics{NDCG: d1 + d2, MRR: 1, P1: 1, P1Best: 1, R5: 2, MAP: 2, N: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Score(tt.ranked, tt.rel, tt.k)
			if !sameMetrics(got, tt.want) {
				t.Errorf("Score(%v, %v, %d)\n got %v\nwant %v", tt.ranked, tt.rel, tt.k, got, tt.want)
			}
		})
	}
}

func TestMean(t *testing.T) {
	rows := []Metrics{
		{NDCG: 1, MRR: 1, P1: 1, P1Best: 1, R5: 1, MAP: 1, N: 1},
		{NDCG: 0.5, MRR: 0.5, P1: 0, P1Best: 0, R5: 0.5, MAP: 0.25, N: 1},
		{N: 1},
		// A row that is itself a mean still has weight 1.
		{NDCG: 0.2, MRR: 0.3, P1: 1, P1Best: 0, R5: 0.1, MAP: 0.75, N: 40},
	}
	// ndcg (1+0.5+0+0.2)/4 = 0.425; mrr (1+0.5+0+0.3)/4 = 0.45; p1 (1+0+0+1)/4 = 0.5;
	// p1best 1/4; r5 (1+0.5+0+0.1)/4 = 0.4; map (1+0.25+0+0.75)/4 = 0.5; n = 4 rows.
	want := Metrics{NDCG: 0.425, MRR: 0.45, P1: 0.5, P1Best: 0.25, R5: 0.4, MAP: 0.5, N: 4}
	if got := Mean(rows); !sameMetrics(got, want) {
		t.Errorf("Mean\n got %v\nwant %v", got, want)
	}
	if got := Mean(nil); got != (Metrics{}) {
		t.Errorf("Mean(nil) = %v, want zero", got)
	}
}

func TestRound(t *testing.T) {
	m := Metrics{NDCG: 0.123449999, MRR: 2.0 / 3, P1: 0.5, P1Best: 1, R5: 0.00005, MAP: 0.12345, N: 7}
	// 0.12345 is stored as 0.123450000000000004174…, just above the tie, so it rounds up
	// (Python: round(0.12345, 4) == 0.1235). 0.00005 is stored just above 5e-5: 0.0001.
	want := Metrics{NDCG: 0.1234, MRR: 0.6667, P1: 0.5, P1Best: 1, R5: 0.0001, MAP: 0.1235, N: 7}
	if got := m.Round(4); got != want {
		t.Errorf("Round(4)\n got %v\nwant %v", got, want)
	}
	// An exact binary tie rounds half to even, as Python's round: 0.125 → 0.12, 0.375 → 0.38.
	if got := (Metrics{NDCG: 0.125, MRR: 0.375}).Round(2); got.NDCG != 0.12 || got.MRR != 0.38 {
		t.Errorf("Round(2) of ties = %v, want ndcg 0.12, mrr 0.38", got)
	}
}

func TestMetricsString(t *testing.T) {
	got := Metrics{NDCG: 0.5, MRR: 1.0 / 3, P1: 1, P1Best: 0, R5: 0.25, MAP: 0.125, N: 3}.String()
	want := "ndcg=0.5000 mrr=0.3333 p1=1.0000 p1best=0.0000 r5=0.2500 map=0.1250 n=3"
	if got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestCheckRanking(t *testing.T) {
	tests := []struct {
		ranked []string
		err    string
	}{
		{nil, ""},
		{[]string{"a", "b", "c"}, ""},
		{[]string{"a", "b", "a"}, `rank 3: case "a" already listed at rank 1`},
		{[]string{"a", ""}, "rank 2: empty case id"},
	}
	for _, tt := range tests {
		err := CheckRanking(tt.ranked)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("CheckRanking(%q) = %v, want nil", tt.ranked, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("CheckRanking(%q) = %v, want error containing %q", tt.ranked, err, tt.err)
		}
	}
}
