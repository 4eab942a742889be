package tokenize

import "strings"

// On-call text: the steps that read alert labels, Kubernetes object names,
// addresses, file names, stack frames and log lines as what they are rather
// than as prose. Each is a small function with its own table test
// (oncall_test.go) and its own Options field; reshape runs the ones that
// change tokens, right after segmentation, and markNoise the ones that drop
// boilerplate.

// Token flags set by the on-call steps (after the segmenter's, in segment.go).
const (
	fLabelKey uint16 = 1 << (12 + iota) // the key of a label pair: structure, not evidence
	fDrop                               // boilerplate: a log level, a frame's "File … line N", a request id's key
	fPort                               // a port number cut off an address: a literal, never a status code
)

// reshape runs the on-call steps that change tokens (label pairs, host:port,
// pod names, file:line) on toks, writing the result to out.
func (a *Analyzer) reshape(text string, toks, out []token) []token {
	o := &a.opts
	dropNext := false // the quoted value of a severity label comes next
	for _, t := range toks {
		if dropNext {
			t.flags |= fDrop
			dropNext = false
		}
		if o.Addresses && hashPort(text, t, out) {
			// dig and BIND write a server as 198.41.222.173#53.
			t.flags |= fPort
			out = append(out, t)
			continue
		}
		if t.flags&(fURL|fSymbol|fSingle|fNonASCII) != 0 || t.flags&(fJoiner) == 0 {
			if o.LabelPairs && t.flags&fNonASCII == 0 && quotedLabelKey(text, t) {
				t.flags |= fLabelKey
				dropNext = o.LogNoise && isLevelKey(text[t.start:t.end])
				if dropNext {
					t.flags |= fDrop
				}
			}
			out = append(out, t)
			continue
		}
		s := text[t.start:t.end]
		if o.LabelPairs {
			if k := labelKeyLen(s); k > 0 {
				key := token{start: t.start, end: t.start + k, flags: wordFlags(s[:k]) | fLabelKey | t.flags&fBreak}
				out = append(out, key)
				t = token{start: t.start + k + 1, end: t.end}
				t.flags = wordFlags(text[t.start:t.end])
				if o.LogNoise && isLevelKey(s[:k]) {
					t.flags |= fDrop // severity=warning: routing, not evidence
					out[len(out)-1].flags |= fDrop
				}
				s = text[t.start:t.end]
			}
		}
		if o.Addresses && !(o.Files && lineSuffixLen(s) > 0) {
			if p := portAt(s); p > 0 {
				host := token{start: t.start, end: t.start + p, flags: wordFlags(s[:p]) | t.flags&(fBreak|fDrop)}
				host = a.trimToken(text, host)
				out = append(out, host)
				out = append(out, token{start: t.start + p + 1, end: t.end, flags: fDigit | fPort | t.flags&fDrop})
				continue
			}
		}
		out = append(out, a.trimToken(text, t))
	}
	return out
}

// trimToken cuts a pod name's generated suffix and a file name's line
// number off the token t.
func (a *Analyzer) trimToken(text string, t token) token {
	s := text[t.start:t.end]
	n := len(s)
	if a.opts.PodNames {
		n = podBase(s)
	}
	if a.opts.Files {
		n -= lineSuffixLen(s[:n])
	}
	if n == len(s) {
		return t
	}
	keep := t.flags & (fBreak | fDrop | fLabelKey)
	t.end = t.start + n
	t.flags = wordFlags(text[t.start:t.end]) | keep
	return t
}

// labelKeyLen returns the length of the key of a label pair key=value
// (Prometheus and Alertmanager labels, logfmt): a name of letters, digits
// and _ . - / starting with a letter or '_', then '='. It returns 0 when s
// is no label pair.
func labelKeyLen(s string) int {
	e := strings.IndexByte(s, '=')
	if e <= 0 || e+1 >= len(s) || !labelName(s[:e]) {
		return 0
	}
	return e
}

// labelName reports whether s can be a label's name.
func labelName(s string) bool {
	if len(s) == 0 || len(s) > 48 || !(isLetter(s[0]) || s[0] == '_') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && !isDigit(c) && c != '_' && c != '.' && c != '-' && c != '/' {
			return false
		}
	}
	return true
}

