package tokenize

import (
	"unicode"
	"unicode/utf8"
)

// Token flags, set by the segmenter while it scans a token.
const (
	fUpper    uint16 = 1 << iota // has an upper-case letter
	fLower                       // has a lower-case letter
	fDigit                       // has a decimal digit
	fLetter                      // has a letter of any script
	fNonASCII                    // has a rune outside ASCII
	fJoiner                      // letters/digits joined by - _ . / = : (or "::")
	fApos                        // letters joined by ' or ’
	fComma                       // digits joined by , (1,000)
	fURL                         // scheme://… span
	fSymbol                      // an emoji cluster
	fSingle                      // one ideograph / kana / no-space-script letter
	fBreak                       // a clause break (punctuation, blank line, tag) precedes the token
)

// token is one segment of the input: the byte span text[start:end] and what
// the scanner saw in it.
type token struct {
	start, end int
	flags      uint16
}

// Script classes. Letters and digits of one class join into one token; a
// change of class is a boundary ("Redis에서" → "Redis", "에서").
const (
	scNone   uint8 = iota // not a word rune
	scWord                // Latin, Greek, Cyrillic, … and all decimal digits
	scHangul              // Korean
	scKana                // Katakana runs
	scSingle              // Han, Hiragana, Thai, Lao, Khmer, Myanmar: one rune per token
)

// asciiClass maps an ASCII byte to a bit set used by the scanner.
const (
	acLower uint8 = 1 << iota
	acUpper
	acDigit
	acJoiner // - _ . / = :
	acBreak  // punctuation that ends a clause for bigrams and phrases
)

var asciiClass = func() (t [256]uint8) { // bytes ≥ 0x80 map to 0
	for c := 'a'; c <= 'z'; c++ {
		t[c] = acLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = acUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = acDigit
	}
	for _, c := range "-_./=:" {
		t[c] |= acJoiner
	}
	for _, c := range ".,;:!?()[]{}|/\\-=" {
		t[c] |= acBreak
	}
	return t
}()

const acAlnum = acLower | acUpper | acDigit

// scriptOf returns the script class of r.
func scriptOf(r rune) uint8 {
	if r < utf8.RuneSelf {
		if asciiClass[r]&acAlnum != 0 {
			return scWord
		}
		return scNone
	}
	if r >= 0xAC00 && r <= 0xD7A3 { // Hangul syllables: the common case of Korean text
		return scHangul
	}
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return scNone
	}
	switch {
	case r >= 0xAC00 && r <= 0xD7A3, unicode.Is(unicode.Hangul, r):
		return scHangul
	case unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r),
		unicode.Is(unicode.Thai, r), unicode.Is(unicode.Lao, r),
		unicode.Is(unicode.Khmer, r), unicode.Is(unicode.Myanmar, r):
		return scSingle
	case unicode.Is(unicode.Katakana, r), r == 0x30FC: // ー prolonged sound mark
		return scKana
	}
	return scWord
}

// isEmoji reports whether r starts an emoji cluster. Only pictographic
// blocks count: box drawing, arrows and other symbols stay separators.
func isEmoji(r rune) bool {
	return (r >= 0x1F000 && r <= 0x1FAFF) || (r >= 0x2600 && r <= 0x27BF) ||
		(r >= 0x2B00 && r <= 0x2BFF) || (r >= 0x231A && r <= 0x23FF)
}

// isEmojiExtend reports whether r continues an emoji cluster (variation
// selectors, skin tones, keycap, tags, combining marks).
func isEmojiExtend(r rune) bool {
	return r == 0xFE0F || r == 0xFE0E || r == 0x20E3 || (r >= 0x1F3FB && r <= 0x1F3FF) ||
		(r >= 0xE0020 && r <= 0xE007F) || unicode.IsMark(r)
}

