package similarity

import (
	"slices"
	"strings"
	"testing"
)

// inferred returns the tags a paste infers, by name, sorted.
func inferred(ix *Index, text string) []string {
	var out []string
	for _, c := range ix.analyzePaste(text).tags {
		out = append(out, strings.TrimPrefix(ix.voc.terms[ix.craw[c]], tagPrefix))
	}
	slices.Sort(out)
	return out
}

// TestTagInferenceWithBigrams checks that a paste infers the same tags
// whether or not the analyzer emits bigrams: a tag's rule asks for its
// words, not for the phrase they make.
func TestTagInferenceWithBigrams(t *testing.T) {
	plain := seedIndex(t, DefaultConfig())
	cfg := DefaultConfig()
	cfg.Analyzer.Bigrams = true
	bigrams := seedIndex(t, cfg)
	for _, tc := range []struct {
		paste string
		want  string // a tag the paste must infer
	}{
		{"loki distributor pods OOMKilled during a rollout", "symptom:oom-killed"},
		{"pods oom killed again", "symptom:oom-killed"},
		{"a retry storm took the database down", "contributing:retry-storm"},
		{"kube-apiserver unresponsive, etcd overloaded", "component:kube-apiserver"},
		{"requests misrouted after the DNS change", "symptom:requests-misrouted"},
	} {
		got := inferred(bigrams, tc.paste)
		if want := inferred(plain, tc.paste); !slices.Equal(got, want) {
			t.Errorf("%q: with bigrams infers %v, without %v", tc.paste, got, want)
		}
		if !slices.Contains(got, tc.want) {
			t.Errorf("%q: infers %v, want %s among them", tc.paste, got, tc.want)
		}
	}
}