// quotedLabelKey reports whether token t is the key of a quoted label pair
// or matcher: key="value", key=~"regex", key='value'.
func quotedLabelKey(text string, t token) bool {
	e := t.end
	if e+1 >= len(text) || text[e] != '=' {
		return false
	}
	if c := text[e+1]; c != '"' && c != '\'' && c != '~' {
		return false
	}
	return labelName(text[t.start:t.end])
}

// isLevelKey reports whether a label key names a severity: the label
// (severity=warning, =critical, =page) routes the alert and says nothing of
// the fault, and "severity" stems to "sever", the stem of "several".
func isLevelKey(k string) bool {
	for _, w := range [...]string{"severity", "level", "loglevel", "log_level", "lvl", "priority"} {
		if equalFoldASCII(k, w) {
			return true
		}
	}
	return false
}

// hashPort reports whether the token t is the port of an IPv4 address
// written with a '#' (198.41.222.173#53, as dig and BIND print a server):
// digits right after a '#' right after the address, the last token of out.
func hashPort(text string, t token, out []token) bool {
	if t.start < 2 || text[t.start-1] != '#' || len(out) == 0 || out[len(out)-1].end != t.start-1 {
		return false
	}
	if n := t.end - t.start; n > 5 || digitsAt(text[t.start:t.end], 0) != n {
		return false
	}
	prev := out[len(out)-1]
	return isIPv4(text[prev.start:prev.end])
}

// portAt returns the index of the ':' before a port number ending s
// ("fra1.digitaloceanspaces.com:443", "169.254.169.253:53"), or 0. The
// part before must be a dotted host name with a letter or an IPv4 address,
// so clock times (10:15) and "key:value" are left alone.
func portAt(s string) int {
	c := strings.LastIndexByte(s, ':')
	if c <= 0 || c+1 >= len(s) || len(s)-c-1 > 5 || digitsAt(s, c+1) != len(s)-c-1 {
		return 0
	}
	h := s[:c]
	if isIPv4(h) {
		return c
	}
	letter := false
	if strings.IndexByte(h, '.') < 0 {
		return 0 // range_response_count:7130 is no host
	}
	for i := 0; i < len(h); i++ {
		switch ch := h[i]; {
		case isLetter(ch):
			letter = true
		case isDigit(ch), ch == '-', ch == '.', ch == '_':
		default:
			return 0
		}
	}
	if !letter || h[len(h)-1] == '.' {
		return 0
	}
	return c
}

// podBase returns the length of a Kubernetes object name without its
// generated suffix: a Deployment pod's template hash and random suffix
// (coredns-5d78c9869d-abcde → coredns), a DaemonSet or Job pod's random
// suffix (fluentd-x2k4j → fluentd; see generated), a StatefulSet ordinal
// (ingester-7 → ingester, etl-worker-07 → etl-worker). Region names keep
// their number (us-east-1), and so does a name ending in a word with digits
// (log4j-2).
func podBase(s string) int {
	d := strings.LastIndexByte(s, '-')
	if d <= 0 || d+1 >= len(s) {
		return len(s)
	}
	last := s[d+1:]
	if lowerAlnum(last) && len(last) == 5 {
		if p := strings.LastIndexByte(s[:d], '-'); p > 0 {
			if h := s[p+1 : d]; len(h) >= 6 && len(h) <= 10 && generated(h) && hasLetterAt(s[:p]) {
				return p // name-HASH-xxxxx
			}
		}
		if generated(last) && hasLetterAt(s[:d]) {
			return d // name-x2k4j
		}
		return len(s)
	}
	if n := digitsAt(last, 0); n == len(last) && n <= 4 {
		prev := s[:d]
		if p := strings.LastIndexAny(prev, "-_./"); p >= 0 {
			prev = prev[p+1:]
		}
		if len(prev) >= 3 && allLower(prev) && !isDirection(prev) && allLowerName(s[:d]) {
			return d
		}
	}
	return len(s)
}

