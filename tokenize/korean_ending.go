package tokenize

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Korean step 1: strip particles and endings (조사/어미).
//
// Korean glues grammar onto the word it belongs to: 노드가 (node + subject
// particle), 파드들의 (pod + plural + genitive), 배포했다 (deploy + did),
// 만료되면서 (expire + while becoming). stripEnding cuts such a tail off a
// run of Hangul, so that 노드가, 노드를 and 노드에서 all become 노드.
//
// It is a light stemmer, not a morphological analyzer: it knows a list of
// tails (endings below) and strips the longest one that fits, layer by
// layer (파드들에서 → 파드들 → 파드). Three rules keep it from cutting
// words:
//   - particles that only follow a final consonant (이, 은, 을, 과, 으로)
//     are stripped only after a syllable with a final consonant, those that
//     only follow a vowel (가, 는, 를, 와, 로) only after one without
//     (로 also after ㄹ), as Korean spelling requires: 게이트웨이 keeps its
//     이;
//   - a word the glossary knows is never cut (권한 keeps its 한), and a tail
//     that leaves a glossary word is preferred;
//   - a stem left by a one-syllable tail must be two syllables or more
//     unless it is a glossary word or the tail is a case particle whose
//     spelling rule held (이 가 은 는 을 를 로: 팀은 and 수를 lose it, 안에
//     and 결과 stay whole), and a noun suffix (중, 후, 시, …) is only
//     stripped from a glossary word (배포중 → 배포).

// endingKind says when a tail may be stripped.
type endingKind uint8

const (
	endAny       endingKind = iota // after any syllable
	endConsonant                   // only after a syllable with a final consonant
	endVowel                       // only after a syllable without one (로: or with ㄹ)
	endKnown                       // only when the stem left is a glossary word
)

// endingTable lists the tails by kind. Verb endings of the noun + 하다 /
// 되다 / 시키다 / 이다 pattern are generated from verbHeads × verbTails.
var endingTable = map[endingKind]string{
	endAny: `의 에 에서 에게 에게서 께 한테 한테서 도 만 까지 부터 마다 처럼 보다 에선 에서는 에는 에도 에서도
		에서의 에의 으로의 로의 밖에 조차 뿐 요 들 에서만 에만 만큼 이랑은 랑은 까지는 부터는 에서부터
		때문에 때문 으로부터 로부터 이나 든 이든 든지 이든지 라도 이라도 하고 같은 같이 인데 입니다 씩 엔 짜리 만에`,
	endConsonant: `이 은 을 과 으로 이랑 으로는 으로도 으로서 으로써 이라 이라고 이라서 이며 이고 이야 이면 이었다
		이었음 이었고 이었는데 이지만 이에요 이다 이었던`,
	endVowel: `가 는 를 와 로 랑 로는 로도 로서 로써 라고 라서 였다 였음 였고 였는데 지만 예요 였던`,
	endKnown: `나 라 다 야 면 중 중에 중인 중인데 중임 중이고 중이라 후 후에 후로 전 전에 시 시에 간 별 당 용 쪽 상 측 임 인 이`,
}

// verbHeads and verbTails generate the endings of verbs made from a noun:
// 배포 + 했다, 재시작 + 됐음, 롤백 + 시킴, 원인 + 임.
var (
	verbHeads = strings.Fields(`하 했 한 할 함 해 합 되 됐 된 될 됨 돼 됩 되었 시키 시켰 시킨 시킬 시킴 시켜 당하 당했 당함 당한`)
	verbTails = strings.Fields(`_ 다 음 고 는 는데 면 면서 며 서 도 야 지 게 기 던 어 어서 어도 요 니다 습니다 니 자 려 려고
		려던 지만 으나 나 는중 던 었다 었음 었고 었는데 었던 어요 어야 을 을때 라 세요 줘 주세요 버림 버렸다 버렸음
		봤는데 보니 놓고 졌다 짐 져서 지고 지는 더니 었더니 더라 더라고 길래 는데도 도록 려면 다가 자마자 고서`)
)

// koEndings maps a tail's length in syllables to the tails of that length,
// longest first in koEndingLens.
var koEndings, koEndingLens = func() (map[int]map[string]endingKind, []int) {
	m := map[int]map[string]endingKind{}
	add := func(t string, k endingKind) {
		n := utf8.RuneCountInString(t)
		if m[n] == nil {
			m[n] = map[string]endingKind{}
		}
		if old, ok := m[n][t]; ok && old <= k {
			return // keep the most permissive kind
		}
		m[n][t] = k
	}
	for k, list := range endingTable {
		for _, t := range strings.Fields(list) {
			add(t, k)
		}
	}
	for _, h := range verbHeads {
		for _, t := range verbTails {
			if t == "_" {
				add(h, endAny)
				continue
			}
			add(h+t, endAny)
		}
	}
	var lens []int
	for n := range m {
		lens = append(lens, n)
	}
	slices.Sort(lens)
	slices.Reverse(lens) // longest first
	return m, lens
}()

// koCaseParticles are the particles stripped even from a one-syllable stem.
var koCaseParticles = map[string]bool{"이": true, "가": true, "은": true, "는": true, "을": true, "를": true, "로": true}

// hangulFinal returns the final consonant index (받침) of a precomposed
// Hangul syllable: 0 for none, 8 for ㄹ; -1 when r is not a syllable.
func hangulFinal(r rune) int {
	if r < 0xAC00 || r > 0xD7A3 {
		return -1
	}
	return int(r-0xAC00) % 28
}

// isHangulSyllable reports whether r is a precomposed Hangul syllable.
func isHangulSyllable(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }

// stripEnding returns s without its particles and endings, or "" when s is
// nothing but a particle or ending (로 of "OOMKilled로"). known reports
// whether a stem is a glossary word. Up to three layers are stripped
// (파드들에서도 → 파드).
func stripEnding(s string, known func(string) bool) string {
	if known(s) {
		return s
	}
	if isBareEnding(s) {
		return ""
	}
	for layer := 0; layer < 3; layer++ {
		t := stripOne(s, known)
		if t == s {
			break
		}
		s = t
		if known(s) {
			break
		}
	}
	return s
}

// isBareEnding reports whether s is a tail standing alone: a particle
// written after a Latin word (OOMKilled로, kube-apiserver가) or a verb
// ending after one (deploy했는데).
func isBareEnding(s string) bool {
	n := utf8.RuneCountInString(s)
	_, ok := koEndings[n][s]
	return ok
}

// stripOne strips one tail from s: the longest tail that leaves a glossary
// word, else the longest tail allowed for an unknown stem. It returns s
// itself when no tail fits.
func stripOne(s string, known func(string) bool) string {
	runes := utf8.RuneCountInString(s)
	best := ""
	for _, n := range koEndingLens {
		if n >= runes {
			continue
		}
		cut := len(s)
		for k := 0; k < n; k++ {
			_, w := utf8.DecodeLastRuneInString(s[:cut])
			cut -= w
		}
		kind, ok := koEndings[n][s[cut:]]
		if !ok {
			continue
		}
		stem := s[:cut]
		last, _ := utf8.DecodeLastRuneInString(stem)
		fin := hangulFinal(last)
		switch kind {
		case endConsonant:
			ok = fin > 0
		case endVowel:
			ok = fin == 0 || (fin == 8 && strings.HasPrefix(s[cut:], "로"))
		}
		if !ok {
			continue
		}
		if known(stem) {
			return stem
		}
		if best == "" && kind != endKnown && (n >= 2 || runes-n >= 2 || koCaseParticles[s[cut:]]) {
			best = stem
		}
	}
	if best != "" {
		return best
	}
	return s
}
