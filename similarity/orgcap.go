package similarity

import (
	"strings"
	"unicode"
)

// This file keeps one organisation's records from filling the top of a
// match list. A library of status pages holds thousands of notices of one
// provider written to one template; a paste that shares a few words with
// that template would otherwise get five of them, each saying the same
// thing, and hide the other providers' and the post-mortems' cases just
// below. Unless the paste names the organisation, at most
// Config.OrgCap of the first OrgCapTop hits are its records: the others
// move down to just below that top, in their order, so none is lost.

// OrgCapTop is the length of the top of a match list that Config.OrgCap
// keeps varied: what a person reads first.
const OrgCapTop = 5

// capOrgs reorders hits (best first) so that no organisation the paste
// does not name has more than Config.OrgCap of the first OrgCapTop.
func (ix *Index) capOrgs(hits []Hit, text string) []Hit {
	limit := ix.cfg.OrgCap
	if limit <= 0 || len(hits) <= limit {
		return hits
	}
	var words map[string]bool // the paste's words, read on first need
	named := func(org string) bool {
		if words == nil {
			words = map[string]bool{}
			for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
				return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '&'
			}) {
				words[w] = true
			}
		}
		for _, k := range orgKeys(org) {
			if words[k] {
				return true
			}
		}
		return false
	}
	count := map[string]int{}
	var top, moved []Hit
	for i, h := range hits {
		if len(top) == OrgCapTop {
			out := append(top, moved...)
			return append(out, hits[i:]...)
		}
		org := strings.ToLower(strings.TrimSpace(ix.Org(h.Doc)))
		if org != "" && count[org] >= limit && !named(org) {
			moved = append(moved, h)
			continue
		}
		count[org]++
		top = append(top, h)
	}
	return append(top, moved...)
}