// generated reports whether s looks made by Kubernetes' name generator:
// lower-case letters without vowels and digits, at least one of each
// ("x2k4j", "5d78c9869d"), so that words ("west2") are never cut.
func generated(s string) bool {
	return lowerAlnum(s) && hasDigitAndLetter(s) && strings.IndexAny(s, "aeiouy") < 0
}

// lowerAlnum reports whether s is lower-case letters and digits only.
func lowerAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z') && !isDigit(c) {
			return false
		}
	}
	return len(s) > 0
}

// allLower reports whether s is lower-case letters only.
func allLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return len(s) > 0
}

// allLowerName reports whether s has no upper-case letter: Kubernetes names
// are lower case, so "CVE-2021" or "Python-3" are not cut.
func allLowerName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return false
		}
	}
	return true
}

func hasDigitAndLetter(s string) bool {
	d, l := false, false
	for i := 0; i < len(s); i++ {
		d = d || isDigit(s[i])
		l = l || isLetter(s[i])
	}
	return d && l
}

func hasLetterAt(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) {
			return true
		}
	}
	return false
}

// isDirection reports whether a word ends in a compass direction, as the
// regions us-east-1, ap-southeast-2, eu-central-1 do.
func isDirection(w string) bool {
	for _, d := range [...]string{"east", "west", "north", "south", "central"} {
		if strings.HasSuffix(w, d) {
			return true
		}
	}
	return false
}

// lineSuffixLen returns the length of a line (and column) number after a
// file name ("handler.py:58", "main.go:45:12"), which names a place in one
// version of one file, not a kind of fault; 0 when there is none.
func lineSuffixLen(s string) int {
	i := len(s)
	for range 2 {
		j := i
		for j > 0 && isDigit(s[j-1]) {
			j--
		}
		if j == i || j == 0 || s[j-1] != ':' {
			break
		}
		i = j - 1
	}
	if i == len(s) || !hasExtension(s[:i]) || !sourceExt[strings.ToLower(s[strings.LastIndexByte(s[:i], '.')+1:i])] {
		return 0
	}
	return len(s) - i
}

// sourceExt are the extensions of source files a stack frame or compiler
// message names with a line number ("handler.py:58"); other names with a
// number after ':' are host:port ("example.com:443").
var sourceExt = map[string]bool{
	"py": true, "go": true, "java": true, "kt": true, "scala": true, "js": true, "mjs": true, "ts": true,
	"tsx": true, "jsx": true, "rb": true, "rs": true, "c": true, "cc": true, "cpp": true, "h": true,
	"hpp": true, "php": true, "cs": true, "ex": true, "exs": true, "erl": true, "sh": true, "pl": true,
	"lua": true, "swift": true, "yaml": true, "yml": true, "json": true, "tf": true, "sql": true, "toml": true,
}

