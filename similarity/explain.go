package similarity

import (
	"cmp"
	"slices"
	"strings"
)

// Contribution is one shared term or tag and what it adds to a score.
type Contribution struct {
	Term  string  // as written in the texts ("OOMKilled", "connection pool") or the tag ("symptom:oom-killed")
	View  View    // the case view it was found in
	Score float64 // its share of the score
	// Via is the id of the best hit through which the second stage of match
	// credited this term ("like IL-0191"); empty for a direct match.
	Via string
}

// Explanation says why a case scored what it did. The contributions sum to
// Score within 1e-6.
type Explanation struct {
	Score float64
	Parts []Contribution // largest first, ties by view then term
	// Views sums the direct contributions per view.
	Views [NumViews]float64
	// Query is the part of the score from the paste itself, Expand the part
	// from similarity to the best hits (second stage); Query + Expand = Score.
	Query, Expand float64
}

// ExplainPair explains the case-to-case score of the cases at positions a
// and b, with terms spelled as in the library.
func (ix *Index) ExplainPair(a, b int) Explanation {
	var ex Explanation
	ix.addShared(&ex, ix.caseQuery(a, ix.rel, nil), b, ix.rel, 1, "", nil)
	ex.Query = ex.Score
	ex.finish()
	return ex
}

// ExplainMatch explains a hit of a match result: the terms and tags it shares
// with the paste (spelled as in the paste) and, when the second stage ran,
// what it shares with the best hits it was re-ranked by.
func (ix *Index) ExplainMatch(r *Result, h Hit) Explanation {
	var ex Explanation
	e := r.ExpandWeight
	ix.addShared(&ex, r.paste.q, h.Doc, nil, 1-e, "", r.paste.surface)
	ex.Query = ex.Score
	for i, src := range r.Expanded {
		ix.addShared(&ex, ix.caseQuery(src, ix.exp, nil), h.Doc, ix.exp, e*r.ExpandedWeight[i], ix.cases[src].ID, nil)
	}
	ex.Expand = ex.Score - ex.Query
	ex.finish()
	return ex
}

// addShared adds f × each product of the key-sorted query q with case doc.
func (ix *Index) addShared(ex *Explanation, q []qterm, doc int, prof *profile, f float64, via string, surface map[uint32]string) {
	if f == 0 {
		return
	}
	if prof != nil {
		f *= float64(prof.scale[doc])
	}
	keys := ix.vkey[ix.vstart[doc]:ix.vstart[doc+1]]
	vals := ix.weightsFor(prof).vval[ix.vstart[doc]:ix.vstart[doc+1]]
	i, j := 0, 0
	for i < len(q) && j < len(keys) {
		switch {
		case q[i].key < keys[j]:
			i++
		case q[i].key > keys[j]:
			j++
		default:
			k := keys[j]
			c := float64(q[i].w) * float64(vals[j]) * f
			term := ""
			if surface != nil {
				term = surface[keyTerm(k)]
			}
			if term == "" {
				term = ix.surfaceOf(keyTerm(k))
			}
			ex.Parts = append(ex.Parts, Contribution{Term: term, View: keyView(k), Score: c, Via: via})
			ex.Score += c
			if via == "" {
				ex.Views[keyView(k)] += c
			}
			i++
			j++
		}
	}
}

// surfaceOf returns how a term is written in the library: the spelling in
// the first case that has it, or the tag itself.
func (ix *Index) surfaceOf(canon uint32) string {
	r := ix.craw[canon]
	if t := ix.voc.terms[r]; strings.HasPrefix(t, tagPrefix) {
		return t[len(tagPrefix):]
	}
	return ix.voc.surface[r]
}

func (ex *Explanation) finish() {
	slices.SortStableFunc(ex.Parts, func(a, b Contribution) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if a.View != b.View {
			return cmp.Compare(a.View, b.View)
		}
		if c := strings.Compare(a.Term, b.Term); c != 0 {
			return c
		}
		return strings.Compare(a.Via, b.Via)
	})
}

// Why returns up to n short reasons, strongest first: each term or tag
// shared with the paste (or the other case) once, its contributions over
// views summed; then, when the second stage of match moved the hit, one
// reason per best hit it was compared with, "like IL-0191: a, b, c".
func (ex Explanation) Why(n int) []string {
	type agg struct {
		term  string
		score float64
	}
	direct := map[string]*agg{}
	via := map[string]map[string]*agg{}
	var viaOrder []string
	for _, p := range ex.Parts {
		m := direct
		if p.Via != "" {
			if via[p.Via] == nil {
				via[p.Via] = map[string]*agg{}
				viaOrder = append(viaOrder, p.Via)
			}
			m = via[p.Via]
		}
		key := strings.ToLower(p.Term)
		if a, ok := m[key]; ok {
			a.score += p.Score
		} else {
			m[key] = &agg{p.Term, p.Score}
		}
	}
	ranked := func(m map[string]*agg) []*agg {
		var l []*agg
		for _, a := range m {
			l = append(l, a)
		}
		slices.SortFunc(l, func(a, b *agg) int {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			return strings.Compare(a.term, b.term)
		})
		return l
	}
	var out []string
	for _, a := range ranked(direct) {
		if len(out) >= n {
			return out
		}
		out = append(out, a.term)
	}
	for _, id := range viaOrder {
		if len(out) >= n {
			break
		}
		var terms []string
		for _, a := range ranked(via[id]) {
			if len(terms) == 3 {
				break
			}
			terms = append(terms, a.term)
		}
		out = append(out, "like "+id+": "+strings.Join(terms, ", "))
	}
	return out
}
