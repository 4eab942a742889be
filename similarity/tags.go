package similarity

import (
	"cmp"
	"slices"
	"strings"

	"github.com/caselink/caselink/tokenize"
)

// tagRule infers one tag from pasted text: the tag is inferred when every
// one of its words (analyzed like text) occurs in the paste.
type tagRule struct {
	canon uint32   // canonical id of the tag
	words []string // analyzed words of the tag's value; words[0] is the key
}

// buildTagRules derives inference rules from the tags in use: the value of
// "symptom:oom-killed" gives the words "oom" and "kill". A rule asks for
// words only, never for a phrase (the analyzer's Bigrams): "OOMKilled" in a
// paste gives oom and kill but not the phrase "oom kill", and a rule that
// asked for it would infer nothing whenever bigrams are on.
func (ix *Index) buildTagRules() {
	ix.tagRules = make(map[string][]tagRule)
	for c, r := range ix.craw {
		term := ix.voc.terms[r]
		if !strings.HasPrefix(term, tagPrefix) {
			continue
		}
		tag := term[len(tagPrefix):]
		value := tag[strings.IndexByte(tag, ':')+1:]
		var words []string
		for _, t := range ix.an.Analyze(strings.ReplaceAll(value, "-", " ")) {
			if t.Kind != tokenize.KindBigram && !slices.Contains(words, t.Text) {
				words = append(words, t.Text)
			}
		}
		if len(words) == 0 {
			continue
		}
		rule := tagRule{canon: uint32(c), words: words}
		ix.tagRules[words[0]] = append(ix.tagRules[words[0]], rule)
	}
}

// inferTags returns the rules whose words all occur among the analyzed
// terms of a paste (the keys of present), by ascending tag id.
func (ix *Index) inferTags(present map[string]float64) []tagRule {
	var out []tagRule
	for w := range present {
		for _, r := range ix.tagRules[w] {
			ok := true
			for _, x := range r.words[1:] {
				if _, in := present[x]; !in {
					ok = false
					break
				}
			}
			if ok {
				out = append(out, r)
			}
		}
	}
	slices.SortFunc(out, func(a, b tagRule) int { return cmp.Compare(a.canon, b.canon) })
	return slices.CompactFunc(out, func(a, b tagRule) bool { return a.canon == b.canon })
}
