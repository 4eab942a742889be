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
