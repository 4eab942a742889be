package tokenize

import (
	"strings"
	"unicode/utf8"
)

// Korean: the steps a run of Hangul goes through when Options.Korean is on.
//
//  1. strip particles and endings (korean_ending.go): 노드가 → 노드,
//     배포했는데 → 배포; a bare particle after a Latin word (OOMKilled로,
//     kube-apiserver가 — the segmenter cuts at the change of script) is
//     nothing but an ending and is dropped;
//  2. split compounds by the glossary's words (korean_split.go):
//     메모리부족 → 메모리, 부족; 죽었음 → 죽;
//  3. drop Korean stop words (korean_stop.go);
//  4. glossary (glossary.go), in the synonym pass: 파드 → pod.
//
// Each distinct spelling goes through steps 1–3 once per Analyzer and is
// cached like English words are.

// startsHangul reports whether s starts with a Hangul syllable.
func startsHangul(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isHangulSyllable(r)
}

// koNormalize runs steps 1–3 on the Hangul word s: the stem (text, "" for
// a bare ending), its compound parts (two or more, or nil) and whether it
// is a stop word.
func (a *Analyzer) koNormalize(s string) normEntry {
	cached := len(s) <= cacheMaxLen
	if cached {
		if e, ok := a.cache.get(s); ok {
			return e
		}
		s = strings.Clone(s) // the cache must not alias the input
	}
	e := normEntry{text: stripEnding(s, koLex.known)}
	switch parts := koLex.splitKorean(e.text); {
	case e.text == "":
	case len(parts) == 1:
		e.text = parts[0]
	case len(parts) > 1:
		e.parts = parts
	}
	e.stop = e.text == "" || isKoreanStop(e.text)
	if cached {
		a.cache.put(s, e)
	}
	return e
}

// analyzeKorean fills ti and the units of the Hangul word s (token idx).
func (a *Analyzer) analyzeKorean(sc *scratch, ti *tokInfo, s string, idx int) {
	e := a.koNormalize(s)
	ti.korean = true
	ti.stop = e.stop
	if len(s) <= a.opts.MaxTokenBytes {
		ti.text = e.text
	}
	if len(e.parts) > 1 && a.opts.SplitCompounds {
		ti.compound = true
		for _, p := range e.parts {
			sc.units = append(sc.units, unit{text: p, tok: idx, stop: isKoreanStop(p), emit: true})
		}
	} else {
		sc.units = append(sc.units, unit{text: ti.text, tok: idx, stop: ti.stop})
	}
	ti.bigram = ti.text != "" && !ti.stop
}
