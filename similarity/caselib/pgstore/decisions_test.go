package pgstore

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

func TestDecisions(t *testing.T) {
	_, url := newTable(t, seedsDir)
	store, err := NewDecisions(url)
	if err != nil {
		t.Fatal(err)
	}
	if store.Table() != "cases_decisions" {
		t.Errorf("table %q", store.Table())
	}
	got, err := store.Load()
	if err != nil || len(got) != 0 {
		t.Fatalf("before any decision: %v, %v", got, err)
	}
	for _, d := range []caselib.Decision{
		{A: "IL-0194", B: "IL-0100", Verdict: caselib.NotDuplicate, Date: "2026-11-01"}, // B < A: stored as IL-0100, IL-0194
		{A: "IL-0191", B: "IL-0371", Verdict: caselib.Duplicate, Date: "2026-11-02"},
		{A: "IL-0100", B: "IL-0191", Verdict: caselib.Duplicate, Date: "2026-11-03"},
		{A: "IL-0191", B: "IL-0371", Verdict: caselib.NotDuplicate, Date: "2026-11-04"}, // changes its mind
		{A: "IL-0100", B: "IL-0191", Date: "2026-11-05"},                                // undo
	} {
		if err := store.Record(d); err != nil {
			t.Fatal(err)
		}
	}
	// a second store on the same URL (another process) sees the same
	other, _ := NewDecisions(url)
	got, err = other.Load()
	want := []caselib.Decision{
		{A: "IL-0100", B: "IL-0194", Verdict: caselib.NotDuplicate, Date: "2026-11-01"},
		{A: "IL-0191", B: "IL-0371", Verdict: caselib.NotDuplicate, Date: "2026-11-04"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Load = %v, %v\nwant %v", got, err, want)
	}
	if err := store.Record(caselib.Decision{A: "X", B: "Y", Verdict: "maybe"}); err == nil {
		t.Error("an unknown verdict was recorded")
	}
}

// TestDecisionsConcurrent: many clients (each its own connection, as
// several servers and CLI runs are) recording at once into a table that
// does not exist yet lose no decision, and the last word on a pair they
// all decide is one of theirs.
func TestDecisionsConcurrent(t *testing.T) {
	_, url := newTable(t, seedsDir)
	const clients, each = 12, 10
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for c := range clients {
		wg.Go(func() {
			store, err := NewDecisions(url)
			if err != nil {
				errs <- err
				return
			}
			for i := range each {
				d := caselib.Decision{A: fmt.Sprintf("C%02d", c), B: fmt.Sprintf("X%02d", i), Verdict: caselib.NotDuplicate, Date: "2026-12-01"}
				if i == each-1 {
					d = caselib.Decision{A: "IL-0100", B: "IL-0191", Verdict: caselib.Duplicate, Date: fmt.Sprintf("2026-12-%02d", c+1)}
				}
				if err := store.Record(d); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	store, _ := NewDecisions(url)
	got, err := store.Load()
	if err != nil {
		t.Fatal(err)
	}
	if want := clients*(each-1) + 1; len(got) != want {
		t.Fatalf("%d decisions kept, want %d", len(got), want)
	}
}
