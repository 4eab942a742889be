package tokenize

// Class terms. A volatile token (one that names a particular instance
// rather than a kind of thing) is replaced by its class so that it does not
// grow the vocabulary with terms that never match another case.
const (
	ClassIP   = "<ip>"   // IPv4 (with optional :port or /prefix) or IPv6 address
	ClassUUID = "<uuid>" // 8-4-4-4-12 hexadecimal UUID
	ClassHex  = "<hex>"  // hexadecimal hash or id: ≥7 hex digits mixing letters and digits, or 0x…
	ClassNum  = "<num>"  // number of 6 or more digits (ids, epoch times, byte counts), not a 32-bit limit (isIntLimit)
	ClassID   = "<id>"   // random-looking id: letters and digits alternating (x2k4j, cqpqj188sdw8), or 8+ digits with letters
	ClassTime = "<time>" // clock time, range or timestamp: 14:05, 9:21am, 10:15:00.123, 14:52-17:02, 2021-12-09T10:15:00Z
	ClassDate = "<date>" // calendar date: 2025-10-21, 2025/10/21, 10/21/2025, 21.10.2025
	ClassURL  = "<url>"  // scheme://… (the host is also kept as a term)
)

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHexLo(c byte) bool  { return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') }
func isLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// digitsAt returns the number of consecutive ASCII digits at s[i:].
func digitsAt(s string, i int) int {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	return j - i
}

// atoi parses a short run of digits (the caller checked they are digits).
func atoi(s string) int {
	v := 0
	for i := 0; i < len(s) && i < 9; i++ {
		v = v*10 + int(s[i]-'0')
	}
	return v
}

// classifyWhole returns the class of a whole token that contains a digit
// and possibly joiners, or "" when the token is not volatile as a whole.
// Tokens that are not volatile as a whole may still have volatile parts
// (see classifyPart), which the compound splitter finds.
func classifyWhole(s string, fl uint16) string {
	if fl&fNonASCII != 0 {
		return ""
	}
	if fl&(fJoiner|fComma) == 0 {
		return classifyPart(s)
	}
	if fl&fComma != 0 && fl&(fLetter|fJoiner) == 0 { // 1,000,000
		d := 0
		for i := 0; i < len(s); i++ {
			if isDigit(s[i]) {
				d++
			}
		}
		if d >= 6 {
			return ClassNum
		}
		return ""
	}
	switch {
	case isIPv4(s):
		return ClassIP
	case isClock(s):
		return ClassTime
	case len(s) == 36 && isUUID(s):
		return ClassUUID
	}
	if c := dateClass(s); c != "" {
		return c
	}
	if isIPv6(s) {
		return ClassIP
	}
	if isClockRange(s) {
		return ClassTime
	}
	return ""
}

// isClockRange reports whether s is two clock times joined by '-':
// 14:52-17:02.
func isClockRange(s string) bool {
	n := clockLen(s)
	return n > 0 && n+1 < len(s) && s[n] == '-' && isClock(s[n+1:])
}

// classifyPart returns the class of a run of ASCII letters and digits with
// no joiners (a whole simple token or one part of a compound), or "".
func classifyPart(s string) string {
	if len(s) >= 8 && s[0] == '0' && s[1]|0x20 == 'x' && isHexString(s[2:]) { // 0xFFFFF809E314033D
		return ClassHex
	}
	digits, hexl, other := 0, 0, 0
	trans := 0 // letter↔digit transitions
	run, maxRun := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isDigit(c) {
			run++
			maxRun = max(maxRun, run)
		} else {
			run = 0
		}
		switch {
		case isDigit(c):
			digits++
			if i > 0 && !isDigit(s[i-1]) {
				trans++
			}
		case c >= 0x80:
			return ""
		default:
			if isHexLo(c) {
				hexl++
			} else {
				other++
			}
			if i > 0 && isDigit(s[i-1]) {
				trans++
			}
		}
	}
	if digits == 0 {
		return ""
	}
	if digits == len(s) {
		if len(s) >= 6 && !isIntLimit(s) {
			return ClassNum
		}
		return ""
	}
	if other == 0 && hexl > 0 && len(s) >= 7 {
		return ClassHex
	}
	if (len(s) >= 8 && trans >= 3) || trans >= 4 || maxRun >= 8 {
		if isAPIVersion(s) {
			return ""
		}
		return ClassID
	}
	return ""
}

// isHexString reports whether s is all hexadecimal digits.
func isHexString(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) && !isHexLo(s[i]) {
			return false
		}
	}
	return true
}

// isAPIVersion reports whether s looks like v1beta1, v2alpha3: a version,
// not an id.
func isAPIVersion(s string) bool {
	if len(s) < 2 || (s[0]|0x20) != 'v' {
		return false
	}
	i := 1 + digitsAt(s, 1)
	if i == 1 {
		return false
	}
	rest := s[i:]
	for _, w := range [...]string{"alpha", "beta"} {
		if len(rest) >= len(w) && equalFoldASCII(rest[:len(w)], w) {
			return digitsAt(rest, len(w)) == len(rest)-len(w)
		}
	}
	return false
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i]|0x20 != b[i]|0x20 {
			return false
		}
	}
	return true
}

// isIPv4 reports whether s is a dotted-quad IPv4 address, optionally with
// ":port" or "/prefix".
func isIPv4(s string) bool {
	i := 0
	for g := 0; g < 4; g++ {
		if g > 0 {
			if i >= len(s) || s[i] != '.' {
				return false
			}
			i++
		}
		d := digitsAt(s, i)
		if d == 0 || d > 3 || atoi(s[i:i+d]) > 255 {
			return false
		}
		i += d
	}
	if i == len(s) {
		return true
	}
	if s[i] == ':' || s[i] == '/' {
		d := digitsAt(s, i+1)
		return d > 0 && i+1+d == len(s)
	}
	return false
}

