package tokenize

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Term is one output term.
type Term struct {
	// Text is the normalized form used for matching: lower-cased and
	// stemmed ("kill"), kept as written for tokens with digits ("us-east-1",
	// "5xx"), a class term ("<ip>", "5xx"), a synonym canonical
	// ("kubernet"), or "a b" for a bigram ("connect pool").
	Text string
	// Surface is the text it came from, as written in the input
	// ("OOMKilled", "connection pool", "k8s"). It is a substring of the
	// input: the whole token for words, parts, classes and one-token
	// synonyms; the span of both tokens for a bigram; the span of the
	// matched phrase for a phrase synonym.
	Surface string
	// Pos is the index of the source token in the input, counting every
	// token the segmenter found, stop words included. Parts, classes and
	// synonyms of one token share its Pos; a bigram or a phrase synonym
	// carries the Pos of its first token. Terms are emitted in
	// non-decreasing Pos order, and no Text occurs twice with the same Pos.
	Pos int
	// Kind says which pipeline step produced the term.
	Kind Kind
}

// Kind says which pipeline step produced a Term.
type Kind uint8

// Term kinds.
const (
	KindWord     Kind = iota // the whole token, normalized
	KindPart                 // a part of a compound token (oom, killed of OOMKilled)
	KindClass                // a class term: <ip>, <uuid>, <hex>, <num>, <id>, <time>, <date>, <url>, 4xx, 5xx
	KindSynonym              // the canonical term of a synonym group a member of which occurred
	KindBigram               // two adjacent content words, "a b"
	KindGlossary             // an English term a Korean word stands for (파드 → pod), from glossary-ko.txt
)

// String returns the kind's name ("word", "part", "class", "synonym",
// "bigram", "glossary").
func (k Kind) String() string {
	switch k {
	case KindWord:
		return "word"
	case KindPart:
		return "part"
	case KindClass:
		return "class"
	case KindSynonym:
		return "synonym"
	case KindBigram:
		return "bigram"
	case KindGlossary:
		return "glossary"
	}
	return "kind(?)"
}

// DefaultMaxTokenBytes is the default Options.MaxTokenBytes.
const DefaultMaxTokenBytes = 64

// MaxTermsPerByte bounds the output: Analyze(text) never returns more than
// MaxTermsPerByte*len(text) terms.
const MaxTermsPerByte = 2

