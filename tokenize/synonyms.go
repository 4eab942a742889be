package tokenize

import (
	_ "embed"
	"fmt"
	"strings"
)

// synonymsFile is the reviewed incident synonym table. Its format is
// documented at the top of the file: one equivalence group per line,
// comma-separated members, the first member being the canonical term.
//
//go:embed synonyms.txt
var synonymsFile string

// builtinSynonyms is synonymsFile parsed once.
var builtinSynonyms = func() [][]string {
	g, err := parseSynonyms(synonymsFile)
	if err != nil {
		panic("tokenize: synonyms.txt: " + err.Error())
	}
	return g
}()

// SynonymGroups returns a copy of the built-in synonym groups as written in
// synonyms.txt: one slice per group, canonical member first (the name
// Options.SynonymsOff takes).
func SynonymGroups() [][]string {
	out := make([][]string, len(builtinSynonyms))
	for i, g := range builtinSynonyms {
		out[i] = append([]string(nil), g...)
	}
	return out
}

// parseSynonyms parses the synonym table format.
func parseSynonyms(src string) ([][]string, error) {
	var groups [][]string
	for n, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		var g []string
		for _, m := range strings.Split(line, ",") {
			m = strings.Join(strings.Fields(m), " ")
			if m == "" {
				return nil, fmt.Errorf("line %d: empty member", n+1)
			}
			g = append(g, m)
		}
		if len(g) < 2 {
			return nil, fmt.Errorf("line %d: a group needs at least two members", n+1)
		}
		groups = append(groups, g)
	}
	return groups, nil
}

// synTable is the synonym table normalized for one Analyzer's options.
// It is read-only after New.
type synTable struct {
	single  map[string][]string    // one-unit member → canonical terms
	phrases map[string][]synPhrase // first unit of a multi-unit member → phrases
}

// synPhrase is a multi-unit member: the units after the first, and the
// canonical term to emit when all of them follow.
type synPhrase struct {
	rest  []string
	canon string
}

// add records that the member with units us emits canon.
func (t *synTable) add(us []string, canon string) {
	if len(us) > 1 {
		t.phrases[us[0]] = append(t.phrases[us[0]], synPhrase{rest: us[1:], canon: canon})
		return
	}
	if us[0] == canon || contains(t.single[us[0]], canon) {
		return
	}
	t.single[us[0]] = append(t.single[us[0]], canon)
}

// buildSynonyms normalizes groups with a's options. A member is cut into
// units exactly as input text is (see Analyzer.units), so members and text
// meet after lower-casing, compound splitting and stemming.
func (a *Analyzer) buildSynonyms(groups [][]string) *synTable {
	t := &synTable{single: map[string][]string{}, phrases: map[string][]synPhrase{}}
	sc := &scratch{}
	for _, g := range groups {
		cu := a.memberUnits(sc, g[0])
		if cu == nil {
			continue
		}
		canon := strings.Join(cu, " ")
		for _, m := range g {
			if us := a.memberUnits(sc, m); us != nil {
				t.add(us, canon)
			}
			if strings.Contains(m, " ") { // "out of memory" also as "out-of-memory"
				if h, _ := a.normalize(strings.ReplaceAll(m, " ", "-")); h != "" {
					t.add([]string{strings.Clone(h)}, canon)
				}
			}
		}
	}
	return t
}

// memberUnits returns the normalized units of a synonym member, or nil when
// it has a unit that can never match (a class or an over-long word).
func (a *Analyzer) memberUnits(sc *scratch, m string) []string {
	a.prepare(sc, m)
	if len(sc.units) == 0 {
		return nil
	}
	out := make([]string, 0, len(sc.units))
	for _, u := range sc.units {
		if u.text == "" || u.class {
			return nil
		}
		out = append(out, strings.Clone(u.text))
	}
	return out
}

// matchSynonyms emits the canonical terms of every member of table t that
// starts at unit k, as terms of the given kind: a one-unit member equal to
// the unit, or a phrase whose units follow without a clause break in
// between.
func matchSynonyms(t *synTable, kind Kind, dst []Term, base int, sc *scratch, text string, k, pos int) []Term {
	u := &sc.units[k]
	if u.text == "" || u.class {
		return dst
	}
	ti := &sc.infos[u.tok]
	for _, c := range t.single[u.text] {
		dst = emit(dst, base, c, text[ti.start:ti.end], pos, kind)
	}
	for _, p := range t.phrases[u.text] {
		if m, ok := p.endAt(sc, k); ok {
			end := sc.infos[sc.units[m].tok].end
			dst = emit(dst, base, p.canon, text[ti.start:end], pos, kind)
		}
	}
	return dst
}

// endAt reports whether phrase p, whose first unit is unit k, occurs there:
// its other units follow without a clause break in between. m is the index
// of its last unit.
func (p *synPhrase) endAt(sc *scratch, k int) (m int, ok bool) {
	m = k
	for _, w := range p.rest {
		m++
		if m >= len(sc.units) {
			return 0, false
		}
		next := &sc.units[m]
		if next.text != w || (next.tok != sc.units[m-1].tok && sc.infos[next.tok].brk) {
			return 0, false
		}
	}
	return m, true
}