// hasExtension reports whether s ends in a file extension: a '.' and one to
// five letters (digits allowed after the first), after a name.
func hasExtension(s string) bool {
	d := strings.LastIndexByte(s, '.')
	if d <= 0 || len(s)-d-1 < 1 || len(s)-d-1 > 5 || !isLetter(s[d+1]) {
		return false
	}
	for i := d + 1; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// fileName returns the last '/'-separated segment of a path token when it
// is a file name with an extension ("var/task/handler.py" → "handler.py"),
// else "".
func fileName(s string) string {
	p := strings.LastIndexByte(s, '/')
	if p < 0 || p+1 >= len(s) {
		return ""
	}
	f := s[p+1:]
	if !hasExtension(f) || !hasLetterAt(f[:strings.LastIndexByte(f, '.')]) {
		return ""
	}
	return f
}

// className returns the last dotted segment of a qualified exception or
// class name when it is CamelCase ("sqlalchemy.exc.ProgrammingError" →
// "ProgrammingError", "java.lang.OutOfMemoryError" → "OutOfMemoryError"),
// else "".
func className(s string) string {
	p := strings.LastIndexByte(s, '.')
	if p <= 0 || p+1 >= len(s) || strings.ContainsAny(s, "/:=") {
		return ""
	}
	c := s[p+1:]
	if c[0] < 'A' || c[0] > 'Z' || len(c) < 4 {
		return ""
	}
	humps, lower := 0, false
	for i := 0; i < len(c); i++ {
		switch ch := c[i]; {
		case ch >= 'A' && ch <= 'Z':
			if i == 0 || (c[i-1] >= 'a' && c[i-1] <= 'z') {
				humps++
			}
		case ch >= 'a' && ch <= 'z':
			lower = true
		case isDigit(ch):
		default:
			return ""
		}
	}
	if humps < 2 || !lower {
		return ""
	}
	return c
}

// splitCodeName cuts a status code or status class off the letters before
// it in one CamelCase piece of an alert name ("Edge429" → 4, "HTTP5xx" →
// 4), and returns the index of the cut, or 0.
func splitCodeName(p string) int {
	n := len(p)
	if n < 5 {
		return 0
	}
	i := n - 3
	for k := 0; k < i; k++ {
		if !isLetter(p[k]) {
			return 0
		}
	}
	if i < 2 {
		return 0
	}
	code := p[i:]
	if digitsAt(code, 0) == 3 {
		if c, _ := statusClass(atoi(code)); c != "" {
			return i
		}
		return 0
	}
	if isStatusClassWord(code) {
		return i
	}
	return 0
}

// isLogLevel reports whether s is a level word of log lines (a switch, not
// a map: it runs on every token).
func isLogLevel(s string) bool {
	switch s {
	case "ERROR", "ERR", "WARN", "WARNING", "INFO", "DEBUG", "TRACE", "FATAL", "CRITICAL", "CRIT", "NOTICE", "SEVERE",
		"error", "warn", "warning", "info", "debug", "trace", "fatal":
		return true
	}
	return false
}

// markNoise flags the boilerplate of log lines and stack traces with fDrop:
//
//   - a log level in a log line's place: in brackets ("[ERROR]"), after a
//     timestamp on its line, or first on its line before ':' or ']';
//   - a Python frame's "File" and its "line N" ("File \"/var/task/handler.py\",
//     line 58, in handle"): the file name stays;
//   - the key of a request, trace or span id before the id itself
//     ("RequestId: 9b1c…", "request_id=…"): the id is a class already.
func markNoise(text string, toks []token) {
	for i := range toks {
		t := &toks[i]
		s := text[t.start:t.end]
		switch {
		case isLogLevel(s) && levelPlace(text, toks, i):
			t.flags |= fDrop
		case s == "File" && t.end+1 < len(text) && text[t.end] == ' ' && text[t.end+1] == '"':
			t.flags |= fDrop
			for j := i + 1; j < len(toks) && j <= i+3; j++ {
				if text[toks[j].start:toks[j].end] == "line" && j+1 < len(toks) && digitsAt(text[toks[j+1].start:toks[j+1].end], 0) == toks[j+1].end-toks[j+1].start {
					toks[j].flags |= fDrop
					toks[j+1].flags |= fDrop
					break
				}
			}
		case isIDKey(s) && i+1 < len(toks) && !hasNewline(text[t.end:toks[i+1].start]):
			if nx := text[toks[i+1].start:toks[i+1].end]; classifyWhole(nx, toks[i+1].flags) != "" || classifyPart(nx) != "" {
				t.flags |= fDrop
			}
		}
	}
}

// levelPlace reports whether the level word toks[i] stands where a log line
// puts its level.
func levelPlace(text string, toks []token, i int) bool {
	t := toks[i]
	if t.start > 0 && text[t.start-1] == '[' && t.end < len(text) && text[t.end] == ']' {
		return true
	}
	lineStart := t.start == 0 || strings.LastIndexByte(text[:t.start], '\n') >= 0 && !hasNonSpace(text[strings.LastIndexByte(text[:t.start], '\n')+1:t.start])
	if t.start == 0 {
		lineStart = true
	}
	if lineStart && t.end < len(text) && (text[t.end] == ':' || text[t.end] == ']') {
		return true
	}
	if i > 0 && !hasNewline(text[toks[i-1].end:t.start]) {
		p := text[toks[i-1].start:toks[i-1].end]
		if c := classifyWhole(p, toks[i-1].flags); c == ClassTime || c == ClassDate {
			return true
		}
	}
	return false
}

func hasNewline(s string) bool { return strings.IndexByte(s, '\n') >= 0 }

func hasNonSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' && s[i] != '[' {
			return true
		}
	}
	return false
}