// Options selects the steps of the pipeline. The zero value of each field
// turns its step off, except DropClasses and MaxTokenBytes, whose zero
// values keep the default behaviour. Use DefaultOptions and change fields.
type Options struct {
	// Stem stems pure-letter ASCII words with the Snowball English stemmer
	// ("killed" → "kill", "connections" → "connect"). Words with digits or
	// other symbols and words in other scripts are never stemmed.
	// Default true.
	Stem bool
	// SplitCompounds also emits the parts of compound tokens: pieces
	// between the joiners - _ . / = : and CamelCase or acronym pieces
	// ("CrashLoopBackOff" → crash, loop, back, off; "kube-apiserver" →
	// kube, apiserver). The whole token is always emitted. Parts of one
	// rune, parts without letters ("1" of "us-east-1") and stop-word parts
	// are not emitted. Default true.
	SplitCompounds bool
	// Synonyms emits, for every occurrence of a member of a group of the
	// built-in synonym table (synonyms.txt), the group's canonical term.
	// Default true.
	Synonyms bool
	// Bigrams emits a term "a b" for every two adjacent content words (not
	// stop words, not classes, containing a letter) with no clause break
	// between them: "connection pool" → "connect pool". Default false.
	Bigrams bool
	// StopWords removes stop words (see stop.go for the curated list). When
	// false, stop words are emitted like any other word; they still never
	// form bigrams. Default true.
	StopWords bool
	// DropClasses drops volatile tokens (IP addresses, UUIDs, hashes, long
	// numbers, ids, times, dates, URLs) without a trace, and emits no 4xx
	// or 5xx class for status codes. When false (the default), volatile
	// tokens are replaced by their class term and status codes also emit
	// their class.
	DropClasses bool
	// SynonymsOff turns off single groups of the synonym table, each named
	// by its canonical term as written in synonyms.txt (the first member of
	// its group in SynonymGroups(): "database", "kubernetes"). It exists so
	// that the evaluation can measure what each group is worth; groups are
	// named rather than numbered so that adding one does not change which
	// groups a past ablation turned off. Several names are separated by
	// commas ("database,kubernetes"): a string, not a slice, keeps Options
	// (and the engine's Config holding it) comparable. See Validate.
	// Default "" (all on).
	SynonymsOff string
	// Korean analyzes runs of Hangul: particles and endings are stripped
	// (노드가 → 노드, 배포했다 → 배포, 파드들의 → 파드), compounds are split
	// by the glossary's words (메모리부족 → 메모리, 부족), conjugated verbs
	// the glossary knows become their stem (죽었음 → 죽), and Korean stop
	// words (좀, 지금, 계속) are dropped like English ones. Off, a Hangul
	// run is one term as written. Default true.
	Korean bool
	// Glossary emits, for every Korean word or phrase of the built-in
	// Korean↔English glossary (glossary-ko.txt), the terms its English
	// analyzes to (파드 → pod; 메모리 부족 → out, memori, oom), so a
	// Korean paste meets English cases. It works on the Korean steps'
	// output, so it needs Korean on. Default true.
	Glossary bool
	// GlossarySectionsOff turns off single sections of the glossary, by
	// name (one of GlossarySections()). It exists so that the evaluation
	// can measure what each section is worth. Several names are separated
	// by commas, as in SynonymsOff. See Validate. Default "" (all on).
	GlossarySectionsOff string
	// LabelPairs reads key=value and key="value" (Alertmanager and
	// Prometheus labels, logfmt) as a key and a value: the value is
	// analyzed as a token of its own ("status=429" → 429, 4xx), the key is
	// dropped unless LabelKeys. Default true.
	LabelPairs bool
	// LabelKeys keeps the keys of label pairs as words (deployment,
	// max_connections). Default true.
	LabelKeys bool
	// PodNames cuts the generated suffixes of Kubernetes object names:
	// coredns-5d78c9869d-abcde → coredns, fluentd-x2k4j → fluentd,
	// ingester-7 → ingester. Default true.
	PodNames bool
	// Addresses cuts a port off a host or IP address ("db.internal:5432" →
	// db.internal, :5432; dig's "198.41.222.173#53" → <ip>, :53). The port
	// is a term of its own, ":5432", so that it meets ports only and not the
	// same number in prose ("Route 53"). Default true.
	Addresses bool
	// IPLiterals keeps an IP address literally beside its class (8.8.8.8 →
	// 8.8.8.8, <ip>): a well-known resolver or metadata address may be a
	// clue. Default false: measured, it pulled in reports about the
	// resolver rather than the fault seen through it.
	IPLiterals bool
	// Files keeps the file name of a path whole ("var/task/handler.py" →
	// handler.py, beside its parts) and drops a line number after a file
	// name ("handler.py:58" → handler.py). Default true.
	Files bool
	// URLWords also emits the words of a URL's path and query as parts,
	// and its file name whole: https://status.example.com/incidents/dns-outage
	// → incid, dns, outag beside the host. Default true.
	URLWords bool
	// AlertCodes cuts a status code out of an alert name ("Edge429RatioHigh"
	// → edge, 429, 4xx, ratio, high). Default false: measured, a code the
	// paste already names in a label then counts twice and pulls in any
	// report of the code.
	AlertCodes bool
	// ClassNames keeps the class name of a qualified exception whole
	// ("sqlalchemy.exc.ProgrammingError" → also programmingerror, beside
	// sqlalchemi, exc, program, error). Default true.
	ClassNames bool
	// LogNoise drops the boilerplate of log lines and stack traces: a log
	// level where a log line puts it ("[ERROR]", "… 09:12:07 ERROR"), a
	// Python frame's "File" and "line N", the key of a request id, and a
	// severity label, key and value (severity=warning routes the alert;
	// its stem "sever" would meet "several"). Default true.
	LogNoise bool
	// DropNoiseClasses drops the class terms of timestamps, dates, UUIDs,
	// hashes, long numbers and random ids (<time>, <date>, <uuid>, <hex>,
	// <num>, <id>), which every log line has; <ip>, <url> and status
	// classes stay. Default true.
	DropNoiseClasses bool
	// MaxTokenBytes is the longest token (in bytes) emitted whole. Longer
	// tokens are still split into their parts when SplitCompounds is on
	// and they are at most 256 bytes long. Zero means DefaultMaxTokenBytes.
	MaxTokenBytes int
}

