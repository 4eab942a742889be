package tokenize

import "unicode/utf8"

// Korean step 2: split compounds by the glossary's words.
//
// Korean writes compound nouns with or without spaces: 메모리 부족 and
// 메모리부족 (out of memory), 인증서만료 (certificate expiry). splitKorean
// cuts a stem into the glossary words it is made of, longest word first
// from the left, so both spellings give the same units. A glossary verb
// stem written with a trailing ~ (죽~, 느려~) matches any rest of the word:
// the rest is its conjugation (죽었음 → 죽).
//
// A split is kept only when it is safe: at least one glossary word of two
// syllables or more, and every stretch between glossary words either a
// noun suffix that is dropped (중, 후, 시, …: 배포중 → 배포) or two
// syllables or more (kept as an unknown unit). Glossary words of one
// syllable (키, 큐, 락) are never cut out of a longer word: 키바나 stays
// whole.

// koMaxWord is the longest glossary word, in syllables, that splitKorean
// looks for.
const koMaxWord = 8

// koNounSuffixes are one-syllable suffixes dropped after a glossary word
// inside a compound: 배포중 (deploying), 장애시 (on failure), 배포후 (after
// deploying).
var koNounSuffixes = map[string]bool{"중": true, "후": true, "전": true, "시": true, "간": true, "별": true, "용": true, "쪽": true, "측": true, "당": true}

// koLexicon is what splitKorean and stripEnding know of the glossary: its
// Korean words, and the verb stems that match as prefixes.
type koLexicon struct {
	words    map[string]bool // glossary words (members split at spaces)
	prefixes map[string]bool // verb stems written with a trailing ~
}

// known reports whether s is a glossary word or verb stem.
func (l *koLexicon) known(s string) bool { return l.words[s] || l.prefixes[s] }

// splitKorean returns the units of the Hangul stem s: its glossary words
// and the unknown stretches between them, or nil when s is not a safe
// compound (see above). One unit means s is that word with a suffix
// (배포중 → 배포) or a conjugated verb stem (죽었 → 죽).
func (l *koLexicon) splitKorean(s string) []string {
	if l.words[s] {
		return nil
	}
	var parts []string
	long := false // a glossary word of 2+ syllables was found
	unknown := -1 // byte offset where the current unknown stretch started
	flush := func(end int) bool {
		if unknown < 0 {
			return true
		}
		u := s[unknown:end]
		unknown = -1
		switch n := utf8.RuneCountInString(u); {
		case n >= 2:
			parts = append(parts, u)
		case koNounSuffixes[u] && len(parts) > 0:
		default:
			return false
		}
		return true
	}
	for i := 0; i < len(s); {
		w, prefix := l.longestAt(s, i, i == 0)
		if w == 0 {
			if unknown < 0 {
				unknown = i
			}
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		if !flush(i) {
			return nil
		}
		parts = append(parts, s[i:i+w])
		long = true
		if prefix {
			break
		}
		i += w
	}
	if !flush(len(s)) || !long {
		return nil
	}
	return parts
}

// longestAt returns the byte length of the longest glossary word or verb
// stem of two syllables or more that starts at s[i:], or 0, and whether it
// is a verb stem, which swallows the rest of s. Verb stems of one syllable
// (죽~) count only at the start of s (atStart).
func (l *koLexicon) longestAt(s string, i int, atStart bool) (int, bool) {
	end := i
	var ends [koMaxWord + 1]int
	n := 0
	for n < koMaxWord && end < len(s) {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
		n++
		ends[n] = end
	}
	for ; n >= 1; n-- {
		w := s[i:ends[n]]
		if l.prefixes[w] && (n >= 2 || atStart) {
			return len(w), true
		}
		if n >= 2 && l.words[w] {
			return len(w), false
		}
	}
	return 0, false
}
