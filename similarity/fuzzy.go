package similarity

import (
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/caselink/caselink/tokenize"
)

// Typo tolerance: a word of a paste that the library never uses is read as
// the library's word nearest to it in edits, when one is near enough, so
// that "primry" and "conection" at 3 a.m. still find the case about the
// primary and its connections. Like Lucene's FuzzyQuery with fuzziness
// AUTO, the number of edits allowed grows with the word (one, two for long
// words), a transposition counts as one edit, and a corrected word weighs
// less than the word written right. The first letter must be right (or
// swapped with the second), as with Elasticsearch's prefix_length 1. Numbers, ids and class terms (anything
// but plain letters) are never corrected, nor a word the library has, nor
// (with Config.TypoWords, off by default) a common English word.

// typoWeight is how much a corrected word weighs against the same word
// written right, for one and for two edits.
var typoWeight = [3]float64{1, 0.8, 0.6}

// typoMinLen and typoLongLen are the lengths of an analyzed term (in
// letters) from which it is corrected at all (one edit) and from which two
// edits are allowed.
const (
	typoMinLen  = 4
	typoLongLen = 8
	typoMaxLen  = 40 // longer words are left as they are
)

// typoEdits returns how many edits a paste term of n letters may be from the
// library's word it is read as.
func typoEdits(n int) int {
	switch {
	case n < typoMinLen || n > typoMaxLen:
		return 0
	case n < typoLongLen:
		return 1
	}
	return 2
}

// lexicon is the library's plain words (analyzed text terms of letters a–z
// only) in byte order, with the set of letters of each. A word more than k
// edits from the paste's word lacks more than k of its letters or has more
// than k it lacks (an edit adds or removes at most one letter of the set),
// so comparing two 26-bit sets rules out nearly every word before any edit
// distance is computed; the first letter and the length narrow the rest.
type lexicon struct {
	words []string
	canon []uint32 // canonical id of each word
	mask  []uint32 // the letters of each word, bit c-'a'
	size  []uint8  // the length of each word (kept apart: the filters read only mask and size)
}

// fuzzyState is built the first time a paste needs a correction, so an
// index that is never asked pays nothing for it.
type fuzzyState struct {
	once sync.Once
	lx   *lexicon
}

// lexicon returns the index's lexicon, building it on first use.
func (ix *Index) lexicon() *lexicon {
	ix.fuzzy.once.Do(func() { ix.fuzzy.lx = ix.buildLexicon() })
	return ix.fuzzy.lx
}

func (ix *Index) buildLexicon() *lexicon {
	lx := &lexicon{}
	idx := make([]int, 0, len(ix.craw))
	for c, r := range ix.craw {
		if plainWord(ix.voc.terms[r]) {
			idx = append(idx, c)
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(ix.voc.terms[ix.craw[a]], ix.voc.terms[ix.craw[b]]) })
	lx.words = make([]string, len(idx))
	lx.canon = make([]uint32, len(idx))
	lx.mask = make([]uint32, len(idx))
	lx.size = make([]uint8, len(idx))
	for i, c := range idx {
		w := ix.voc.terms[ix.craw[c]]
		lx.words[i], lx.canon[i], lx.mask[i], lx.size[i] = w, uint32(c), letterSet(w), uint8(len(w))
	}
	return lx
}

