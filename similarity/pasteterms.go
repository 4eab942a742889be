package similarity

import "github.com/caselink/caselink/tokenize"

// PasteTerm is one term of a paste as match reads it against a library:
// what caselink analyze --cases prints.
type PasteTerm struct {
	tokenize.Term // Text is the term matched: the library's word when Typo is set

	// Typo is the library's spelling of the word (connection) when match
	// reads the paste's word (Surface: conection) as it: a word the library
	// never uses, within a few edits of one it does; "" otherwise.
	Typo string
	// Cases is how many cases of the library hold the term: 0 means the
	// library never uses it, so it cannot match anything.
	Cases int
}

// PasteTerms returns the terms match makes of text against this library,
// in the analyzer's order: the index's own analyzer (with the library's
// settings), and the typo corrections match applies. It reads the index
// and changes nothing, so it explains a match without scoring one.
func (ix *Index) PasteTerms(text string) []PasteTerm {
	terms := ix.an.Analyze(text)
	own := make([]string, len(terms))
	for i, t := range terms {
		own[i] = t.Text
	}
	ix.fixTypos(terms)
	out := make([]PasteTerm, len(terms))
	for i, t := range terms {
		out[i].Term = t
		c := ix.canonOf(t.Text)
		if c == 0 {
			continue
		}
		out[i].Cases = int(ix.df[c-1])
		if t.Text != own[i] {
			out[i].Typo = ix.surfaceOf(c - 1)
		}
	}
	return out
}
