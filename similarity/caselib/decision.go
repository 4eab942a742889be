package caselib

// Verdict is what a curator decided about a pair of cases that dupes listed.
type Verdict string

// The verdicts a curator can record. Undo is recorded as a Decision with an
// empty Verdict: the pair goes back to undecided.
const (
	NotDuplicate Verdict = "not-duplicate"
	Duplicate    Verdict = "duplicate"
)

// Decision is one curator decision about the pair A, B (A < B by case id).
// Date is the day it was made, YYYY-MM-DD.
type Decision struct {
	A, B    string
	Verdict Verdict
	Date    string
}

// DecisionStore keeps curator decisions: a TSV file beside a case library, or a
// table beside a library kept in PostgreSQL. Implementations are safe for
// concurrent use.
type DecisionStore interface {
	// Load returns every pair's latest decision, undone pairs left out,
	// sorted by A then B.
	Load() ([]Decision, error)
	// Record stores d; a Decision with an empty Verdict undoes the pair's
	// earlier decision.
	Record(d Decision) error
}
