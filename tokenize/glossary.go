package tokenize

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

// Korean step 4: the Korean↔English incident glossary.
//
// glossaryFile maps Korean incident words (파드, 인증서 만료, 죽~) to the
// English they stand for (pod, certificate expire, down). A Korean member
// emits the terms its English analyzes to, so a Korean paste meets English
// cases, and a case's en and ko text share one vocabulary. Its format is
// documented at the top of the file.
//
//go:embed glossary-ko.txt
var glossaryFile string

// GlossaryEntry is one line of the Korean glossary: the English it stands
// for, its Korean members as written (a trailing ~ marks a verb stem) and
// the section of the file it is in.
type GlossaryEntry struct {
	English string
	Korean  []string
	Section string // the comment line that heads its block, without "# "
}

// builtinGlossary is glossaryFile parsed once.
var builtinGlossary = func() []GlossaryEntry {
	g, err := parseGlossary(glossaryFile)
	if err != nil {
		panic("tokenize: glossary-ko.txt: " + err.Error())
	}
	return g
}()

// koLex is the lexicon of the built-in glossary's Korean words.
var koLex = newKoLexicon(builtinGlossary)

// Glossary returns a copy of the built-in Korean glossary, in file order.
func Glossary() []GlossaryEntry {
	out := make([]GlossaryEntry, len(builtinGlossary))
	for i, e := range builtinGlossary {
		out[i] = e
		out[i].Korean = append([]string(nil), e.Korean...)
	}
	return out
}

// GlossarySections returns the glossary's section names in file order, the
// names Options.GlossarySectionsOff takes.
func GlossarySections() []string {
	var out []string
	for _, e := range builtinGlossary {
		if !contains(out, e.Section) {
			out = append(out, e.Section)
		}
	}
	return out
}

// parseGlossary parses the glossary format: "english = 한국어, 한국어~, …".
func parseGlossary(src string) ([]GlossaryEntry, error) {
	var out []GlossaryEntry
	comment, section := "", ""
	for n, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			comment = ""
			continue
		case line[0] == '#':
			comment = strings.TrimSpace(strings.TrimLeft(line, "#"))
			continue
		case comment != "":
			section, comment = comment, ""
		}
		en, ko, ok := strings.Cut(line, "=")
		en = strings.Join(strings.Fields(en), " ")
		if !ok || en == "" {
			return nil, fmt.Errorf("line %d: want \"english = 한국어, …\"", n+1)
		}
		e := GlossaryEntry{English: en, Section: section}
		for _, m := range strings.Split(ko, ",") {
			m = strings.Join(strings.Fields(m), " ")
			if m == "" {
				return nil, fmt.Errorf("line %d: empty member", n+1)
			}
			for _, r := range strings.TrimSuffix(m, "~") {
				if r != ' ' && !isHangulSyllable(r) {
					return nil, fmt.Errorf("line %d: member %q: only Hangul syllables, spaces and a final ~", n+1, m)
				}
			}
			if strings.HasSuffix(m, "~") && strings.Contains(m, " ") {
				return nil, fmt.Errorf("line %d: member %q: a verb stem (~) is one word", n+1, m)
			}
			e.Korean = append(e.Korean, m)
		}
		out = append(out, e)
	}
	return out, nil
}

// newKoLexicon collects the Korean words and verb stems of a glossary.
func newKoLexicon(g []GlossaryEntry) *koLexicon {
	l := &koLexicon{words: map[string]bool{}, prefixes: map[string]bool{}}
	for _, e := range g {
		for _, m := range e.Korean {
			if p, ok := strings.CutSuffix(m, "~"); ok {
				l.prefixes[p] = true
				continue
			}
			for _, w := range strings.Fields(m) {
				l.words[w] = true
			}
		}
	}
	return l
}

// buildGlossary normalizes the glossary for a's options: each entry's
// English is analyzed by a (synonyms included) and every term it gives
// becomes a canonical of the entry's Korean members, which are cut into
// units exactly as Korean text is.
// Sections named in Options.GlossarySectionsOff are left out.
func (a *Analyzer) buildGlossary(g []GlossaryEntry) *synTable {
	t := &synTable{single: map[string][]string{}, phrases: map[string][]synPhrase{}}
	sc := &scratch{}
	off := names(a.opts.GlossarySectionsOff)
	for _, e := range g {
		if slices.Contains(off, e.Section) {
			continue
		}
		var canons []string
		for _, term := range a.Analyze(e.English) {
			if term.Kind != KindBigram && !contains(canons, term.Text) {
				canons = append(canons, term.Text)
			}
		}
		for _, m := range e.Korean {
			us := a.memberUnits(sc, strings.TrimSuffix(m, "~"))
			if us == nil {
				continue
			}
			for _, c := range canons {
				t.add(us, c)
			}
		}
	}
	return t
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
