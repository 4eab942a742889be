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
// does not name has more than Config.OrgCap of the first OrgCapTop. When the
// hits hold too few cases of other organisations to fill the top, the
// paste's best cases outside the crowding organisation are searched for
// (above minScore, through accept) and scored as the second stage of res
// would have scored them.
func (ix *Index) capOrgs(res *Result, hits []Hit, text string, minScore float64, accept func(int) bool) []Hit {
	limit := ix.cfg.OrgCap
	if limit <= 0 || len(hits) <= limit {
		return hits
	}
	named := pasteNames(text)
	out, crowd := ix.capTop(hits, limit, named)
	if crowd == "" {
		return out
	}
	others := func(d int) bool {
		return strings.ToLower(strings.TrimSpace(ix.Org(d))) != crowd && (accept == nil || accept(d))
	}
	seen := make(map[int]bool, len(hits))
	for _, h := range hits {
		seen[h.Doc] = true
	}
	more := hits
	for _, h := range ix.search(&search{q: res.paste.q, k: OrgCapTop, minScore: minScore, accept: others}) {
		if !seen[h.Doc] {
			h.First, h.Stage = h.Score, "query"
			h.Score = ix.secondStage(res, h)
			if h.Score >= minScore && h.Score > 0 {
				more = append(more, h)
			}
		}
	}
	out, _ = ix.capTop(more, limit, named)
	return out
}

// pasteNames returns a test of whether the paste names an organisation:
// one of its name's keys (orgKeys) is a word of the paste.
func pasteNames(text string) func(org string) bool {
	var words map[string]bool // the paste's words, read on first need
	return func(org string) bool {
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
}

// capTop moves down, just below the first OrgCapTop, the hits of an
// organisation that already has limit of them there and that the paste does
// not name. crowd is the organisation (lower-cased) whose hits still fill
// more than limit of the top, for want of others; "" when none does.
func (ix *Index) capTop(hits []Hit, limit int, named func(string) bool) (out []Hit, crowd string) {
	count := map[string]int{}
	var top, moved []Hit
	for i, h := range hits {
		if len(top) == OrgCapTop {
			out = append(top, moved...)
			return append(out, hits[i:]...), ""
		}
		org := strings.ToLower(strings.TrimSpace(ix.Org(h.Doc)))
		if org != "" && count[org] >= limit && !named(org) {
			moved = append(moved, h)
			continue
		}
		count[org]++
		top = append(top, h)
	}
	if len(moved) > 0 {
		crowd = strings.ToLower(strings.TrimSpace(ix.Org(moved[0].Doc)))
	}
	return append(top, moved...), crowd
}