// isIPv6 reports whether s is an IPv6 address: hex groups of at most four
// digits separated by ':' with either "::" or eight groups.
func isIPv6(s string) bool {
	colons, group := 0, 0
	double := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			colons++
			if i > 0 && s[i-1] == ':' {
				double = true
			}
			group = 0
		case isDigit(c) || isHexLo(c):
			group++
			if group > 4 {
				return false
			}
		default:
			return false
		}
	}
	return colons >= 2 && (double || colons == 7)
}

// isUUID reports whether s (36 bytes) is an 8-4-4-4-12 hex UUID.
func isUUID(s string) bool {
	if len(s) < 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isDigit(c) && !isHexLo(c) {
				return false
			}
		}
	}
	return true
}

// clockLen returns the length of a clock time at the start of s
// (H:MM, HH:MM:SS, optional .fraction or ,fraction and a trailing Z), or 0.
func clockLen(s string) int {
	d := digitsAt(s, 0)
	if d == 0 || d > 2 || len(s) < d+3 || s[d] != ':' || digitsAt(s, d+1) != 2 {
		return 0
	}
	i := d + 3
	if i+3 <= len(s) && s[i] == ':' && digitsAt(s, i+1) == 2 {
		i += 3
		if i+1 < len(s) && (s[i] == '.' || s[i] == ',') {
			if f := digitsAt(s, i+1); f > 0 {
				i += 1 + f
			}
		}
	}
	for _, suf := range clockSuffixes {
		if len(s)-i >= len(suf) && equalFoldASCII(s[i:i+len(suf)], suf) {
			return i + len(suf)
		}
	}
	return i
}

// clockSuffixes may follow a clock time within its token: 09:21am, 4:50p,
// 08:20h, 04:58UTC, 10:15:00Z. Longest first.
var clockSuffixes = [...]string{"utc", "gmt", "am", "pm", "a", "p", "h", "z"}

// isClock reports whether s is exactly a clock time.
func isClock(s string) bool {
	n := clockLen(s)
	return n > 0 && n == len(s)
}

// dateClass returns ClassDate for a calendar date, ClassTime for a date
// followed by T (or _) and a clock time, and "" otherwise.
func dateClass(s string) string {
	n := dateLen(s)
	if n == 0 {
		return ""
	}
	if n == len(s) {
		return ClassDate
	}
	if c := s[n]; (c == 'T' || c == 't' || c == '_') && n+1 < len(s) {
		if isClock(s[n+1:]) {
			return ClassTime
		}
	}
	return ""
}

// dateLen returns the length of a date at the start of s, or 0. Accepted:
// YYYY-MM-DD, YYYY/MM/DD, YYYY.MM.DD, DD/MM/YYYY, MM/DD/YY(YY), DD-MM-YYYY,
// DD.MM.YYYY. Versions such as 1.20.9 are not dates.
func dateLen(s string) int {
	a := digitsAt(s, 0)
	if a == 0 || a >= len(s) {
		return 0
	}
	sep := s[a]
	if sep != '-' && sep != '/' && sep != '.' {
		return 0
	}
	b := digitsAt(s, a+1)
	if b == 0 || a+1+b >= len(s) || s[a+1+b] != sep {
		return 0
	}
	c := digitsAt(s, a+2+b)
	end := a + 2 + b + c
	x, y, z := atoi(s[:a]), atoi(s[a+1:a+1+b]), atoi(s[a+2+b:end])
	switch {
	case a == 4 && b <= 2 && c <= 2 && c > 0: // YYYY-MM-DD
		if y >= 1 && y <= 12 && z >= 1 && z <= 31 {
			return end
		}
	case a <= 2 && b <= 2 && (c == 4 || (c == 2 && sep == '/')): // DD/MM/YYYY, MM/DD/YY
		if x >= 1 && x <= 31 && y >= 1 && y <= 31 && (x <= 12 || y <= 12) {
			return end
		}
	}
	return 0
}

// statusClass returns the class term ("4xx" or "5xx") of an HTTP status
// code, and whether the code needs context to be read as a status (round
// numbers like 400 and 500 are often counts). Codes outside the registered
// and widely used 4xx/5xx sets return "".
func statusClass(code int) (class string, needsContext bool) {
	switch {
	case code >= 400 && code <= 418, code >= 421 && code <= 426, code == 428, code == 429,
		code == 431, code == 444, code == 451, code >= 494 && code <= 499:
		return "4xx", code == 400
	case code >= 500 && code <= 511, code >= 520 && code <= 530, code == 598, code == 599:
		return "5xx", code == 500
	}
	return "", false
}

// statusContext lists the neighbouring words (lower case) that make a
// round number such as 500 read as an HTTP status code.
var statusContext = map[string]bool{
	"http": true, "https": true, "status": true, "code": true, "codes": true,
	"error": true, "errors": true, "response": true, "responses": true,
	"returned": true, "returning": true, "returns": true, "return": true,
	"internal": true, "bad": true, "server": true, "throwing": true, "threw": true,
}

// isIntLimit reports whether s is a 32-bit integer's limit (2³¹ − 1, 2³¹,
// 2³² − 1, 2³²): not an id like any other but the sign of a counter or key
// that ran out of values, which synonyms.txt joins to "int32". It stays a
// word.
func isIntLimit(s string) bool {
	switch s {
	case "2147483647", "2147483648", "4294967295", "4294967296":
		return true
	}
	return false
}
