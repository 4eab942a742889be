package eval_test

import (
	"fmt"
	"os"

	"github.com/caselink/caselink/eval"
)

// The engine ranked a related case first and the case to find second.
func ExampleScore() {
	ranked := []string{"IL-0371", "IL-0191", "IL-0100"}
	relevant := map[string]int{"IL-0191": 2, "IL-0371": 1}
	m := eval.Score(ranked, relevant, 10)
	fmt.Println(m)
	// Output:
	// ndcg=0.7967 mrr=1.0000 p1=1.0000 p1best=0.0000 r5=1.0000 map=1.0000 n=1
}

func ExampleWriteTable() {
	qs := []eval.Query{
		{ID: "q1", Text: "pods get all the traffic", Relevant: map[string]int{"IL-0191": 2}, Kind: "chat"},
		{ID: "q2", Text: "etcd memory 3x", Relevant: map[string]int{"IL-0194": 2, "IL-0100": 1}, Kind: "alert"},
	}
	rankings := map[string][]string{
		"q1": {"IL-0191", "IL-0371"},
		"q2": {"IL-0100", "IL-0194"},
	}
	match, byKind := eval.ScoreQueries(qs, rankings, 10)
	eval.WriteTable(os.Stdout, []eval.Row{{Name: "seeds", Match: &match, ByKind: byKind}})
	// Output:
	//          match
	// name       ndcg     mrr      p1  p1best      r5     map  n
	// seeds    0.8984  1.0000  1.0000  0.5000  1.0000  1.0000  2
	//   alert  0.7967  1.0000  1.0000  0.0000  1.0000  1.0000  1
	//   chat   1.0000  1.0000  1.0000  1.0000  1.0000  1.0000  1
}

// Two configurations scored on the same eight queries: the second gains on
// five and loses on one. The paired interval of the difference reaches 0:
// eight queries cannot tell this gain from noise.
func ExampleBootstrap_Paired() {
	before := []float64{0.50, 0.75, 0.25, 1.00, 0.50, 0.00, 0.75, 0.50}
	after := []float64{0.75, 0.75, 0.50, 1.00, 0.75, 0.25, 0.50, 0.75}
	d := eval.DefaultBootstrap().Paired(before, after, nil)
	fmt.Printf("gain %+.4f, 95%% interval [%+.4f, %+.4f] over %d queries\n", d.Mean, d.Lo, d.Hi, d.N)
	// Output:
	// gain +0.1250, 95% interval [+0.0000, +0.2188] over 8 queries
}