// DefaultOptions returns the default options: Stem, SplitCompounds,
// Synonyms, StopWords, Korean and Glossary on; Bigrams off; classes kept;
// MaxTokenBytes = DefaultMaxTokenBytes.
func DefaultOptions() Options {
	return Options{
		Stem:           true,
		SplitCompounds: true,
		Synonyms:       true,
		Bigrams:        false,
		StopWords:      true,
		Korean:         true,
		Glossary:       true,
		MaxTokenBytes:  DefaultMaxTokenBytes,

		LabelPairs:       true,
		LabelKeys:        true,
		PodNames:         true,
		Addresses:        true,
		Files:            true,
		URLWords:         true,
		ClassNames:       true,
		LogNoise:         true,
		DropNoiseClasses: true,
	}
}

// Analyzer turns text into terms. It is safe for concurrent use by many
// goroutines; its only mutable state is a cache of normalized words.
type Analyzer struct {
	opts  Options
	cache *normCache
	syn   *synTable
	gloss *synTable // nil unless Glossary
}

// New returns an Analyzer with the given options.
func New(opts Options) *Analyzer {
	if opts.MaxTokenBytes <= 0 {
		opts.MaxTokenBytes = DefaultMaxTokenBytes
	}
	a := &Analyzer{opts: opts, cache: newNormCache()}
	groups := builtinSynonyms
	if off := names(opts.SynonymsOff); len(off) > 0 {
		groups = nil
		for _, g := range builtinSynonyms {
			if !slices.Contains(off, g[0]) {
				groups = append(groups, g)
			}
		}
	}
	a.syn = a.buildSynonyms(groups)
	if opts.Glossary {
		a.gloss = a.buildGlossary(builtinGlossary)
	}
	return a
}

// Validate reports a name in SynonymsOff that is no synonym group's
// canonical term, or one in GlossarySectionsOff that is no glossary
// section: New ignores such names, so an ablation with a misspelt name
// would otherwise measure nothing.
func (o Options) Validate() error {
	for _, name := range names(o.SynonymsOff) {
		if !slices.ContainsFunc(builtinSynonyms, func(g []string) bool { return g[0] == name }) {
			return fmt.Errorf("tokenize: SynonymsOff: no synonym group %q", name)
		}
	}
	sections := GlossarySections()
	for _, name := range names(o.GlossarySectionsOff) {
		if !slices.Contains(sections, name) {
			return fmt.Errorf("tokenize: GlossarySectionsOff: no glossary section %q", name)
		}
	}
	return nil
}

