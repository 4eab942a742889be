package tokenize

import (
	"unicode"
	"unicode/utf8"
)

// Limits on compound splitting, so that a pathological token (a base64
// blob, a minified line) costs linear time and yields a bounded number of
// terms.
const (
	maxSplitBytes = 256 // longer tokens are not split into parts
	maxParts      = 32  // at most this many parts per token
	maxCamelRunes = 64  // longer joiner-free segments are not split on case
)

// part is one piece of a compound token: the byte span tok[off:end] and, when
// the piece is volatile, its class term.
type part struct {
	off, end int
	class    string
}

// isJoinerByte reports whether c separates the parts of a compound token.
func isJoinerByte(c byte) bool {
	return c < utf8.RuneSelf && (asciiClass[c]&acJoiner != 0 || c == ',')
}

// splitCompound splits the token s into parts and appends them to dst.
//
// First s is cut at the joiners - _ . / = : and ',' ("kube-apiserver" →
// "kube", "apiserver"); a UUID inside a token is kept as one part. Each piece
// that is volatile on its own (a hex hash, a long number, a random id) gets
// its class; every other piece is cut at case boundaries (see splitCase). At
// most maxParts parts are produced.
func splitCompound(s string, dst []part) []part {
	n0 := len(dst)
	for i := 0; i < len(s) && len(dst)-n0 < maxParts; {
		if isJoinerByte(s[i]) {
			i++
			continue
		}
		if len(s)-i >= 36 && isUUID(s[i:]) && (i+36 == len(s) || isJoinerByte(s[i+36])) {
			dst = append(dst, part{off: i, end: i + 36, class: ClassUUID})
			i += 36
			continue
		}
		j := i
		for j < len(s) && !isJoinerByte(s[j]) {
			j++
		}
		seg := s[i:j]
		if c := classifyPart(seg); c != "" {
			dst = append(dst, part{off: i, end: j, class: c})
		} else {
			dst = splitCase(seg, i, dst, maxParts-(len(dst)-n0))
		}
		i = j
	}
	return dst
}

// Rune kinds for case splitting.
const (
	kOther uint8 = iota
	kUpper
	kLower
	kDigit
)

// splitCase cuts seg (at byte offset off in its token) at case boundaries and
// appends at most max parts to dst:
//
//   - lower → Upper: "crashLoop" → "crash", "Loop"; "OOMKilled" keeps its
//     "Killed" via the next rule;
//   - the last capital of an upper-case run when two lower-case letters
//     follow: "OOMKilled" → "OOM", "Killed"; "HTTPServer" → "HTTP", "Server";
//     but "IPv6", "URLs", "GCFv2" stay whole;
//   - digit → Upper when two lower-case letters follow: "EC2Instance";
//   - never before a single trailing capital: "PaaS", "DDoS" stay whole.
//
// Letters and digits are never split apart (p99, x509, http2, ipv6).
func splitCase(seg string, off int, dst []part, max int) []part {
	if max <= 0 {
		return dst
	}
	var kinds [maxCamelRunes]uint8
	var offs [maxCamelRunes + 1]int
	n := 0
	hasU, hasL := false, false
	for i := 0; i < len(seg); {
		if n == maxCamelRunes {
			return append(dst, part{off: off, end: off + len(seg)})
		}
		c := seg[i]
		k := kOther
		size := 1
		if c < utf8.RuneSelf {
			switch ac := asciiClass[c]; {
			case ac&acUpper != 0:
				k = kUpper
			case ac&acLower != 0:
				k = kLower
			case ac&acDigit != 0:
				k = kDigit
			}
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(seg[i:])
			switch {
			case unicode.IsUpper(r):
				k = kUpper
			case unicode.IsLower(r):
				k = kLower
			case unicode.IsDigit(r):
				k = kDigit
			}
		}
		hasU = hasU || k == kUpper
		hasL = hasL || k == kLower
		kinds[n] = k
		offs[n] = i
		n++
		i += size
	}
	offs[n] = len(seg)
	if !hasU || !hasL {
		return append(dst, part{off: off, end: off + len(seg)})
	}
	ps := 0
	for i := 1; i < n && max > 1; i++ {
		if kinds[i] != kUpper {
			continue
		}
		split := false
		switch kinds[i-1] {
		case kLower:
			split = i+1 < n // not before a single trailing capital
		case kUpper, kDigit:
			split = i+2 < n && kinds[i+1] == kLower && kinds[i+2] == kLower
		}
		if split {
			dst = append(dst, part{off: off + offs[ps], end: off + offs[i]})
			max--
			ps = i
		}
	}
	return append(dst, part{off: off + offs[ps], end: off + len(seg)})
}