// segment splits s into tokens and appends them to toks.
//
// A token is a run of letters and digits of one script class. Inside a
// token, the joiners - _ . / = : (and "::"), an apostrophe between letters
// and a comma between digits are kept when a letter or digit of the same
// class follows, so "kube-apiserver", "10.0.0.12", "resourceVersion=0",
// "didn't" and "1,000" are single tokens, while a trailing "." or ":" is not
// part of the token. A "scheme://" prefix makes the token a URL that runs
// to the next space. Ideographs and letters of scripts written without
// spaces are one token per rune; emoji clusters are one token each.
// Everything else separates tokens; clause punctuation, blank lines and
// HTML tags in a gap set fBreak on the next token.
func segment(s string, toks []token) []token {
	n := len(s)
	brk := false
	nl := 0
	for i := 0; i < n; {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiClass[c]&acAlnum != 0 {
				t := scanWord(s, i, scWord)
				if brk {
					t.flags |= fBreak
				}
				toks = append(toks, t)
				i = t.end
				brk, nl = false, 0
				continue
			}
			if c == ' ' { // the most common gap, kept inline for speed
				i++
				continue
			}
			i, brk, nl = asciiGap(s, i, brk, nl)
			continue
		}
		var t token
		var ok bool
		if t, ok, brk = nonASCIIToken(s, i, brk); ok {
			if brk {
				t.flags |= fBreak
			}
			toks = append(toks, t)
			i = t.end
			brk, nl = false, 0
			continue
		}
		i = t.end
	}
	return toks
}

// asciiGap steps over the ASCII character at s[i], which starts no word: a
// space, a line end (two in a row break the clause), an HTML tag or entity
// (skipped whole; a tag breaks) or punctuation. It returns the index after
// it and the break and line-end state.
func asciiGap(s string, i int, brk bool, nl int) (next int, brkAfter bool, nlAfter int) {
	c := s[i]
	switch c {
	case ' ', '\t', '\r':
	case '\n':
		nl++
		if nl >= 2 {
			brk = true
		}
	case '<':
		if j := skipTag(s, i); j > i {
			return j, true, nl
		}
		brk = true
	case '&':
		if j := skipEntity(s, i); j > i {
			return j, brk, nl
		}
	default:
		if asciiClass[c]&acBreak != 0 {
			brk = true
		}
	}
	return i + 1, brk, nl
}

// nonASCIIToken reads the token that starts at the rune at s[i] (outside
// ASCII): one rune of a script written without spaces (with its marks), a
// word, or an emoji cluster; ok is false when the rune starts none, and
// t.end is then the index after it. brk says whether a clause break
// precedes; a rune that starts no token may set it.
func nonASCIIToken(s string, i int, brk bool) (t token, ok bool, brkAfter bool) {
	n := len(s)
	r, size := utf8.DecodeRuneInString(s[i:])
	switch sc := scriptOf(r); {
	case sc == scSingle:
		j := i + size
		for j < n {
			r2, sz2 := utf8.DecodeRuneInString(s[j:])
			if r2 < utf8.RuneSelf || !unicode.IsMark(r2) {
				break
			}
			j += sz2
		}
		return token{start: i, end: j, flags: fSingle | fLetter | fNonASCII}, true, brk
	case sc != scNone:
		return scanWord(s, i, sc), true, brk
	case isEmoji(r):
		return token{start: i, end: scanEmoji(s, i, r, size), flags: fSymbol | fNonASCII}, true, brk
	}
	switch {
	case r == 0x2028 || r == 0x2029:
		brk = true
	case r == utf8.RuneError && size == 1:
		// invalid UTF-8: a break, so no bigram or phrase surface spans it
		brk = true
	case r == 0x2019 || r == 0x2018 || r == 0x201C || r == 0x201D:
		// typographic quotes do not break a clause
	case unicode.IsPunct(r):
		brk = true
	}
	return token{end: i + size}, false, brk
}

