package similarity

import (
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
// less than the word written right. The first letter must be right, as with
// Elasticsearch's prefix_length 1. Numbers, ids and class terms (anything
// but plain letters) are never corrected, nor a word the library has.

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
// only) in byte order, for the nearest-word search: walking them in order
// and keeping the edit-distance rows of the shared prefix is a walk of the
// trie of the words, and a prefix already too far from the paste's word
// skips every word that starts with it.
type lexicon struct {
	words []string
	canon []uint32 // canonical id of each word
	lcp   []int32  // length of the prefix each word shares with the one before
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
	lx.lcp = make([]int32, len(idx))
	for i, c := range idx {
		w := ix.voc.terms[ix.craw[c]]
		lx.words[i], lx.canon[i] = w, uint32(c)
		if i > 0 {
			lx.lcp[i] = int32(commonPrefix(lx.words[i-1], w))
		}
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

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// nearest returns the canonical id of the library word with q's first
// letter within maxEdits edits of q (optimal string alignment distance: insertions, deletions,
// substitutions and transpositions of neighbours count one each) and its
// distance: the fewest edits first, then the word more cases use (df), then
// the word first in byte order. ok is false when no word is near enough.
func (lx *lexicon) nearest(q string, maxEdits int, df []int32) (canon uint32, dist int, ok bool) {
	m := len(q)
	maxDepth := m + maxEdits
	rows := make([][]int, maxDepth+1)
	for d := range rows {
		rows[d] = make([]int, m+1)
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	best := -1
	bestDist := maxEdits + 1
	// Only words with the same first letter: people seldom get the first
	// letter wrong (Elasticsearch's prefix_length 1), and it spares the
	// walk nineteen twentieths of the vocabulary.
	lo, _ := slices.BinarySearch(lx.words, q[:1])
	hi, _ := slices.BinarySearch(lx.words, string(q[0]+1))
	for i := lo; i < hi; {
		w := lx.words[i]
		start := int(lx.lcp[i])
		if i == lo {
			start = 0
		}
		if start > maxDepth {
			start = maxDepth
		}
		pruned := -1
		for d := start + 1; d <= len(w); d++ {
			if d > maxDepth {
				pruned = d - 1
				break
			}
			c := w[d-1]
			prev, cur := rows[d-1], rows[d]
			cur[0] = d
			rowMin := d
			for j := 1; j <= m; j++ {
				cost := 1
				if q[j-1] == c {
					cost = 0
				}
				v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
				if d > 1 && j > 1 && q[j-1] == w[d-2] && q[j-2] == c {
					v = min(v, rows[d-2][j-2]+1)
				}
				cur[j] = v
				rowMin = min(rowMin, v)
			}
			// A transposition reaches back two rows, so a prefix is hopeless
			// only when this row and the one before are both too far.
			if rowMin > maxEdits && (d < 2 || minOf(rows[d-1]) >= maxEdits) {
				pruned = d
				break
			}
		}
		if pruned < 0 {
			if dd := rows[len(w)][m]; dd <= maxEdits && dd < bestDist+1 {
				if best < 0 || dd < bestDist || (dd == bestDist && df[lx.canon[i]] > df[lx.canon[best]]) {
					best, bestDist = i, dd
				}
			}
			i++
			continue
		}
		// Skip every word sharing the hopeless prefix of length pruned.
		i++
		for i < hi && int(lx.lcp[i]) >= pruned {
			i++
		}
	}
	if best < 0 || bestDist == 0 {
		return 0, 0, false
	}
	return lx.canon[best], bestDist, true
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
