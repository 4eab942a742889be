package similarity

import (
	"slices"
	"strings"

	"github.com/caselink/caselink/similarity/caselib"
)

// Document is what the engine reads of a case, and what [Build] indexes: the
// text of each text view (English, and Korean where the case has it) and
// the namespaced tags, with the case they stand for. [NewDocument] is the
// one place that turns a case into a document; a caller may change a
// document's text or tags before building (an ablation, an experiment)
// without touching the case.
type Document struct {
	// Case is the case the document stands for. The index knows it by its
	// id, dates it by its date (for the date priors), filters on it and
	// returns it from [Index.Case].
	Case *caselib.Case
	Text [textViews][]string // text fragments per view, in field order
	Tags []string            // namespaced tags, e.g. "symptom:oom-killed"
}

// Documents returns the document of each case, in order.
func Documents(cases []*caselib.Case) []Document {
	docs := make([]Document, len(cases))
	for i, c := range cases {
		docs[i] = NewDocument(c)
	}
	return docs
}

// NewDocument gathers a case's text into views and its tag lists into
// namespaced tags. A field written only in Korean (ko, no en) goes into its
// view like English text: the analyzer maps Korean words onto the English
// terms they stand for (tokenize's glossary), so English and Korean pastes
// reach it. A field with both keeps its English only: its Korean is a
// translation that the glossary already reaches, and indexing it too made
// bilingual cases look alike through Korean words no English case has
// (relate nDCG@10 in the noisy library 0.765 → 0.760 on the judged
// incidents, 0.775 → 0.768 on incidents-judged-2, 0.991 → 0.982 on the
// seeds, for match gains within noise: Korean pastes 0.864 → 0.868).
func NewDocument(c *caselib.Case) Document {
	d := Document{Case: c}
	add := func(v View, s string) string {
		if s = strings.TrimSpace(s); s != "" {
			d.Text[v] = append(d.Text[v], s)
		}
		return s
	}
	both := func(v View, t caselib.Text) {
		if add(v, t.EN) == "" {
			add(v, t.KO)
		}
	}
	both(Symptoms, c.Title)
	both(Symptoms, c.SymptomsText)
	both(Symptoms, c.Detection)
	add(Symptoms, c.Impact.Scope)
	add(Symptoms, c.Impact.Users)
	add(Symptoms, c.Impact.Region)
	both(Cause, c.Summary)
	both(Cause, c.Trigger)
	both(Cause, c.Lessons)
	for _, t := range c.Remediation {
		both(Response, t)
	}
	for _, t := range c.ActionItems {
		both(Response, t)
	}
	d.Tags = CaseTags(c)
	return d
}

// CaseTags returns the namespaced tags of a case, sorted and without
// repeats: "domain:", "symptom:", "component:", "root_cause:" and
// "contributing:" followed by the tag as written, lowercased, with spaces
// turned into hyphens. Values such as "unknown" that say nothing are left out.
func CaseTags(c *caselib.Case) []string {
	var tags []string
	add := func(ns string, vals []string) {
		for _, v := range vals {
			v = normalizeTag(v)
			if v == "" || v == "unknown" || v == "none" || v == "n/a" {
				continue
			}
			tags = append(tags, ns+v)
		}
	}
	add("domain:", c.Domain)
	add("symptom:", c.Symptoms)
	add("component:", c.Components)
	add("root_cause:", c.RootCause)
	add("contributing:", c.Contributing)
	return sortedUnique(tags)
}

// normalizeTag lowercases a tag and joins its words with hyphens.
func normalizeTag(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.Join(strings.Fields(s), "-")
}

// sortedUnique sorts s and removes repeats, in place.
func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
