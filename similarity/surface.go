package similarity

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/caselink/caselink/tokenize"
)

// Reasons in the case's own words: an explanation names each shared term as
// the hit's case writes it ("postgres", not the paste's
// "PostgresWriteErrors", nor the spelling of whichever case of the library
// happened to have the term first), with the paste's form beside it when the
// two differ, and a corrected typo as "primry→primary". The spelling is read
// from the case's own text when the explanation is made, so it is the same
// from a fresh index and after any reload.

// caseForm is how a case writes a term: the token it is in, and for a
// part of a compound token the piece it came from ("" for a whole word).
type caseForm struct{ token, piece string }

// caseSurfaces returns how the case at doc writes each of the canonical
// terms in want: the first spelling in its text as a whole word, in view
// order, else the first compound that has it as a part, with the piece of the compound it came from
// ("Postgres" of "PostgresWriteErrors"). Tags are named by the tag. Terms the case's text
// does not have (which happens only for tags) are left out.
func (ix *Index) caseSurfaces(doc int, want map[uint32]bool) map[uint32]caseForm {
	out := make(map[uint32]caseForm, len(want))
	left := 0
	for c := range want {
		if t := ix.voc.terms[ix.craw[c]]; strings.HasPrefix(t, tagPrefix) {
			out[c] = caseForm{token: t[len(tagPrefix):]}
		} else {
			left++
		}
	}
	if left == 0 || doc < 0 || doc >= len(ix.cases) {
		return out
	}
	var terms []tokenize.Term
	d := ix.document(doc)
	for v := range textViews {
		for _, text := range d.Text[v] {
			terms = ix.an.AppendTerms(terms[:0], text)
			for _, t := range terms {
				c := ix.canonOf(t.Text)
				if c == 0 || !want[c-1] {
					continue
				}
				// The case's first whole word for the term wins over a
				// piece of a compound seen before it.
				old, ok := out[c-1]
				if ok && (old.piece == "" || t.Kind == tokenize.KindPart) {
					continue
				}
				f := caseForm{token: t.Surface}
				if t.Kind == tokenize.KindPart {
					f.piece = ix.pieceOf(t.Surface, t.Text)
				}
				out[c-1] = f
				if f.piece == "" {
					if left--; left == 0 {
						return out
					}
				}
			}
		}
	}
	return out
}

// pieceOf returns the piece of the compound token surface that analyzes to
// term: "Postgres" for postgr in "PostgresWriteErrors", "payments" for
// payment in "prod-payments-db"; surface itself when no piece alone does.
func (ix *Index) pieceOf(surface, term string) string {
	for _, p := range pieces(surface) {
		for _, t := range ix.an.Analyze(p) {
			if t.Text == term {
				return p
			}
		}
	}
	return surface
}

// pieces cuts a token at anything but letters and digits and at case
// boundaries: "PostgresWriteErrors" → Postgres, Write, Errors;
// "HTTPServer" → HTTP, Server; "audit_log_id_seq" → audit, log, id, seq.
func pieces(s string) []string {
	var out []string
	start := -1
	var prev rune
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, s[start:end])
		}
		start = -1
	}
	for i, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			prev = 0
			continue
		}
		if start >= 0 && unicode.IsUpper(r) {
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			if unicode.IsLower(prev) || (unicode.IsUpper(prev) && unicode.IsLower(next)) {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	flush(len(s))
	return out
}

// reasonLabel is how Why names a shared term: the case's form, then the
// paste's in brackets when it differs ("postgres (from
// PostgresWriteErrors)"), or "paste→case" for a corrected typo.
func reasonLabel(term, from string, typo bool) string {
	switch {
	case typo && from != "":
		return from + "→" + term
	case from != "" && !strings.EqualFold(from, term):
		return term + " (from " + from + ")"
	}
	return term
}

// labelParts names the parts of ex from position first on in the words of
// the case at doc; surface, when not nil, gives the paste's own spelling of
// each term and typos the paste words read as another.
func (ix *Index) labelParts(ex *Explanation, first, doc int, surface map[uint32]string, typos map[uint32]typoFix) {
	want := map[uint32]bool{}
	for _, p := range ex.Parts[first:] {
		want[p.canon] = true
	}
	forms := ix.caseSurfaces(doc, want)
	// Terms of one paste token found in one token of the case ("OOMKilled"
	// and "OOM-killed" share oom and kill) are one reason, named by the
	// case's token.
	type pair struct{ from, token string }
	shared := map[pair]map[uint32]bool{}
	for c := range want {
		if f, ok := forms[c]; ok && f.piece != "" && surface != nil && surface[c] != "" {
			k := pair{surface[c], f.token}
			if shared[k] == nil {
				shared[k] = map[uint32]bool{}
			}
			shared[k][c] = true
		}
	}
	for i := first; i < len(ex.Parts); i++ {
		p := &ex.Parts[i]
		f, ok := forms[p.canon]
		if !ok {
			f.token = ix.surfaceOf(p.canon)
		}
		p.Term = f.token
		if p.Via != "" || surface == nil {
			continue
		}
		from := surface[p.canon]
		// A part of a compound is named by the whole compound when the paste
		// wrote it the same way ("OOMKilled" once, not OOM and Killed) or
		// shares more than this part with it, by its piece when not
		// ("postgres (from PostgresWriteErrors)").
		if f.piece != "" && !strings.EqualFold(from, f.token) && len(shared[pair{from, f.token}]) < 2 {
			p.Term = f.piece
		}
		if _, ok := typos[p.canon]; ok && from != "" {
			p.From, p.Typo = from, true
		} else if from != "" && !strings.EqualFold(from, p.Term) {
			p.From = from
		}
	}
}
