package caselib

import (
	"hash/maphash"
	"strconv"
)

// Text is a bilingual text field. In a case file it is an object
// {"en": "...", "ko": "..."} (either value may be null or missing), a plain
// string (taken as English), or null/missing (both parts empty).
type Text struct {
	EN, KO string
}

// IsZero reports whether both languages are empty.
func (t Text) IsZero() bool { return t.EN == "" && t.KO == "" }

// In returns the text to show a reader of lang ("en" or "ko"): the Korean
// when lang is "ko" and the field has Korean, else the English, and the
// Korean when the field has no English.
func (t Text) In(lang string) string {
	if (lang == "ko" && t.KO != "") || t.EN == "" {
		return t.KO
	}
	return t.EN
}

// Impact says what an incident hit. In a case file it is an object
// {"scope", "users", "region"} whose values are strings or null, a plain
// string (taken as Scope), or null.
type Impact struct {
	Scope, Users, Region string
}

// Source is one entry of a case's "sources" list: an object {"url", "kind"}
// (other keys such as "license" or "archived" are ignored), or a plain string
// taken as the URL.
type Source struct {
	URL, Kind string
}

// Location says where a case came from.
type Location struct {
	// File is the path as the user named it: a path given to Load, or a
	// folder given to Load joined with the file's path inside it,
	// "<stdin>" for standard input, or "seeds/IL-0100.json" for an
	// embedded seed.
	File string
	// Line is the 1-based line on which the case's object starts: its line
	// in a JSON Lines file, 1 for an ordinary one-case file; 0 for a case
	// read by LoadRecords.
	Line int
	// Row names the record a case read by LoadRecords came from (for a
	// database table, its row); "" for a case read from a file.
	Row string
}

// String returns "file:line", or "source row R" for a record.
func (l Location) String() string {
	if l.Row != "" {
		return l.File + " row " + l.Row
	}
	return l.File + ":" + strconv.Itoa(l.Line)
}

// Case is one incident case as the rest of caselink sees it. Only the fields
// caselink uses are decoded; every other member of the case object is ignored
// here and left untouched by the writer.
type Case struct {
	ID   string // "id": a non-empty string, unique in a Library; printable, no '/', no space at either end, at most MaxIDLen bytes
	Org  string // "org"
	Date string // "date" as written, e.g. "2025-10-21"; "" when null or missing

	Title, Summary, SymptomsText, Trigger, Detection, Lessons Text

	// Remediation and ActionItems hold the "remediation" and "action_items"
	// lists. Their elements may be {"text": {"en", "ko"}} objects, plain
	// strings or {"en", "ko"} objects; a null element is refused.
	Remediation, ActionItems []Text

	Impact Impact // "impact"

	// DetectedAfter and ResolvedAfter are "timeline.detected_after" and
	// "timeline.resolved_after" as written ("25m", "3h"), when "timeline"
	// is an object; "" when null or missing. A "timeline" that is a list
	// of events (objects or strings) is left alone; any other type is
	// refused.
	DetectedAfter, ResolvedAfter string

	// Tag lists ("domain", "symptoms", "components", "contributing"):
	// lists of strings; a null element is refused.
	Domain, Symptoms, Components, Contributing []string

	// RootCause holds "root_cause", which may be a string (a one-element
	// list here; "" gives an empty list) or a list of strings.
	RootCause []string

	// Related holds the "related" list as loaded: ids of similar cases,
	// most similar first. WriteRelated updates it after a successful write.
	Related []string

	RecurrenceOf string   // "recurrence_of": an id, or "" when null or missing
	URL          string   // "url"
	Sources      []Source // "sources"
	Severity     string   // "severity"

	// Loc says where the case was read from.
	Loc Location

	src  *fileState // the file the case came from; nil for hand-made cases
	elem int        // its position in the file's list, when the file is a JSON list of cases
	at   span       // where its JSON lies in src (span.go)
}

// Library is a set of loaded cases.
type Library struct {
	// Cases are in load order: paths in the order given, folder entries in
	// lexical order, JSON Lines in line order.
	Cases []*Case
	// Skipped counts what lenient loading skipped: one per skipped case and
	// one per file skipped whole (it equals the number of Warn calls).
	Skipped int

	byID   map[string]*Case
	files  []*fileState // files in load order, for the writer
	seed   maphash.Seed // seed of the content fingerprints
	stream *streamed    // a library loaded by Stream, which keeps no cases (stream.go)
}

// ByID returns the case with the given id, or nil when the library has none.
// It reflects the cases as loaded, not later edits of Cases.
func (l *Library) ByID(id string) *Case {
	if l == nil {
		return nil
	}
	return l.byID[id]
}

// Len returns the number of cases.
func (l *Library) Len() int {
	if l.stream != nil {
		return len(l.stream.spans)
	}
	return len(l.Cases)
}