// scanWord scans a word token of script class sc starting at s[i].
func scanWord(s string, i int, sc uint8) token {
	start := i
	n := len(s)
	var fl uint16
	prevLetter, prevDigit := false, false
	onlyLetters := true // for scheme:// detection
	for i < n {
		c := s[i]
		if c < utf8.RuneSelf {
			ac := asciiClass[c]
			if ac&acAlnum != 0 {
				if sc != scWord {
					break
				}
				switch {
				case ac&acLower != 0:
					fl |= fLower | fLetter
					prevLetter, prevDigit = true, false
				case ac&acUpper != 0:
					fl |= fUpper | fLetter
					prevLetter, prevDigit = true, false
				default:
					fl |= fDigit
					prevLetter, prevDigit = false, true
					onlyLetters = false
				}
				i++
				continue
			}
			if c == ':' && onlyLetters && sc == scWord && i-start >= 2 && i-start <= 16 &&
				i+3 < n && s[i+1] == '/' && s[i+2] == '/' && !isURLStop(s[i+3]) {
				return scanURL(s, start, i+3)
			}
			if ac&acJoiner == 0 && c != '\'' && c != ',' {
				break // the common word end (a space, punctuation), without a call
			}
			k, f := joinASCII(s, i, c, ac, sc, prevLetter, prevDigit)
			if f == 0 {
				break
			}
			fl |= f
			onlyLetters = onlyLetters && f == fComma
			prevLetter, prevDigit = f == fApos, f == fComma
			i = k
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0xAC00 && r <= 0xD7A3 { // a Hangul syllable, without the table lookups below
			if sc != scHangul {
				break
			}
			fl |= fNonASCII | fLetter
			prevLetter, prevDigit = true, false
			i += size
			continue
		}
		f, letter, digit := wordRune(s, i, r, size, sc, prevLetter)
		if f == 0 {
			break
		}
		fl |= f
		if r == 0x2019 {
			onlyLetters = false
		} else if letter || digit {
			prevLetter, prevDigit = letter, digit
			onlyLetters = onlyLetters && !digit
		}
		i += size
	}
	return token{start: start, end: i, flags: fl}
}

// joinASCII reports whether the ASCII character c at s[i], not a letter or
// digit, joins the word being scanned: a joiner (- _ . / = : or ::) before
// a letter or digit of the word's script, an apostrophe between letters, a
// comma between digits. It returns the index after it and the flag it sets
// (fJoiner, fApos or fComma), or flag 0 when the word ends at c.
func joinASCII(s string, i int, c byte, ac uint8, sc uint8, prevLetter, prevDigit bool) (next int, flag uint16) {
	n := len(s)
	switch {
	case ac&acJoiner != 0:
		k := i + 1
		if c == ':' && k < n && s[k] == ':' {
			k++
		}
		if sameScriptAlnumAt(s, k, sc) {
			return k, fJoiner
		}
	case c == '\'':
		if prevLetter && letterAt(s, i+1, sc) {
			return i + 1, fApos
		}
	case c == ',':
		if prevDigit && i+1 < n && asciiClass[s[i+1]]&acDigit != 0 {
			return i + 1, fComma
		}
	}
	return i, 0
}

// wordRune reports whether the rune r (of size bytes) at s[i], outside
// ASCII and not a Hangul syllable, continues a word of script class sc, and
// returns the flags it adds (0 when the word ends at it) and whether it is
// a letter or a digit (neither for a combining mark, a zero-width joiner or
// a typographic apostrophe).
func wordRune(s string, i int, r rune, size int, sc uint8, prevLetter bool) (flags uint16, letter, digit bool) {
	if r == 0x2019 { // ’ as an apostrophe
		if prevLetter && letterAt(s, i+size, sc) {
			return fApos | fNonASCII, false, false
		}
		return 0, false, false
	}
	if unicode.IsMark(r) || r == 0x200D || r == 0x200C {
		return fNonASCII, false, false
	}
	if rs := scriptOf(r); rs != sc || rs == scSingle {
		return 0, false, false
	}
	if unicode.IsDigit(r) {
		return fNonASCII | fDigit, false, true
	}
	flags = fNonASCII | fLetter
	if unicode.IsUpper(r) {
		flags |= fUpper
	} else if unicode.IsLower(r) {
		flags |= fLower
	}
	return flags, true, false
}

// sameScriptAlnumAt reports whether s[k] starts a letter or digit of class sc.
func sameScriptAlnumAt(s string, k int, sc uint8) bool {
	if k >= len(s) {
		return false
	}
	if c := s[k]; c < utf8.RuneSelf {
		return sc == scWord && asciiClass[c]&acAlnum != 0
	}
	r, _ := utf8.DecodeRuneInString(s[k:])
	rs := scriptOf(r)
	return rs == sc && rs != scSingle
}

// letterAt reports whether s[k] starts a letter of class sc.
func letterAt(s string, k int, sc uint8) bool {
	if k >= len(s) {
		return false
	}
	if c := s[k]; c < utf8.RuneSelf {
		return sc == scWord && asciiClass[c]&(acLower|acUpper) != 0
	}
	r, _ := utf8.DecodeRuneInString(s[k:])
	return unicode.IsLetter(r) && scriptOf(r) == sc && sc != scSingle
}

// isURLStop reports whether the ASCII byte c ends a URL.
func isURLStop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', '<', '>', '"', '`', '|', '\\', '^', '{', '}':
		return true
	}
	return c < ' ' || c == 0x7f
}

