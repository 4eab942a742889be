package curate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
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

// A curator's review loop: list the probable duplicates, dismiss one pair,
// confirm another, and list again. The decisions file is what caselink dupes
// and caselink serve share.
func ExampleListDupes() {
	mk := func(id, org, date, title string) *caselib.Case {
		c := &caselib.Case{ID: id, Org: org, Date: date}
		c.Title.EN = title
		return c
	}
	ix, err := similarity.BuildCases([]*caselib.Case{
		mk("PM-1", "Initech", "2023-03-14", "Ledger cluster lost quorum after a firmware update; payments queued"),
		mk("ST-1", "Initech", "2023-03-14", "Ledger cluster lost quorum; payments queued"),
		mk("ST-2", "Initech", "2023-03-14", "Ledger quorum lost, payments queued"),
		mk("OT-1", "Hooli", "2021-01-02", "Search latency after a cache flush"),
	}, similarity.DefaultConfig())
	if err != nil {
		panic(err)
	}
	dir, _ := os.MkdirTemp("", "decisions")
	defer os.RemoveAll(dir)
	store := caselib.NewDecisionFile(filepath.Join(dir, caselib.DecisionsName))
	list := func() {
		ds, _ := store.Load()
		// A lower threshold than the default: in a library of four cases
		// no word is rare, so the same-event evidence counts for little.
		page := curate.ListDupes(ix, ds, curate.DupesQuery{Threshold: 0.3}, nil)
		for _, p := range page.Pairs {
			fmt.Println(strings.TrimSpace(fmt.Sprintf("%s ~ %s %s", ix.Case(p.A).ID, ix.Case(p.B).ID, p.Verdict)))
		}
		fmt.Println(page.Total, "pair(s)")
	}
	list()
	store.Record(caselib.Decision{A: "ST-2", B: "PM-1", Verdict: caselib.NotDuplicate})
	store.Record(caselib.Decision{A: "PM-1", B: "ST-1", Verdict: caselib.Duplicate})
	list()
	// Output:
	// ST-1 ~ ST-2
	// PM-1 ~ ST-1
	// PM-1 ~ ST-2
	// 3 pair(s)
	// ST-1 ~ ST-2
	// PM-1 ~ ST-1 duplicate
	// 2 pair(s)
}