// names splits a comma-separated list of names, trimming spaces and
// dropping empty names.
func names(list string) []string {
	var out []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Options returns the options the Analyzer was built with, with defaults
// filled in.
func (a *Analyzer) Options() Options { return a.opts }

// Analyze returns the terms of text. See the package documentation for the
// pipeline. Invalid UTF-8 never ends up in a term.
func (a *Analyzer) Analyze(text string) []Term {
	return a.AppendTerms(make([]Term, 0, len(text)/8+4), text)
}

// AppendTerms appends the terms of text to dst and returns the extended
// slice. Reusing dst across calls makes analysis nearly allocation-free once
// the Analyzer's word cache is warm.
func (a *Analyzer) AppendTerms(dst []Term, text string) []Term {
	sc := scratchPool.Get().(*scratch)
	a.prepare(sc, text)
	a.markGlossPhrases(sc)
	dst = a.emitTerms(dst, sc, text)
	sc.release()
	return dst
}

// scratch holds the per-call working memory, pooled across calls.
type scratch struct {
	toks  []token
	toks2 []token // reshape's output, swapped with toks
	infos []tokInfo
	units []unit
	parts []part
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// release clears references into the input and returns sc to the pool
// unless it grew very large.
func (sc *scratch) release() {
	clear(sc.infos)
	clear(sc.units)
	if cap(sc.toks) > 1<<16 {
		return
	}
	scratchPool.Put(sc)
}

// tokInfo is what the first pass learned about one token.
type tokInfo struct {
	start, end int    // surface span (a possessive "'s" is cut off)
	text       string // whole-token term, "" when the whole is not emitted
	class      string // class term of the whole token, or ""
	status     string // "4xx"/"5xx" when the token may be a status code
	u0, u1     int    // the token's units: sc.units[u0:u1]
	statusCtx  bool   // status needs a context word to count
	stop       bool   // a stop word (or a compound of stop words)
	brk        bool   // a clause break precedes the token
	bigram     bool   // may form bigrams
	compound   bool   // units are the token's parts (SplitCompounds on, ≥2 parts)
	korean     bool   // a Hangul word analyzed by the Korean steps
	glossed    bool   // a Korean word inside a glossary phrase: replaced by its terms
}

// unit is one word of the stream synonyms are matched on: a token's parts
// when it is a split compound, else the token itself. Stop words are units
// too, so phrases like "out of memory" match.
type unit struct {
	text  string // normalized text or class term; "" never matches
	tok   int    // index into sc.infos
	class bool   // text is a class term
	stop  bool   // a stop word
	emit  bool   // emitted as a part (compounds only)
}

// prepare runs the first pass: segmentation and per-token normalization.
func (a *Analyzer) prepare(sc *scratch, text string) {
	sc.toks = segment(text, sc.toks[:0])
	if o := &a.opts; o.LabelPairs || o.Addresses || o.PodNames || o.Files {
		sc.toks2 = a.reshape(text, sc.toks, sc.toks2[:0])
		sc.toks, sc.toks2 = sc.toks2, sc.toks
	}
	if a.opts.LogNoise {
		markNoise(text, sc.toks)
	}
	sc.infos = sc.infos[:0]
	sc.units = sc.units[:0]
	for i, tk := range sc.toks {
		a.analyzeToken(sc, text, i, tk)
	}
}

// analyzeToken normalizes token idx and appends its tokInfo and units.
func (a *Analyzer) analyzeToken(sc *scratch, text string, idx int, tk token) {
	ti := tokInfo{start: tk.start, end: tk.end, brk: tk.flags&fBreak != 0, u0: len(sc.units)}
	s := text[tk.start:tk.end]
	switch {
	case tk.flags&fDrop != 0 || (tk.flags&fLabelKey != 0 && !a.opts.LabelKeys):
		sc.units = append(sc.units, unit{tok: idx, stop: true}) // a unit that matches nothing
	case tk.flags&fURL != 0:
		ti.class = ClassURL
		h := urlHost(s)
		if h != "" && len(h) <= a.opts.MaxTokenBytes && !isIPv4(h) {
			ti.text, _ = a.normalize(h)
		}
		sc.units = append(sc.units, unit{text: ClassURL, tok: idx, class: true})
		if a.opts.URLWords {
			a.urlParts(sc, &ti, s, idx)
		}
	case tk.flags&(fSingle|fSymbol) != 0:
		if len(s) <= a.opts.MaxTokenBytes {
			ti.text = s
			ti.bigram = tk.flags&fSingle != 0
		}
		sc.units = append(sc.units, unit{text: ti.text, tok: idx})
	default:
		a.analyzeWord(sc, text, &ti, tk.flags, idx)
	}
	ti.u1 = len(sc.units)
	sc.infos = append(sc.infos, ti)
}

// analyzeWord handles a letter/digit token through the steps of the package
// documentation that look at one token: contractions and possessives (of
// step 3), whole-token classes, numbers and status codes (step 6), the
// Korean steps, compound parts (step 2) and the whole token's normal form
// (steps 3-5).
func (a *Analyzer) analyzeWord(sc *scratch, text string, ti *tokInfo, fl uint16, idx int) {
	s := text[ti.start:ti.end]
	if fl&fApos != 0 {
		var done bool
		if s, fl, done = contraction(sc, s, ti, fl, idx); done {
			return
		}
	}
	if fl&fPort != 0 {
		// A port: a literal, never a status code, and written ":53" so
		// that it meets ports only, not the same number in prose
		// ("Route 53", "53 minutes").
		ti.text = ":" + s
		sc.units = append(sc.units, unit{text: ti.text, tok: idx})
		return
	}
	if fl&fDigit != 0 && classifyNumber(sc, ti, s, fl, idx, a.opts.IPLiterals) {
		return
	}
	if a.opts.Korean && fl&(fDigit|fJoiner|fApos|fComma) == 0 && startsHangul(s) {
		a.analyzeKorean(sc, ti, s, idx)
		return
	}
	var sp split
	if len(s) <= maxSplitBytes && (fl&(fJoiner|fComma) != 0 || fl&(fUpper|fLower) == fUpper|fLower) {
		sp = a.splitParts(sc, ti, s, idx)
	}
	a.wholeWord(sc, ti, s, sp, idx)
	ti.bigram = ti.text != "" && !ti.stop && fl&fLetter != 0
}

// contraction normalizes the contraction or possessive s (a token with an
// apostrophe) before lower-casing (step 3): "didn't" is the word not
// (done), "PostHog's" is PostHog. It returns the token's text and flags
// without the clitic.
func contraction(sc *scratch, s string, ti *tokInfo, fl uint16, idx int) (word string, flags uint16, done bool) {
	p, w := lastApos(s)
	suf := s[p+w:]
	if p > 0 && (suf == "t" || suf == "T") && s[p-1]|0x20 == 'n' {
		// didn't, can't, won't, isn’t → not
		ti.text, ti.bigram = "not", true
		sc.units = append(sc.units, unit{text: "not", tok: idx})
		return s, fl, true
	}
	if isClitic(suf) { // PostHog's, we're, they've, we'll, I'm, it'd
		s = s[:p]
		ti.end = ti.start + p
		fl = wordFlags(s)
	}
	return s, fl, false
}

// classifyNumber handles a token with digits that is volatile as a whole
// (step 6: <ip>, <uuid>, <time>…), a number, or a status code or class
// ("503", "502s", "5xx"). It reports whether the token is done.
func classifyNumber(sc *scratch, ti *tokInfo, s string, fl uint16, idx int, ipLiteral bool) bool {
	if c := classifyWhole(s, fl); c != "" {
		ti.class = c
		if c == ClassIP && ipLiteral && len(s) <= 64 {
			ti.text = strings.ToLower(s) // 8.8.8.8, 169.254.169.253: a clue, not only a class
		}
		sc.units = append(sc.units, unit{text: c, tok: idx, class: true})
		return true
	}
	num := ""
	switch {
	case fl&(fLetter|fJoiner|fApos|fNonASCII) == 0: // 90, 2025, 1,000
		num = s
		if fl&fComma != 0 {
			num = strings.ReplaceAll(s, ",", "")
		}
	case len(s) == 4 && s[3]|0x20 == 's' && digitsAt(s, 0) == 3: // 502s
		num = s[:3]
	case isStatusClassWord(s): // 5XX, 5xxs
		ti.text, ti.bigram = statusClassWords[s[0]-'1'], true
		sc.units = append(sc.units, unit{text: ti.text, tok: idx})
		return true
	}
	if num == "" {
		return false
	}
	ti.text = num
	if len(num) == 3 {
		ti.status, ti.statusCtx = statusClass(atoi(num))
		ti.statusCtx = ti.statusCtx && len(s) == 3 // "500s" needs no context
	}
	sc.units = append(sc.units, unit{text: num, tok: idx})
	return true
}

// split is what splitParts found in a token.
type split struct {
	compound               bool   // two parts or more
	volClass               string // the class of its first volatile part, or ""
	letterParts, stopParts int    // parts with a letter, and those that are stop words
}

// splitParts splits a token that may be a compound (it has joiners, or
// upper and lower case) into its parts (step 2), each normalized (steps 3-5)
// or classed (step 6), and appends them as units.
func (a *Analyzer) splitParts(sc *scratch, ti *tokInfo, s string, idx int) split {
	var sp split
	sc.parts = splitCompound(s, sc.parts[:0])
	if sp.compound = len(sc.parts) >= 2; !sp.compound {
		return sp
	}
	for _, p := range sc.parts {
		ps := s[p.off:p.end]
		if p.class != "" {
			if sp.volClass == "" {
				sp.volClass = p.class
			}
			sc.units = append(sc.units, unit{text: p.class, tok: idx, class: true})
			continue
		}
		code := ""
		if a.opts.AlertCodes && sp.compound {
			if k := splitCodeName(ps); k > 0 {
				ps, code = ps[:k], ps[k:]
			}
		}
		var t string
		var stop bool
		if a.opts.Korean && startsHangul(ps) { // 쓰기/읽기
			e := a.koNormalize(ps)
			t, stop, ti.korean = e.text, e.stop, true
		} else {
			t, stop = a.normalize(ps)
		}
		u := unit{text: t, tok: idx, stop: stop}
		if hasLetter(ps) {
			sp.letterParts++
			if stop {
				sp.stopParts++
			}
			// not "3s" of "2.3s" nor "00sc" of a pod name: a part
			// must start with a letter and have two runes
			u.emit = !isDigit(ps[0]) && len(ps) > 1 && utf8.RuneCountInString(ps) > 1
		}
		sc.units = append(sc.units, u)
		if code != "" {
			sc.units = appendCode(sc.units, code, idx)
		}
	}
	if a.opts.ClassNames {
		if c := className(s); c != "" {
			t, _ := a.normalize(c)
			sc.units = append(sc.units, unit{text: t, tok: idx, emit: true})
		}
	}
	if a.opts.Files {
		if f := fileName(s); f != "" && len(f) <= a.opts.MaxTokenBytes {
			t, _ := a.normalize(f)
			sc.units = append(sc.units, unit{text: t, tok: idx, emit: true})
		}
	}
	return sp
}

// wholeWord normalizes the whole token (steps 3-5) unless a volatile part
// stands for it, and keeps the parts as its units when compounds are split;
// otherwise the whole token (or its class) is its one unit.
func (a *Analyzer) wholeWord(sc *scratch, ti *tokInfo, s string, sp split, idx int) {
	if sp.volClass == "" && len(s) <= a.opts.MaxTokenBytes {
		ti.text, ti.stop = a.normalize(s)
		if sp.compound && sp.letterParts > 0 && sp.stopParts == sp.letterParts {
			ti.stop = true // and/or, e.g, to/from
		}
	}
	if sp.compound && a.opts.SplitCompounds {
		ti.compound = true
		return
	}
	sc.units = sc.units[:ti.u0]
	if sp.volClass != "" {
		ti.class = sp.volClass
		sc.units = append(sc.units, unit{text: sp.volClass, tok: idx, class: true})
	} else {
		sc.units = append(sc.units, unit{text: ti.text, tok: idx, stop: ti.stop})
	}
}

// emitTerms runs the second pass: for each token in order, the terms of
// each step — its whole word, parts, classes, synonyms, glossary terms and
// bigram — none twice at one Pos.
func (a *Analyzer) emitTerms(dst []Term, sc *scratch, text string) []Term {
	o := &a.opts
	for i := range sc.infos {
		ti := &sc.infos[i]
		base := len(dst)
		surf := text[ti.start:ti.end]
		if ti.text != "" && !(o.StopWords && ti.stop) && !a.glossed(ti, ti.text) {
			dst = append(dst, Term{Text: ti.text, Surface: surf, Pos: i, Kind: KindWord})
		}
		if ti.compound {
			dst = a.emitParts(dst, base, sc, ti, surf, i)
		}
		if !o.DropClasses && (ti.class != "" || ti.status != "") {
			dst = emitClasses(dst, base, sc, text, ti, surf, i, o.DropNoiseClasses)
		}
		if o.Synonyms {
			dst = a.emitSynonyms(dst, base, sc, text, ti, surf, i)
		}
		if a.gloss != nil && ti.korean {
			dst = a.emitGlossary(dst, base, sc, text, ti, surf, i)
		}
		if o.Bigrams && ti.bigram && i+1 < len(sc.infos) {
			if nx := &sc.infos[i+1]; nx.bigram && !nx.brk {
				dst = emit(dst, base, ti.text+" "+nx.text, text[ti.start:nx.end], i, KindBigram)
			}
		}
	}
	return dst
}

// emitParts emits the parts of compound token i (step 2) and the classes of
// its volatile parts (step 6).
func (a *Analyzer) emitParts(dst []Term, base int, sc *scratch, ti *tokInfo, surf string, i int) []Term {
	o := &a.opts
	for k := ti.u0; k < ti.u1; k++ {
		u := &sc.units[k]
		switch {
		case u.class:
			if !o.DropClasses && !(o.DropNoiseClasses && isNoiseClass(u.text)) {
				dst = emit(dst, base, u.text, surf, i, KindClass)
			}
		case u.emit && !(o.StopWords && u.stop) && !a.glossed(ti, u.text):
			dst = emit(dst, base, u.text, surf, i, KindPart)
		}
	}
	return dst
}

// emitClasses emits the class of token i and its status class (step 6); a
// round status code needs a context word.
func emitClasses(dst []Term, base int, sc *scratch, text string, ti *tokInfo, surf string, i int, dropNoise bool) []Term {
	if ti.class != "" && !(dropNoise && isNoiseClass(ti.class)) {
		dst = emit(dst, base, ti.class, surf, i, KindClass)
	}
	if ti.status != "" && (!ti.statusCtx || statusContextAround(sc, text, i)) {
		dst = emit(dst, base, ti.status, surf, i, KindClass)
	}
	return dst
}

// emitSynonyms emits the canonicals of the synonym groups whose member
// (a word or a phrase) starts at a unit of token i (step 7), and of the
// whole of a compound.
func (a *Analyzer) emitSynonyms(dst []Term, base int, sc *scratch, text string, ti *tokInfo, surf string, i int) []Term {
	for k := ti.u0; k < ti.u1; k++ {
		if ti.korean && startsHangul(sc.units[k].text) {
			continue // the synonym table is English: Korean units go to the glossary
		}
		dst = matchSynonyms(a.syn, KindSynonym, dst, base, sc, text, k, i)
	}
	if ti.compound && ti.text != "" {
		for _, c := range a.syn.single[ti.text] {
			dst = emit(dst, base, c, surf, i, KindSynonym)
		}
	}
	return dst
}

// emitGlossary emits the English terms of the glossary words and phrases
// that start at a unit of Korean token i (Korean step 4).
func (a *Analyzer) emitGlossary(dst []Term, base int, sc *scratch, text string, ti *tokInfo, surf string, i int) []Term {
	for k := ti.u0; k < ti.u1; k++ {
		dst = matchSynonyms(a.gloss, KindGlossary, dst, base, sc, text, k, i)
	}
	if ti.compound && ti.text != "" {
		for _, c := range a.gloss.single[ti.text] {
			dst = emit(dst, base, c, surf, i, KindGlossary)
		}
	}
	return dst
}

// glossed reports whether the Korean word w of token ti is replaced by its
// glossary terms: a Korean word the glossary maps, alone or in a phrase,
// is not emitted itself.
func (a *Analyzer) glossed(ti *tokInfo, w string) bool {
	return ti.korean && a.gloss != nil && (ti.glossed || len(a.gloss.single[w]) > 0)
}

// markGlossPhrases marks the Korean tokens that glossary phrases cover
// (꽉 참, 응답 없음), so that their words give way to the phrase's terms.
func (a *Analyzer) markGlossPhrases(sc *scratch) {
	if a.gloss == nil || len(a.gloss.phrases) == 0 {
		return
	}
	for k := range sc.units {
		u := &sc.units[k]
		if !sc.infos[u.tok].korean || u.text == "" {
			continue
		}
		for _, p := range a.gloss.phrases[u.text] {
			if m, ok := p.endAt(sc, k); ok {
				for t := u.tok; t <= sc.units[m].tok; t++ {
					sc.infos[t].glossed = sc.infos[t].korean
				}
			}
		}
	}
}

// emit appends a term unless dst[base:] (the terms of the same Pos) already
// has its Text.
func emit(dst []Term, base int, text, surface string, pos int, kind Kind) []Term {
	for j := base; j < len(dst); j++ {
		if dst[j].Text == text {
			return dst
		}
	}
	return append(dst, Term{Text: text, Surface: surface, Pos: pos, Kind: kind})
}

// statusContextAround reports whether a word next to token i makes it read
// as an HTTP status code ("HTTP 500", "500 errors", "500 Internal").
func statusContextAround(sc *scratch, text string, i int) bool {
	for _, j := range [2]int{i - 1, i + 1} {
		if j < 0 || j >= len(sc.infos) {
			continue
		}
		nb := &sc.infos[j]
		if (j < i && sc.infos[i].brk) || (j > i && nb.brk) {
			continue
		}
		w := text[nb.start:nb.end]
		if len(w) > 16 {
			continue
		}
		var buf [16]byte
		for k := 0; k < len(w); k++ {
			c := w[k]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf[k] = c
		}
		if statusContext[string(buf[:len(w)])] {
			return true
		}
	}
	return false
}

// statusClassWords are the normalized status classes, indexed by the
// first digit minus one.
var statusClassWords = [...]string{"1xx", "2xx", "3xx", "4xx", "5xx"}

// isStatusClassWord reports whether s is a status class as written in
// text: 5xx, 5XX, 4xxs.
func isStatusClassWord(s string) bool {
	if len(s) != 3 && (len(s) != 4 || s[3]|0x20 != 's') {
		return false
	}
	return s[0] >= '1' && s[0] <= '5' && s[1]|0x20 == 'x' && s[2]|0x20 == 'x'
}

// lastApos returns the byte index and width of the last apostrophe (' or ’)
// in s.
func lastApos(s string) (int, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '\'' {
			return i, 1
		}
		if s[i] == 0x99 && i >= 2 && s[i-2] == 0xE2 && s[i-1] == 0x80 { // U+2019
			return i - 2, 3
		}
	}
	return 0, 0
}

// isClitic reports whether suf (after an apostrophe) is a possessive or
// contracted verb that is cut off the word.
func isClitic(suf string) bool {
	switch len(suf) {
	case 1:
		switch suf[0] | 0x20 {
		case 's', 'd', 'm':
			return true
		}
	case 2:
		return equalFoldASCII(suf, "re") || equalFoldASCII(suf, "ve") || equalFoldASCII(suf, "ll")
	}
	return false
}

// wordFlags recomputes the scanner flags of a word token.
func wordFlags(s string) uint16 {
	var fl uint16
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch ac := asciiClass[c]; {
			case ac&acLower != 0:
				fl |= fLower | fLetter
			case ac&acUpper != 0:
				fl |= fUpper | fLetter
			case ac&acDigit != 0:
				fl |= fDigit
			case ac&acJoiner != 0:
				fl |= fJoiner
			case c == '\'':
				fl |= fApos
			case c == ',':
				fl |= fComma
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		fl |= fNonASCII
		switch {
		case r == 0x2019:
			fl |= fApos
		case unicode.IsUpper(r):
			fl |= fUpper | fLetter
		case unicode.IsLower(r):
			fl |= fLower | fLetter
		case unicode.IsDigit(r):
			fl |= fDigit
		case unicode.IsLetter(r):
			fl |= fLetter
		}
		i += size
	}
	return fl
}

// hasLetter reports whether s has a letter (any rune outside ASCII counts).
func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || isLetter(c) {
			return true
		}
	}
	return false
}

// urlHost returns the host of a URL without "www." and port, lower-cased by
// the caller, or "" when it does not look like a host name.
func urlHost(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return ""
	}
	h := u[i+3:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	if j := strings.IndexByte(h, ':'); j >= 0 {
		h = h[:j]
	}
	if len(h) > 4 && equalFoldASCII(h[:4], "www.") {
		h = h[4:]
	}
	letter := false
	for k := 0; k < len(h); k++ {
		c := h[k]
		switch {
		case isLetter(c):
			letter = true
		case isDigit(c), c == '-', c == '.':
		default:
			return ""
		}
	}
	if !letter || h[0] == '.' || h[0] == '-' || h[len(h)-1] == '.' || h[len(h)-1] == '-' {
		return ""
	}
	return h
}