// scanURL scans a URL whose scheme starts at start and whose "://" ends at
// i. It stops at white space, quotes and angle brackets, and at a closing
// parenthesis or bracket it did not see open; trailing sentence punctuation
// is not part of it.
func scanURL(s string, start, i int) token {
	n := len(s)
	paren, bracket := 0, 0
loop:
	for i < n {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError || unicode.IsSpace(r) || r == 0x2019 || r == 0x201D {
				break
			}
			i += size
			continue
		}
		switch {
		case isURLStop(c):
			break loop
		case c == '(':
			paren++
		case c == ')':
			if paren == 0 {
				break loop
			}
			paren--
		case c == '[':
			bracket++
		case c == ']':
			if bracket == 0 {
				break loop
			}
			bracket--
		}
		i++
	}
	for i > start {
		switch s[i-1] {
		case '.', ',', ';', ':', '!', '?', '\'', '*', '_':
			i--
			continue
		}
		break
	}
	return token{start: start, end: i, flags: fURL | fLetter}
}

// scanEmoji returns the end of the emoji cluster that starts with r at s[i].
func scanEmoji(s string, i int, r rune, size int) int {
	n := len(s)
	j := i + size
	ri := r >= 0x1F1E6 && r <= 0x1F1FF // regional indicator: flags are pairs
	if ri {
		if j < n {
			if r2, sz2 := utf8.DecodeRuneInString(s[j:]); r2 >= 0x1F1E6 && r2 <= 0x1F1FF {
				j += sz2
			}
		}
		return j
	}
	for j < n {
		r2, sz2 := utf8.DecodeRuneInString(s[j:])
		switch {
		case r2 < utf8.RuneSelf:
			return j
		case isEmojiExtend(r2):
			j += sz2
		case r2 == 0x200D: // zero-width joiner: continues with the next pictograph
			if j+sz2 < n {
				if r3, sz3 := utf8.DecodeRuneInString(s[j+sz2:]); isEmoji(r3) {
					j += sz2 + sz3
					continue
				}
			}
			return j
		default:
			return j
		}
	}
	return j
}

// htmlTags are the tag names skipTag removes. Other <words> are kept as
// text: "/registry/<kind>/<name>" is content, not markup.
var htmlTags = map[string]bool{
	"a": true, "b": true, "i": true, "u": true, "p": true, "s": true, "br": true, "hr": true,
	"em": true, "strong": true, "code": true, "pre": true, "span": true, "div": true,
	"li": true, "ul": true, "ol": true, "dl": true, "dt": true, "dd": true,
	"table": true, "tr": true, "td": true, "th": true, "tbody": true, "thead": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"img": true, "small": true, "sup": true, "sub": true, "blockquote": true, "font": true,
}

// skipTag returns the end of an HTML tag starting at s[i] ('<'), or i when
// there is none: "<b>", "</p>", "<br/>", "<a href=…>". Only the tag names
// in htmlTags count.
func skipTag(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '/' {
		j++
	}
	k := j
	var name [10]byte
	for k < len(s) && k-j < len(name) && asciiClass[s[k]]&acAlnum != 0 {
		name[k-j] = s[k] | 0x20
		k++
	}
	if k == j || k >= len(s) || !htmlTags[string(name[:k-j])] {
		return i
	}
	if c := s[k]; c != '>' && c != '/' && c != ' ' {
		return i
	}
	for ; k < len(s) && k-i < 512; k++ {
		switch s[k] {
		case '>':
			return k + 1
		case '<':
			return i
		}
	}
	return i
}

// skipEntity returns the end of an HTML character reference starting at s[i]
// ('&'), or i when there is none: "&amp;", "&nbsp;", "&#39;".
func skipEntity(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '#' {
		j++
	}
	k := j
	for k < len(s) && k-j < 8 && asciiClass[s[k]]&acAlnum != 0 {
		k++
	}
	if k > j && k < len(s) && s[k] == ';' {
		return k + 1
	}
	return i
}
