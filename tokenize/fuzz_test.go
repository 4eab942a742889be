package tokenize

import "testing"

// FuzzAnalyze checks that no input panics and that every output satisfies
// the invariants (see checkInvariants): non-empty valid UTF-8 texts and
// surfaces, surfaces taken from the input, ordered positions, no duplicate
// text per position, at most MaxTermsPerByte terms per input byte.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"pods OOMKilled after out-of-memory killed",
		"CrashLoopBackOff on kube-apiserver; X-Forwarded-For, resourceVersion=0 in us-east-1.",
		"HTTP 429 and 5xx, p99, x509: certificate expired, pgbouncer at 10.0.0.12, 20-second timeout",
		"didn't PostHog's we’re 1,000,000 2001:db8::1 550e8400-e29b-41d4-a716-446655440000",
		"https://example.com/a_(b)?x=1 <b>x</b>&amp; 노드가 日本語 🔥👩‍💻🇰🇷 e\u0301",
		"2021-12-09T10:15:00Z 14:52-17:02 09:21am 500 errors 502s 5XXs",
		"a-b-c-d-e-f aB-cD-eF AbCdEfGhIj db db db lb lb out of memory rate limited",
		"\xff\xfe a\x00b \u2028 ab\u0301c \u200d",
	} {
		f.Add(s)
	}
	analyzers := []*Analyzer{New(DefaultOptions()), New(allOn()), New(Options{}), New(Options{SplitCompounds: true, Synonyms: true, Bigrams: true, MaxTokenBytes: 3})}
	f.Fuzz(func(t *testing.T, in string) {
		for _, a := range analyzers {
			checkInvariants(t, in, a.Analyze(in))
		}
	})
}
