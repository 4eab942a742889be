package tokenize

import (
	"slices"
	"testing"
)

// The steps of the package documentation, one table each, in its order
// (segmentation, compound splitting and classification have theirs in
// segment_test.go and volatile_test.go, the Korean steps in korean_test.go).

// firstWord segments s and returns its first token and a fresh tokInfo of
// it, for the word steps below.
func firstWord(t *testing.T, s string) (token, *tokInfo) {
	t.Helper()
	toks := segment(s, nil)
	if len(toks) == 0 {
		t.Fatalf("%q: no token", s)
	}
	return toks[0], &tokInfo{start: toks[0].start, end: toks[0].end}
}

// Step 3, before lower-casing: contractions become not, clitics are cut.
func TestStepContraction(t *testing.T) {
	for _, tc := range []struct {
		in, word string
		done     bool // the token is the word "not"
	}{
		{"didn't", "didn't", true},
		{"WON’T", "WON’T", true},
		{"PostHog's", "PostHog", false},
		{"we're", "we", false},
		{"they've", "they", false},
		{"rock'n'roll", "rock'n'roll", false},
	} {
		tk, ti := firstWord(t, tc.in)
		var sc scratch
		word, _, done := contraction(&sc, tc.in[tk.start:tk.end], ti, tk.flags, 0)
		if word != tc.word || done != tc.done || (done && ti.text != "not") {
			t.Errorf("contraction(%q) = %q, done %v (text %q); want %q, done %v", tc.in, word, done, ti.text, tc.word, tc.done)
		}
	}
}

// Step 6 on a whole token with digits: a class, a number, a status code or
// class; words with digits go on to the other steps.
func TestStepClassifyNumber(t *testing.T) {
	for _, tc := range []struct {
		in, text, class, status string
		done                    bool
	}{
		{in: "10.0.0.12", class: ClassIP, done: true},
		{in: "1,000", text: "1000", done: true},
		{in: "503", text: "503", status: "5xx", done: true},
		{in: "502s", text: "502", status: "5xx", done: true},
		{in: "5XX", text: "5xx", done: true},
		{in: "p99", done: false},
		{in: "us-east-1", done: false},
	} {
		tk, ti := firstWord(t, tc.in)
		var sc scratch
		done := classifyNumber(&sc, ti, tc.in[tk.start:tk.end], tk.flags, 0, false)
		if done != tc.done || ti.text != tc.text || ti.class != tc.class || ti.status != tc.status {
			t.Errorf("classifyNumber(%q) = done %v, text %q, class %q, status %q; want %v, %q, %q, %q",
				tc.in, done, ti.text, ti.class, ti.status, tc.done, tc.text, tc.class, tc.status)
		}
	}
}

// Steps 3-5 on one word: lower-case, stop words, stem (pure-letter ASCII
// words only; words with digits and other scripts as written, lower case).
func TestStepNormalize(t *testing.T) {
	a := New(DefaultOptions())
	for _, tc := range []struct {
		in, text string
		stop     bool
	}{
		{"Connections", "connect", false},
		{"KILLED", "kill", false},
		{"the", "the", true},
		{"down", "down", false},
		{"HTTP2", "http2", false},
		{"Überlast", "überlast", false},
	} {
		text, stop := a.normalize(tc.in)
		if text != tc.text || stop != tc.stop {
			t.Errorf("normalize(%q) = %q, stop %v; want %q, %v", tc.in, text, stop, tc.text, tc.stop)
		}
	}
}

// Step 2 beside steps 3-5: a compound's parts as units, each normalized,
// and the whole token's own term; wholeWord then keeps the parts.
func TestStepSplitAndWhole(t *testing.T) {
	a := New(DefaultOptions())
	for _, tc := range []struct {
		in, whole string
		parts     []string // emitted parts
	}{
		{"OOMKilled", "oomkil", []string{"oom", "kill"}},
		{"kube-apiserver", "kube-apiserver", []string{"kube", "apiserv"}},
		{"CrashLoopBackOff", "crashloopbackoff", []string{"crash", "loop", "back", "off"}},
		{"us-east-1", "us-east-1", []string{"east"}},
	} {
		tk, ti := firstWord(t, tc.in)
		var sc scratch
		s := tc.in[tk.start:tk.end]
		sp := a.splitParts(&sc, ti, s, 0)
		a.wholeWord(&sc, ti, s, sp, 0)
		var parts []string
		for _, u := range sc.units {
			if u.emit && !u.stop {
				parts = append(parts, u.text)
			}
		}
		if ti.text != tc.whole || !ti.compound || !slices.Equal(parts, tc.parts) {
			t.Errorf("%q: whole %q, compound %v, parts %q; want %q, true, %q", tc.in, ti.text, ti.compound, parts, tc.whole, tc.parts)
		}
	}
}

// Steps 7 and 8 as the emitted terms of their kind.
func TestStepSynonymsAndBigrams(t *testing.T) {
	all := allOn()
	for _, tc := range []struct {
		in   string
		kind Kind
		want []string
	}{
		{"k8s nodes out of memory", KindSynonym, []string{"kubernet", "oom"}},
		{"db returned 503", KindSynonym, []string{"databas"}},
		// A DNS response code is DNS: dig's output says SERVFAIL, never "DNS".
		{"status: SERVFAIL, then NXDOMAIN", KindSynonym, []string{"dns", "dns"}},
		// A key at a 32-bit integer's limit ran out of values; a write-up
		// says so in words. A 32-bit OS is no such limit.
		{"Duplicate entry '2147483647' for key 'PRIMARY'", KindSynonym, []string{"int32"}},
		{"ran out of 32-bit serial IDs; an overflow in ids (signed 32-bit ints)", KindSynonym, []string{"int32", "int32", "int32"}},
		{"id 2147483646 on a 32-bit OS", KindSynonym, nil},
		{"write /srv/meta: no space left on device", KindSynonym, []string{"enospc"}},
		{"when the filesystem filled, writes failed", KindSynonym, []string{"enospc"}},
		{"connection pool exhaustion. Redis overload", KindBigram, []string{"connect pool", "pool exhaust", "redis overload"}},
	} {
		var got []string
		for _, term := range New(all).Analyze(tc.in) {
			if term.Kind == tc.kind {
				got = append(got, term.Text)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v terms %q, want %q", tc.in, tc.kind, got, tc.want)
		}
	}
}