// plainWord reports whether an analyzed term is a word that may be
// corrected or corrected to: letters a–z only, of a length typoEdits
// allows (no digits, no ids with joiners, no class terms, no tags, no
// bigrams).
func plainWord(t string) bool {
	if len(t) < typoMinLen-1 || len(t) > typoMaxLen+2 {
		return false
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// letterSet returns the set of letters of a plain word, bit c-'a' for c.
func letterSet(w string) uint32 {
	var m uint32
	for i := 0; i < len(w); i++ {
		m |= 1 << (w[i] - 'a')
	}
	return m
}

// nearest returns the canonical id of the library word with q's first
// letter (or its first two swapped) within maxEdits edits of q (optimal string alignment distance:
// insertions, deletions, substitutions and transpositions of neighbours
// count one each) and its distance: the fewest edits first, then the word
// more cases use (df), then the word first in byte order. ok is false when
// no word is near enough.
func (lx *lexicon) nearest(q string, maxEdits int, df []int32) (canon uint32, dist int, ok bool) {
	// Only words with the same first letter, or with the first two letters
	// swapped: people seldom get the first letter wrong otherwise
	// (Elasticsearch's prefix_length 1), and it spares the search nineteen
	// twentieths of the vocabulary.
	qm := letterSet(q)
	var dp osaScratch
	best, bestDist := -1, maxEdits+1
	shortest, longest := len(q)-maxEdits, len(q)+maxEdits
	search := func(first, second byte) {
		lo, _ := slices.BinarySearch(lx.words, string(first))
		hi, _ := slices.BinarySearch(lx.words, string(first+1))
		for i := lo; i < hi; i++ {
			if n := int(lx.size[i]); n < shortest || n > longest {
				continue
			}
			if m := lx.mask[i]; bits.OnesCount32(m&^qm) > maxEdits || bits.OnesCount32(qm&^m) > maxEdits {
				continue
			}
			w := lx.words[i]
			if second != 0 && (len(w) < 2 || w[1] != second) {
				continue
			}
			d := dp.distance(q, w, min(maxEdits, bestDist))
			if d < bestDist || (d == bestDist && best >= 0 && moreUsed(df[lx.canon[i]], i, df[lx.canon[best]], best)) {
				best, bestDist = i, d
			}
		}
	}
	search(q[0], 0)
	if len(q) > 1 && q[1] != q[0] {
		search(q[1], q[0])
	}
	if best < 0 || bestDist == 0 {
		return 0, 0, false
	}
	return lx.canon[best], bestDist, true
}

// moreUsed reports whether a word used by dfA cases at position a beats one
// used by dfB cases at position b at the same distance.
func moreUsed(dfA int32, a int, dfB int32, b int) bool {
	return dfA > dfB || (dfA == dfB && a < b)
}

// osaScratch holds the three rows of an edit distance computation.
type osaScratch struct{ rows [3][]int }

// distance returns the optimal string alignment distance of a and b, or
// limit+1 as soon as it is sure to exceed limit.
func (s *osaScratch) distance(a, b string, limit int) int {
	n := len(a) + 1
	for k := range s.rows {
		if cap(s.rows[k]) < n {
			s.rows[k] = make([]int, n)
		}
		s.rows[k] = s.rows[k][:n]
	}
	prev2, prev, cur := s.rows[0], s.rows[1], s.rows[2]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(b); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j < n; j++ {
			cost := 1
			if a[j-1] == b[i-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[j-1] == b[i-2] && a[j-2] == b[i-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		// A transposition reaches back two rows, so the distance is sure to
		// exceed limit only when this row and the one before both do.
		if rowMin > limit && minOf(prev) > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if d := prev[n-1]; d <= limit {
		return d
	}
	return limit + 1
}

func minOf(r []int) int {
	m := r[0]
	for _, v := range r[1:] {
		m = min(m, v)
	}
	return m
}

// typoFix is how a paste word the library does not have was read.
type typoFix struct {
	canon uint32 // the library word it is read as
	edits int
}

// fixTypos rewrites, in place, the Text of each term of a paste that the
// library does not have and that is within typoEdits of a library word, to
// that word, and returns the corrections by the word's canonical id. Only
// whole words and parts of compounds are corrected; the same misspelling is
// looked up once.
func (ix *Index) fixTypos(terms []tokenize.Term) map[uint32]typoFix {
	if !ix.cfg.Typos {
		return nil
	}
	var fixes map[uint32]typoFix
	var seen map[string]int // misspelling → index into fixed, -1 when not corrected
	type fixed struct {
		term string
		fix  typoFix
	}
	var done []fixed
	var rewritten []bool
	for i := range terms {
		t := &terms[i]
		if t.Kind != tokenize.KindWord && t.Kind != tokenize.KindPart {
			continue
		}
		n := typoEdits(len(t.Text))
		if n == 0 || !plainWord(t.Text) || ix.canonOf(t.Text) != 0 {
			continue
		}
		if ix.cfg.TypoWords && tokenize.EnglishWord(t.Text) {
			continue // a real word the library does not use: no typo
		}
		if seen == nil {
			seen = map[string]int{}
		}
		at, ok := seen[t.Text]
		if !ok {
			at = -1
			if c, d, found := ix.lexicon().nearest(t.Text, n, ix.df); found {
				done = append(done, fixed{ix.voc.terms[ix.craw[c]], typoFix{c, d}})
				at = len(done) - 1
			}
			seen[t.Text] = at
		}
		if at < 0 {
			continue
		}
		if fixes == nil {
			fixes = map[uint32]typoFix{}
		}
		f := done[at]
		if old, ok := fixes[f.fix.canon]; !ok || f.fix.edits < old.edits {
			fixes[f.fix.canon] = f.fix
		}
		t.Text = f.term
		if rewritten == nil {
			rewritten = make([]bool, len(terms))
		}
		rewritten[i] = true
	}
	// A word the paste also has written right is no correction.
	for i, t := range terms {
		if len(fixes) == 0 {
			break
		}
		if !rewritten[i] {
			if c := ix.canonOf(t.Text); c != 0 {
				delete(fixes, c-1)
			}
		}
	}
	return fixes
}
