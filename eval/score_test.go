package eval

import "testing"

func TestScoreQueries(t *testing.T) {
	qs := []Query{
		{ID: "q1", Relevant: map[string]int{"a": 2}, Kind: "log"},
		{ID: "q2", Relevant: map[string]int{"a": 2, "b": 1}, Kind: "log"},
		{ID: "q3", Relevant: map[string]int{"c": 2}, Kind: "chat"},
		{ID: "q4", Relevant: map[string]int{"a": 1}}, // no kind, no ranking
	}
	rankings := map[string][]string{
		"q1":    {"a", "x"},      // all 1
		"q2":    {"x", "b", "a"}, // cut at k=2 → [x b]
		"q3":    {"x", "y", "z"}, // all 0
		"other": {"a"},           // not a query: ignored
	}
	// q2 at k=2: gains [0 1]; DCG = 1·d2; ideal [2 1]: IDCG = 3·d1 + 1·d2.
	// MRR 1/2; P@1 0; P@1best 0; R@5 = 1/2; AP = (1/2)/2 = 0.25.
	q2 := Metrics{NDCG: d2 / (3*d1 + d2), MRR: 0.5, R5: 0.5, MAP: 0.25, N: 1}
	one := Metrics{NDCG: 1, MRR: 1, P1: 1, P1Best: 1, R5: 1, MAP: 1, N: 1}

	overall, byKind := ScoreQueries(qs, rankings, 2)
	// Four queries count, q3 and q4 with zeros.
	want := Metrics{NDCG: (1 + q2.NDCG) / 4, MRR: 1.5 / 4, P1: 1.0 / 4, P1Best: 1.0 / 4, R5: 1.5 / 4, MAP: 1.25 / 4, N: 4}
	if !sameMetrics(overall, want) {
		t.Errorf("overall\n got %v\nwant %v", overall, want)
	}
	wantKinds := map[string]Metrics{
		"log":       Mean([]Metrics{one, q2}),
		"chat":      {N: 1},
		UnknownKind: {N: 1},
	}
	if len(byKind) != len(wantKinds) {
		t.Errorf("byKind has %d kinds, want %d: %v", len(byKind), len(wantKinds), byKind)
	}
	for kind, w := range wantKinds {
		if got := byKind[kind]; !sameMetrics(got, w) {
			t.Errorf("byKind[%q]\n got %v\nwant %v", kind, got, w)
		}
	}

	overall, byKind = ScoreQueries(nil, rankings, 10)
	if overall != (Metrics{}) || byKind == nil || len(byKind) != 0 {
		t.Errorf("ScoreQueries(nil) = %v, %v; want zero and an empty map", overall, byKind)
	}
}

func TestScoreRelate(t *testing.T) {
	j := Judgments{
		"A": {"B": 2, "C": 1},
		"B": {"A": 2},
		"C": {"A": 1},
		"E": {"F": 0},
	}
	rankings := map[string][]string{
		"A": {"C", "B", "D"}, // gains [1 3 0]
		"B": {"C", "D", "A"}, // A at rank 3
		"D": {"A", "B"},      // D is not a judged subject: ignored
		"E": {"F"},           // judged, nothing relevant: zeros, but counts
		// C is judged but has no ranking: ignored, as in score.py.
	}
	// A: DCG = 1·d1 + 3·d2, IDCG = 3·d1 + 1·d2; MRR 1, P@1 1, P@1best 0, R@5 2/2, AP (1/1 + 2/2)/2 = 1.
	a := Metrics{NDCG: (d1 + 3*d2) / (3*d1 + d2), MRR: 1, P1: 1, P1Best: 0, R5: 1, MAP: 1, N: 1}
	// B: DCG = 3·d3, IDCG = 3·d1 → nDCG 0.5; MRR 1/3; R@5 1/1; AP (1/3)/1.
	b := Metrics{NDCG: d3, MRR: 1.0 / 3, R5: 1, MAP: 1.0 / 3, N: 1}
	e := Metrics{N: 1}
	want := Mean([]Metrics{a, b, e})
	if want.N != 3 {
		t.Fatalf("want.N = %d", want.N)
	}
	if got := ScoreRelate(j, rankings, 10); !sameMetrics(got, want) {
		t.Errorf("ScoreRelate\n got %v\nwant %v", got, want)
	}
	if got := ScoreRelate(j, nil, 10); got != (Metrics{}) {
		t.Errorf("ScoreRelate with no rankings = %v, want zero", got)
	}
}
