package eval

import (
	"math/rand/v2"
	"strings"
	"unicode"
)

// TypoMinLen is the shortest word Misspell may misspell: shorter words
// ("db", "pod", "oom") are left alone, as a tired hand rarely gets them
// wrong and no engine could tell their typos from other words.
const TypoMinLen = 5

// Misspell returns the queries with about one in three of their longer
// words (TypoMinLen letters or more, letters only) misspelt the way a
// hurried on-call engineer does: a letter dropped, two neighbours swapped,
// or a letter doubled, one of the three at random. The same seed gives the
// same typos. Ids, numbers and anything with a digit are never touched, so
// the judgments still hold; the query ids stay the same, so that a run on
// the misspelt queries compares query by query with a run on the clean
// ones (caselink eval --typos SEED --baseline clean.json).
func Misspell(qs []Query, seed uint64) []Query {
	out := make([]Query, len(qs))
	for i, q := range qs {
		// One stream per query: a query's typos do not depend on the
		// queries before it.
		r := rand.New(rand.NewPCG(seed, uint64(i)+1))
		q.Text = misspellText(q.Text, r)
		out[i] = q
	}
	return out
}

// misspellText misspells about a third of the long words of s.
func misspellText(s string, r *rand.Rand) string {
	var b strings.Builder
	word := func(w string) {
		rs := []rune(w)
		if len(rs) < TypoMinLen || r.IntN(3) != 0 {
			b.WriteString(w)
			return
		}
		// Keep the first letter: people rarely get it wrong, and it keeps
		// the typo generator from being a test of first-letter guessing.
		at := 1 + r.IntN(len(rs)-1)
		switch r.IntN(3) {
		case 0: // dropped
			rs = append(rs[:at:at], rs[at+1:]...)
		case 1: // swapped with the letter before
			if rs[at-1] == rs[at] && at+1 < len(rs) {
				at++
			}
			rs[at-1], rs[at] = rs[at], rs[at-1]
		default: // doubled
			rs = append(rs[:at+1:at+1], rs[at:]...)
		}
		b.WriteString(string(rs))
	}
	start := -1
	letters := true
	rs := []rune(s)
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := string(rs[start:end])
		if letters {
			word(w)
		} else {
			b.WriteString(w)
		}
		start = -1
	}
	for i, c := range rs {
		if unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_' || c == '-' || c == '.' || c == '/' {
			if start < 0 {
				start, letters = i, true
			}
			if !unicode.IsLetter(c) || c > unicode.MaxASCII {
				letters = false
			}
			continue
		}
		flush(i)
		b.WriteRune(c)
	}
	flush(len(rs))
	return b.String()
}
