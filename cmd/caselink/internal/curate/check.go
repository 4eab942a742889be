package curate

import (
	"strconv"

	"github.com/caselink/caselink/similarity/caselib"
)

// LinkProblem kinds.
const (
	Dangling = "dangling" // the linked id names no case of the library
	Self     = "self"     // a case links to itself
	Repeated = "repeated" // the same id appears twice in one related list
)

// LinkProblem is one suspicious entry of a case's related list.
type LinkProblem struct {
	Case *caselib.Case
	Link string // the id in the related list
	Kind string // Dangling, Self or Repeated
}

// Message returns the problem as one line naming the file, the case and the
// link.
func (p LinkProblem) Message() string {
	e := caselib.Error{File: p.Case.Loc.File, Line: p.Case.Loc.Line, ID: p.Case.ID, Field: "related"}
	switch p.Kind {
	case Dangling:
		e.Msg = "links to " + quote(p.Link) + ", which is no case of the library"
	case Self:
		e.Msg = "links to itself"
	default:
		e.Msg = "links to " + quote(p.Link) + " more than once"
	}
	return e.Error()
}

func quote(s string) string { return `"` + s + `"` }

// LinkWarning sums up link problems in one line for a warning: the first
// problem, how many more there are, and where to see them all; "" when
// there is none.
func LinkWarning(probs []LinkProblem) string {
	if len(probs) == 0 {
		return ""
	}
	s := probs[0].Message()
	if len(probs) > 1 {
		s += " (and " + strconv.Itoa(len(probs)-1) + " more)"
	}
	return s + "; run caselink check to list them"
}

// CheckLinks returns the related links of cases that point nowhere, to the
// case itself, or repeat an earlier entry, in library order. byID looks up
// a case by id (nil when there is none).
func CheckLinks(cases []*caselib.Case, byID func(id string) *caselib.Case) []LinkProblem {
	var out []LinkProblem
	for _, c := range cases {
		seen := make(map[string]bool, len(c.Related))
		for _, id := range c.Related {
			switch {
			case seen[id]:
				out = append(out, LinkProblem{c, id, Repeated})
			case id == c.ID:
				out = append(out, LinkProblem{c, id, Self})
			case byID(id) == nil:
				out = append(out, LinkProblem{c, id, Dangling})
			}
			seen[id] = true
		}
	}
	return out
}
