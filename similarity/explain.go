package similarity

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Contribution is one shared term or tag and what it adds to a score.
type Contribution struct {
	Term  string  `json:"term"`  // as written in the texts ("OOMKilled", "connection pool") or the tag ("symptom:oom-killed")
	View  View    `json:"view"`  // the case view it was found in
	Score float64 `json:"score"` // its share of the score
	// Via is the id of the best hit through which the second stage of match
	// credited this term ("like IL-0191"); empty for a direct match.
	Via string `json:"via,omitempty"`
	// From is the paste's own form of the term when it differs from the
	// case's ("PostgresWriteErrors" for postgres), and Typo says the paste
	// misspelt it ("primry" for primary): the paste word was read as the
	// case's.
	From string `json:"from,omitempty"`
	Typo bool   `json:"typo,omitempty"`
	// Across says that the term is in one case's title (symptoms view)
	// and the other's body (cause view): what relate counts for records
	// written as a title and a body ([Config.CrossViews]).
	Across bool `json:"across,omitempty"`

	canon uint32 // the term's canonical id, for labelParts
	quiet bool   // a filler word or a class term (<hex>, <ip>…): counted, not given as a reason by Why
}

// Explanation says why a case scored what it did. The contributions, plus
// RestScore when [Explanation.Top] cut them, sum to Score within 1e-6.
type Explanation struct {
	Score float64        `json:"score"`
	Parts []Contribution `json:"parts"` // largest first, ties by view then term
	// RestParts and RestScore are the number and the sum of the parts that
	// Top left out (0 when none).
	RestParts int     `json:"rest_parts,omitempty"`
	RestScore float64 `json:"rest_score,omitempty"`
	// Views sums the direct contributions per view.
	Views ViewScores `json:"views"`
	// Query is the part of the score from the query itself (the paste, or
	// the case for a case-to-case score), Expand the part
	// from similarity to the best hits (second stage); Query + Expand = Score.
	Query  float64 `json:"query"`
	Expand float64 `json:"expand"`
}

// ViewScores holds a number per case view. In JSON it is an object keyed by
// the views' names: {"symptoms": 0.1, "cause": 0.05, …}.
type ViewScores [NumViews]float64

// MarshalJSON writes the scores as an object keyed by view name, in view
// order.
func (v ViewScores) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, View(i).String())
		b = append(b, ':')
		b = strconv.AppendFloat(b, x, 'g', -1, 64)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads the object MarshalJSON writes; views it does not name
// are 0.
func (v *ViewScores) UnmarshalJSON(b []byte) error {
	var m map[string]float64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*v = ViewScores{}
	for name, x := range m {
		var view View
		if err := view.UnmarshalText([]byte(name)); err != nil {
			return err
		}
		v[view] = x
	}
	return nil
}

// UnmarshalText reads a view's name ("symptoms", "cause", "response",
// "tags"), as MarshalText writes it.
func (v *View) UnmarshalText(b []byte) error {
	for w := range View(NumViews) {
		if w.String() == string(b) {
			*v = w
			return nil
		}
	}
	return fmt.Errorf("unknown view %q", b)
}

// Top returns ex with only its n largest parts; the others are summed in
// RestParts and RestScore, so that a hit sharing hundreds of terms stays
// readable.
func (ex Explanation) Top(n int) Explanation {
	if n < 0 || len(ex.Parts) <= n {
		return ex
	}
	for _, p := range ex.Parts[n:] {
		ex.RestScore += p.Score
	}
	ex.RestParts += len(ex.Parts) - n
	ex.Parts = ex.Parts[:n:n]
	return ex
}

// whyFiller are analyzed terms too common in any text to be given as a
// reason for a match ("right after the deploy", "take traffic", "the app"),
// though they count in the score.
var whyFiller = map[string]bool{
	"right": true, "take": true, "took": true, "one": true, "not": true, "get": true, "got": true,
	"app": true, "make": true, "use": true, "see": true, "well": true, "back": true, "thing": true,
}

// ExplainPair explains relate's score of the case at position b for the
// case at position a ([Index.Related]), with terms spelled as in the
// library. A word that a title-and-body record a has in its title and b in
// its body (or the other way round) is a part of b's view marked Across.
func (ix *Index) ExplainPair(a, b int) Explanation {
	var ex Explanation
	q := ix.caseQuery(a, ix.rel, nil)
	if cross := ix.crossQuery(a, q, nil); cross != nil {
		f := 1 / (1 + ix.cfg.CrossViews)
		ix.addShared(&ex, q, b, ix.rel, f, "")
		n := len(ex.Parts)
		ix.addShared(&ex, cross, b, ix.rel, f, "")
		for i := n; i < len(ex.Parts); i++ {
			ex.Parts[i].Across = true
		}
	} else {
		ix.addShared(&ex, q, b, ix.rel, 1, "")
	}
	ex.Query = ex.Score
	ix.labelParts(&ex, 0, b, nil, nil)
	ex.finish()
	return ex
}

// ExplainMatch explains a hit of a match result: the terms and tags it shares
// with the paste (spelled as in the paste) and, when the second stage ran,
// what it shares with the best hits it was re-ranked by.
func (ix *Index) ExplainMatch(r *Result, h Hit) Explanation {
	var ex Explanation
	e := r.ExpandWeight
	if len(r.Expanded) > 0 && h.Doc == r.Expanded[0] {
		// The best hit's second-stage score is its own paste score (its
		// similarity to itself is 1): all of it is the paste's.
		e = 0
	}
	ix.addShared(&ex, r.paste.q, h.Doc, nil, 1-e, "")
	ex.Query = ex.Score
	for i, src := range r.Expanded {
		ix.addShared(&ex, ix.caseQuery(src, ix.exp, nil), h.Doc, ix.exp, e*r.ExpandedWeight[i], ix.ids[src])
	}
	ex.Expand = ex.Score - ex.Query
	ix.labelParts(&ex, 0, h.Doc, r.paste.surface, r.paste.typos)
	ex.finish()
	return ex
}

// addShared adds f × each product of the key-sorted query q with case doc.
func (ix *Index) addShared(ex *Explanation, q []qterm, doc int, prof *profile, f float64, via string) {
	if f == 0 {
		return
	}
	if prof != nil {
		f *= float64(prof.scale[doc])
	}
	wt := ix.weightsFor(prof)
	ix.shared(q, doc, func(i, j int) {
		k := ix.vkey[j]
		c := float64(q[i].w) * float64(wt.at(k, j)) * f
		t := ix.voc.terms[ix.craw[keyTerm(k)]]
		quiet := whyFiller[t] || strings.HasPrefix(t, "<")
		// labelParts names the term afterwards, in the case's words.
		ex.Parts = append(ex.Parts, Contribution{View: keyView(k), Score: c, Via: via, canon: keyTerm(k), quiet: quiet})
		ex.Score += c
		if via == "" {
			ex.Views[keyView(k)] += c
		}
	})
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
// views summed, filler words ("right", "take", "app"…) and class terms (a
// hex fragment of a pod name, an IP) left out; then, when the second stage of match moved the hit, one
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
		if p.quiet {
			continue
		}
		m := direct
		if p.Via != "" {
			if via[p.Via] == nil {
				via[p.Via] = map[string]*agg{}
				viaOrder = append(viaOrder, p.Via)
			}
			m = via[p.Via]
		}
		label := p.Term
		if p.Via == "" {
			label = reasonLabel(p.Term, p.From, p.Typo)
		}
		key := strings.ToLower(label)
		if a, ok := m[key]; ok {
			a.score += p.Score
		} else {
			m[key] = &agg{label, p.Score}
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
