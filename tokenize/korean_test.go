package tokenize

import (
	"slices"
	"strings"
	"testing"
)

// testLex is a small lexicon for the Korean step tests, independent of the
// built-in glossary.
var testLex = newKoLexicon([]GlossaryEntry{
	{English: "pod", Korean: []string{"파드"}},
	{English: "node", Korean: []string{"노드"}},
	{English: "deploy", Korean: []string{"배포"}},
	{English: "permission", Korean: []string{"권한"}},
	{English: "gateway", Korean: []string{"게이트웨이"}},
	{English: "out of memory", Korean: []string{"메모리 부족"}},
	{English: "certificate expire", Korean: []string{"인증서 만료"}},
	{English: "key", Korean: []string{"키"}},
	{English: "down", Korean: []string{"죽~", "뻗~"}},
	{English: "latency", Korean: []string{"지연"}},
})

func TestStripEnding(t *testing.T) {
	tests := []struct{ in, want string }{
		{"노드가", "노드"},         // subject particle after a vowel
		{"파드의", "파드"},         // genitive
		{"파드들", "파드"},         // plural
		{"파드들에서", "파드"},       // plural + locative, two layers
		{"노드에서도", "노드"},       // three-syllable tail
		{"배포했다", "배포"},        // noun + 하다, past
		{"배포했는데", "배포"},       // … and a connective
		{"배포중", "배포"},         // noun suffix after a glossary word
		{"만료되면서", "만료"},       // an unknown stem of two syllables
		{"재시작됐음", "재시작"},      // noun + 되다
		{"인증서를", "인증서"},       // object particle after a vowel
		{"클러스터에서", "클러스터"},    // locative, any syllable
		{"권한", "권한"},          // a glossary word keeps its 한
		{"게이트웨이", "게이트웨이"},    // 이 after a vowel is not the particle 이
		{"게이트웨이가", "게이트웨이"},   // … and 가 is
		{"팀이", "팀"},           // a case particle leaves a one-syllable stem
		{"안에", "안에"},          // … other tails do not
		{"서비스는", "서비스"},       // topic particle after a vowel
		{"결과", "결과"},          // 과 after one syllable: not stripped
		{"로", ""},             // a bare particle (after a Latin word)
		{"가", ""},             //
		{"했는데", ""},           // a bare verb ending ("deploy했는데")
		{"프로메테우스", "프로메테우스"},  // nothing to strip
		{"데이터베이스로", "데이터베이스"}, // instrumental after a vowel
		{"메모리부족으로", "메모리부족"},  // 으로 after a final consonant
		{"디스크를", "디스크"},       //
	}
	for _, tt := range tests {
		if got := stripEnding(tt.in, testLex.known); got != tt.want {
			t.Errorf("stripEnding(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitKorean(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"메모리부족", []string{"메모리", "부족"}}, // two glossary words
		{"인증서만료", []string{"인증서", "만료"}}, //
		{"파드장애", []string{"파드", "장애"}},   // a glossary word and an unknown word of two syllables
		{"배포중", []string{"배포"}},          // a dropped noun suffix
		{"죽었음", []string{"죽"}},           // a verb stem swallows its conjugation
		{"뻗음", []string{"뻗"}},            //
		{"파드", nil},                      // a glossary word is not a compound
		{"키바나", nil},                     // a one-syllable word is never cut out
		{"노드가", nil},                     // an unknown one-syllable rest: no split
		{"레이턴시", nil},                    // nothing known
		{"지연속도", []string{"지연", "속도"}},   //
		{"무죽", nil},                      // a one-syllable verb stem only at the start
	}
	for _, tt := range tests {
		if got := testLex.splitKorean(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitKorean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestKoreanStop(t *testing.T) {
	for _, w := range strings.Fields("좀 지금 계속 그냥 근데 진짜 같음 있음") {
		if !isKoreanStop(w) {
			t.Errorf("%q is not a stop word", w)
		}
	}
	// words that matter stay out, and so does every glossary word
	for _, w := range strings.Fields("안 못 없음 증가 감소") {
		if isKoreanStop(w) {
			t.Errorf("%q is a stop word", w)
		}
	}
	for _, e := range builtinGlossary {
		for _, m := range e.Korean {
			for _, w := range strings.Fields(strings.TrimSuffix(m, "~")) {
				if isKoreanStop(w) {
					t.Errorf("glossary word %q (%s) is a stop word", w, e.English)
				}
			}
		}
	}
}

func TestParseGlossary(t *testing.T) {
	g, err := parseGlossary("# head\n\n# pods\npod = 파드, 포드\nout of memory = 메모리 부족\n\n# verbs\ndown = 죽~\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []GlossaryEntry{
		{English: "pod", Korean: []string{"파드", "포드"}, Section: "pods"},
		{English: "out of memory", Korean: []string{"메모리 부족"}, Section: "pods"},
		{English: "down", Korean: []string{"죽~"}, Section: "verbs"},
	}
	if len(g) != len(want) {
		t.Fatalf("got %d entries, want %d: %+v", len(g), len(want), g)
	}
	for i := range g {
		if g[i].English != want[i].English || g[i].Section != want[i].Section || !slices.Equal(g[i].Korean, want[i].Korean) {
			t.Errorf("entry %d = %+v, want %+v", i, g[i], want[i])
		}
	}
	for _, bad := range []string{"pod 파드", "= 파드", "pod = 파드,", "pod = pod", "down = 죽 었~"} {
		if _, err := parseGlossary(bad); err == nil {
			t.Errorf("parseGlossary(%q): no error", bad)
		} else if !strings.HasPrefix(err.Error(), "line 1: ") {
			t.Errorf("parseGlossary(%q): %v, want the line number", bad, err)
		}
	}
}

// TestGlossaryMapsToEnglish checks that Korean members analyze to the terms
// of their English, in the forms Korean text writes them.
func TestGlossaryMapsToEnglish(t *testing.T) {
	a := New(DefaultOptions())
	tests := []struct{ ko, en string }{
		{"파드들이", "pods"},
		{"노드가", "node"},
		{"쿠버네티스", "kubernetes"},
		{"배포했는데", "deployed"},
		{"롤백함", "rollback"},
		{"인증서가", "certificate"},
		{"만료되면서", "expired"},
		{"재시작됐다", "restarted"},
		{"지연", "latency"},
		{"메모리 부족", "out of memory"},
		{"메모리부족으로", "out of memory"},
		{"메모리가 부족", "out of memory"},
		{"디비", "database"},
		{"로드밸런서에서", "load balancer"},
	}
	for _, tt := range tests {
		ko := texts(a.Analyze(tt.ko))
		for _, w := range texts(a.Analyze(tt.en)) {
			if !slices.Contains(ko, w) {
				t.Errorf("Analyze(%q) = %q: lacks %q of %q", tt.ko, ko, w, tt.en)
			}
		}
	}
}

// TestGlossaryReplaces checks that a Korean word or phrase the glossary
// maps gives way to its English terms, and that an unknown word stays.
func TestGlossaryReplaces(t *testing.T) {
	a := New(DefaultOptions())
	tests := []struct {
		in   string
		want []string
	}{
		{"디스크 꽉 참", []string{"disk", "full"}},                    // a phrase of two words
		{"메모리부족으로 뻗음", []string{"out", "oom", "memori", "down"}}, // a glossary word as a compound
		{"쓰기/읽기 실패", []string{"쓰기/읽기", "write", "read", "fail"}}, // Korean parts of a joined token
		{"파드 롤아웃 꼬임", []string{"pod", "rollout", "꼬임"}},          // an unknown word stays
	}
	for _, tt := range tests {
		if got := texts(a.Analyze(tt.in)); !slices.Equal(got, tt.want) {
			t.Errorf("Analyze(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestGlossaryWellFormed checks the built-in glossary: every entry's
// English gives terms, and every member analyzes to them.
func TestGlossaryWellFormed(t *testing.T) {
	a := New(DefaultOptions())
	plain := New(func() Options { o := DefaultOptions(); o.Glossary = false; return o }())
	if len(builtinGlossary) < 300 {
		t.Fatalf("only %d glossary entries", len(builtinGlossary))
	}
	for _, e := range builtinGlossary {
		en := texts(plain.Analyze(e.English))
		if len(en) == 0 && e.English != "us" {
			t.Errorf("%q: the English gives no term", e.English)
			continue
		}
		for _, m := range e.Korean {
			got := texts(a.Analyze(strings.TrimSuffix(m, "~")))
			for _, w := range en {
				if !slices.Contains(got, w) {
					t.Errorf("%s = %s: Analyze gives %q, lacking %q", e.English, m, got, w)
				}
			}
		}
	}
}
