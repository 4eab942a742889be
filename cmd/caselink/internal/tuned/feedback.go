package tuned

import (
	"fmt"
	"strings"

	"github.com/caselink/caselink/eval"
	"github.com/caselink/caselink/similarity/caselib"
)

// MinPastes is the fewest pastes with a helpful verdict that tune learns
// from when the library has too few curated links: each one is a judged
// match list.
const MinPastes = 10

// AddFeedback adds the verdicts on-call engineers gave match hits (the
// feedback file beside the library) to the signal: each distinct paste is a
// judged match list, a helpful hit graded 2 and an unhelpful one 0 (the
// latest verdict on a case counts). Pastes are scored by nDCG, so only those
// with a helpful verdict make lists; each paste is a group of its own, so
// cross-validation never has one paste on both sides. Verdicts naming no
// case of the library are counted and skipped.
func (s *Signal) AddFeedback(cases []*caselib.Case, fb []caselib.Feedback) {
	if len(fb) == 0 {
		return
	}
	known := make(map[string]bool, len(cases))
	for _, c := range cases {
		known[c.ID] = true
	}
	if s.Match == nil {
		s.Match, s.Pastes = eval.Judgments{}, map[string]string{}
	}
	ids := map[string]string{} // paste text → its list id
	for _, f := range fb {
		text := strings.TrimSpace(f.Paste)
		if text == "" {
			continue
		}
		if !known[f.ID] {
			s.FeedbackUnknown++
			continue
		}
		s.Verdicts++
		grade := 0
		if f.Helpful {
			s.Helpful++
			grade = 2
		}
		id, ok := ids[text]
		if !ok {
			id = fmt.Sprintf("paste %d", len(ids)+1)
			ids[text] = id
			s.Pastes[id] = text
			s.Match[id] = map[string]int{}
		}
		s.Match[id][f.ID] = grade // the latest verdict wins
	}
	s.Judged = len(ids)
	roots := map[string]bool{}
	for _, g := range s.group {
		roots[g] = true
	}
	for _, id := range s.Match.Subjects() {
		if s.helpfulFor(id) {
			s.group[id] = "paste:" + id
			roots["paste:"+id] = true
		}
	}
	s.Groups = len(roots)
}

// helpfulFor reports whether a paste has a helpful verdict, which makes it a
// list nDCG can score.
func (s Signal) helpfulFor(paste string) bool {
	for _, g := range s.Match[paste] {
		if g > 0 {
			return true
		}
	}
	return false
}

// MatchLists returns the pastes whose match list tune scores: those with a
// helpful verdict, in order.
func (s Signal) MatchLists() []string {
	var out []string
	for _, id := range s.Match.Subjects() {
		if s.helpfulFor(id) {
			out = append(out, id)
		}
	}
	return out
}