// isIDKey reports whether s names a request, trace or span id.
func isIDKey(s string) bool {
	if len(s) < 5 || len(s) > 16 {
		return false
	}
	if c := s[len(s)-1] | 0x20; c != 'd' && c != 'y' {
		return false // the common case, without the copy below
	}
	var buf [16]byte
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '-' && c != '_' {
			buf[n] = c | 0x20
			n++
		}
	}
	switch string(buf[:n]) {
	case "requestid", "reqid", "traceid", "spanid", "correlationid", "xrequestid", "xamznrequestid", "xamzrequestid", "xamzcfid", "cfray", "rayid":
		return true
	}
	return false
}

// appendCode appends the units of a status code cut out of an alert name:
// the code as a part and, for a number, its class ("429" → 429, 4xx).
func appendCode(units []unit, code string, idx int) []unit {
	if isStatusClassWord(code) {
		return append(units, unit{text: statusClassWords[code[0]-'1'], tok: idx, emit: true})
	}
	units = append(units, unit{text: code, tok: idx, emit: true})
	if c, _ := statusClass(atoi(code)); c != "" {
		units = append(units, unit{text: c, tok: idx, class: true})
	}
	return units
}

// isNoiseClass reports whether a class term is one DropNoiseClasses drops.
func isNoiseClass(c string) bool {
	switch c {
	case ClassTime, ClassDate, ClassUUID, ClassHex, ClassNum, ClassID:
		return true
	}
	return false
}

// urlParts appends, as parts of the URL token s, the words of its path and
// query and a file name whole, so a report whose one link names the fault
// in its path still meets a paste that names it ("…/incidents/dns-outage").
// The host stays one word: its labels (a region, a provider's domain) were
// measured to pull in other reports of the provider.
func (a *Analyzer) urlParts(sc *scratch, ti *tokInfo, s string, idx int) {
	n0 := len(sc.units)
	add := func(ps string) {
		if len(sc.units)-n0 >= maxParts || !hasLetter(ps) || hasDigit(ps) || len(ps) < 2 || len(ps) > a.opts.MaxTokenBytes {
			return
		}
		t, stop := a.normalize(ps)
		sc.units = append(sc.units, unit{text: t, tok: idx, stop: stop, emit: true})
	}
	rest := s
	if i := strings.Index(s, "://"); i >= 0 {
		rest = s[i+3:]
		if j := strings.IndexAny(rest, "/?#"); j >= 0 {
			rest = rest[j:]
		} else {
			rest = ""
		}
	}
	for len(rest) > 0 && len(sc.units)-n0 < maxParts {
		i := 0
		for i < len(rest) && !isSegmentByte(rest[i]) {
			i++
		}
		j := i
		for j < len(rest) && isSegmentByte(rest[j]) {
			j++
		}
		seg := rest[i:j]
		rest = rest[j:]
		if seg == "" || len(seg) > maxSplitBytes {
			continue
		}
		if a.opts.Files && hasExtension(seg) {
			add(seg)
		}
		sc.parts = splitCompound(seg, sc.parts[:0])
		for _, p := range sc.parts {
			if p.class == "" {
				add(seg[p.off:p.end])
			}
		}
	}
	if len(sc.units) > n0 {
		ti.compound = true
	}
}

// hasDigit reports whether s has an ASCII digit: in a URL's path such a
// piece (abc123, v2, 2024) is an id or a version, not a word.
func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

// isSegmentByte reports whether c belongs to a segment of a URL's path or
// query (letters, digits and the joiners - _ .; '/', '?', '&', '=', '%'
// and the rest separate segments).
func isSegmentByte(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '-' || c == '_' || c == '.'
}
