package eval

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkCrossValidate measures a 5-fold cross-validation of a grid the
// size of caselink's (35 variants) on a judged set the size of
// incidents-judged (150 lists in 40 groups).
func BenchmarkCrossValidate(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := Matrix{Scores: make([][]float64, 35)}
	for v := range m.Scores {
		m.Variants = append(m.Variants, fmt.Sprint("v", v))
	}
	for i := range 150 {
		m.Items = append(m.Items, fmt.Sprint("match:q", i))
		m.Groups = append(m.Groups, fmt.Sprint("g", i%40))
		m.Weights = append(m.Weights, 1.0/150)
		for v := range m.Scores {
			m.Scores[v] = append(m.Scores[v], rng.Float64())
		}
	}
	for b.Loop() {
		if _, err := CrossValidate(m, 5, DefaultBootstrap()); err != nil {
			b.Fatal(err)
		}
	}
}
