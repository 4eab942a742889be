package curate_test

import (
	"fmt"

	"github.com/caselink/caselink/similarity/curate"
)

// Diff is what the dry run of relate prints per case: the links a case
// gains (+) and, with --replace, the links it loses (-).
func ExampleDiff() {
	add, remove := curate.Diff([]string{"IL-0100", "HAND-1"}, []string{"IL-0100", "IL-0194"})
	fmt.Println("add:", add, "remove:", remove)
	// Output: add: [IL-0194] remove: [HAND-1]
}

// CheckScore and CheckTop turn nonsense options into one-line errors
// before any work is done.
func ExampleCheckScore() {
	fmt.Println(curate.CheckScore("--min-score", 2))
	fmt.Println(curate.CheckScore("--min-score", 0.15))
	fmt.Println(curate.CheckTop("--top", 0))
	// Output:
	// --min-score must be between 0 and 1, got 2
	// <nil>
	// --top must be at least 1, got 0
}
