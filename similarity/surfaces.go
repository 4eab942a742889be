package similarity

import (
	"math"
	"strings"

	"github.com/caselink/caselink/tokenize"
)

// surfaces.go keeps a rebuild that reuses an older index's analysis
// (Index.Reindex, Builder.Reuse) spelling every term as a fresh build does:
// as written in the first case, in library order, that has it. Explanations
// and typo corrections show that spelling, and a rebuild must not change
// what a command prints. The reused cases' analysis keeps no spelling, so
// the old vocabulary's spelling is kept where the first case is still the
// old first case, unchanged; the freshly analyzed cases give theirs; and
// the few first cases left, reused but not the old first, are tokenized
// again for their spelling alone.

// reuseVocabulary returns a copy of prev that a rebuild's fresh analysis
// can intern into, with the first case of every term unset, so that
// interning records the first fresh case to have it (by the new library's
// positions) and its spelling; fixSurfaces completes it.
func reuseVocabulary(prev *vocabulary) *vocabulary {
	voc := prev.copy()
	for i := range voc.firstDoc {
		voc.firstDoc[i] = math.MaxInt
	}
	return voc
}

// fixSurfaces sets the spelling and first case of every term of ix.voc,
// made by reuseVocabulary from prev and then by interning the fresh cases,
// to those of a fresh build; ix is weighed (firstCases reads its
// postings). moved gives the new position of prev's case at position p
// when that case was reused (its analysis taken unchanged), else −1; read
// gives the document of the case at a new position, for the few reused
// cases that must be tokenized again.
func (ix *Index) fixSurfaces(prev *vocabulary, moved func(p int) int, read func(i int) (*Document, error)) error {
	voc := ix.voc
	first := ix.firstCases()
	need := map[int][]uint32{} // reused case → terms it is the first to have
	for r, f := range first {
		switch {
		case f < 0: // no case has it any more: what prev said, if anything
			if voc.firstDoc[r] == math.MaxInt {
				voc.firstDoc[r] = 0
				if r < len(prev.firstDoc) {
					voc.firstDoc[r] = prev.firstDoc[r]
				}
			}
		case voc.firstDoc[r] == int(f): // a fresh case, interned so
		case r < len(prev.terms) && moved(prev.firstDoc[r]) == int(f):
			voc.surface[r], voc.firstDoc[r] = prev.surface[r], int(f)
		default:
			need[int(f)] = append(need[int(f)], uint32(r))
		}
	}
	for i, terms := range need {
		d, err := read(i)
		if err != nil {
			return err
		}
		spell := spellings(ix.an, d)
		for _, r := range terms {
			voc.surface[r], voc.firstDoc[r] = spell[voc.terms[r]], i
		}
	}
	return nil
}

// movedFrom returns fixSurfaces' moved for a rebuild whose cases are at
// byID, reused[i] telling whether case i's analysis was prev's (whose
// case ids by position are prevIDs).
func movedFrom(prevIDs []string, byID map[string]int, reused []bool) func(p int) int {
	return func(p int) int {
		if p < 0 || p >= len(prevIDs) {
			return -1
		}
		if i, ok := byID[prevIDs[p]]; ok && reused[i] {
			return i
		}
		return -1
	}
}

// firstCases returns, for each raw term id of ix's vocabulary, the first
// case that has it, −1 for none: its first posting in any view (postings
// are by case, and every analyzed entry is a posting).
func (ix *Index) firstCases() []int32 {
	out := make([]int32, len(ix.voc.terms))
	for r := range out {
		out[r] = -1
		if r >= len(ix.canon) || ix.canon[r] == 0 {
			continue
		}
		first := int32(math.MaxInt32)
		for v := range NumViews {
			k := int(ix.canon[r]-1)*NumViews + v
			if ix.pstart[k] < ix.pstart[k+1] {
				first = min(first, int32(ix.pdoc[ix.pstart[k]]))
			}
		}
		if first != math.MaxInt32 {
			out[r] = first
		}
	}
	return out
}

// spellings returns how d writes each of its terms, at its first
// occurrence, as the analysis records it (localVocab.analyze).
func spellings(an *tokenize.Analyzer, d *Document) map[string]string {
	spell := map[string]string{}
	var terms []tokenize.Term
	for v := range textViews {
		for _, text := range d.Text[v] {
			terms = an.AppendTerms(terms[:0], text)
			for _, t := range terms {
				if _, ok := spell[t.Text]; !ok {
					spell[t.Text] = strings.Clone(t.Surface)
				}
			}
		}
	}
	for _, tag := range d.Tags {
		if _, ok := spell[tagPrefix+tag]; !ok {
			spell[tagPrefix+tag] = tag
		}
	}
	return spell
}
