package caselib_test

import (
	"fmt"

	"github.com/caselink/caselink/similarity/caselib"
)

func ExampleSpliceRelated() {
	compact := []byte(`{"id":"IL-0100","domain":["kubernetes","aws"],"related":[]}`)
	out, err := caselib.SpliceRelated(compact, []string{"IL-0191", "IL-0371"})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))

	// Without "related", the member is added at the end in the object's style.
	spaced := []byte(`{"id": "IL-0194", "org": "Palark"}`)
	out, _ = caselib.SpliceRelated(spaced, []string{"IL-0100"})
	fmt.Println(string(out))
	// Output:
	// {"id":"IL-0100","domain":["kubernetes","aws"],"related":["IL-0191","IL-0371"]}
	// {"id": "IL-0194", "org": "Palark", "related": ["IL-0100"]}
}

func ExampleLoad() {
	lib, err := caselib.Load([]string{"testdata/ok/crlf.jsonl"}, caselib.LoadOptions{})
	if err != nil {
		panic(err)
	}
	for _, c := range lib.Cases {
		fmt.Println(c.Loc, c.ID, c.Related)
	}

	_, err = caselib.Load([]string{"testdata/bad/wrongtype.jsonl"}, caselib.LoadOptions{})
	fmt.Println(err)
	// Output:
	// testdata/ok/crlf.jsonl:1 T-0003 [T-0001 T-0002]
	// testdata/ok/crlf.jsonl:3 T-0004 []
	// testdata/ok/crlf.jsonl:4 T-0005 []
	// testdata/bad/wrongtype.jsonl:2: case "B-0004": field "domain": expected a list of strings, found a string
}
