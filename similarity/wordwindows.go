package similarity

import (
	"cmp"
	"math"
	"slices"

	"github.com/caselink/caselink/similarity/par"
)

// Word bounds: a paste's word is a term in each text view (analyzePaste
// spreads every word over them), and a case that has the word has it in one
// view or two, seldom at its largest in all three. The block maxima bound
// each view's postings apart, so in a window the three terms of a word were
// bounded by three maxima summed, often of three different cases. The word
// bounds keep, for each word and each window of wordWindow cases where some
// case has it, the most the word can give one case there over all its text
// views together (each view's weight times a paste's view weight, summed):
// one cell per word and window, where one posting list per word would have
// been a second copy of the postings. runBlocks then splits a paste's terms
// into essential and non-essential ones a word at a time.

// wordWindow is the width of the windows of the word bounds, the block-max
// traversal's default window: a search whose window differs
// (searchOptions.windowSize) does without them.
const wordWindow = defaultWindow

// wordBounds holds, for each word (canonical term) t, the windows where a
// case has it in a text view, win[start[t]:start[t+1]] ascending (window w
// is the cases [w·wordWindow, (w+1)·wordWindow)), and in max the largest,
// over the cases of that window, of Σ_v pasteViews[v]·(the case's paste
// weight of t in view v), rounded up to a float32.
type wordBounds struct {
	start []uint32
	win   []uint32
	max   []float32
}

// buildWordBounds computes ix.wb from the paste weights' postings, on all
// cores, a chunk of words at a time; the cells of each chunk are then
// joined in order, so the result does not depend on who built what.
func (ix *Index) buildWordBounds() {
	// Small chunks: a few common words hold most of the postings, and a
	// chunk of thousands of words that held them kept one core busy alone
	// (eval/notes/long-pastes.md, "Word bounds").
	const chunk = 64
	nwords := (len(ix.pstart) - 1) / NumViews
	type part struct {
		win []uint32
		max []float32
	}
	parts := make([]part, (nwords+chunk-1)/chunk)
	start := make([]uint32, nwords+1)
	par.For(nwords, chunk, func(_, lo, hi int) {
		var pt part
		for t := lo; t < hi; t++ {
			pt.win, pt.max = ix.wordCells(t, pt.win, pt.max)
			start[t+1] = uint32(len(pt.win)) // relative to the chunk, for now
		}
		parts[lo/chunk] = pt
	})
	var total int
	for i, pt := range parts {
		for t := i * chunk; t < min(nwords, (i+1)*chunk); t++ {
			start[t+1] += uint32(total)
		}
		total += len(pt.win)
	}
	wb := wordBounds{start: start, win: make([]uint32, 0, total), max: make([]float32, 0, total)}
	for _, pt := range parts {
		wb.win = append(wb.win, pt.win...)
		wb.max = append(wb.max, pt.max...)
	}
	ix.wb = wb
}

// wordCells appends word t's cells to win and max: its text views'
// postings are merged by case, each case's weights summed with the views'
// paste weights, and the largest sum of each window kept.
func (ix *Index) wordCells(t int, win []uint32, mx []float32) ([]uint32, []float32) {
	pval := ix.mw.pval
	var pos, end [textViews]int
	for v := range textViews {
		k := t*NumViews + v
		pos[v], end[v] = ix.pstart[k], ix.pstart[k+1]
		if ix.pasteViews[v] <= 0 {
			pos[v] = end[v]
		}
	}
	cur, m := uint32(math.MaxUint32), float32(0)
	for {
		d := uint32(math.MaxUint32)
		for v := range textViews {
			if pos[v] < end[v] {
				d = min(d, ix.pdoc[pos[v]])
			}
		}
		if d == math.MaxUint32 {
			break
		}
		var s float64
		for v := range textViews {
			if pos[v] < end[v] && ix.pdoc[pos[v]] == d {
				s += ix.pasteViews[v] * float64(pval[pos[v]])
				pos[v]++
			}
		}
		if w := d / wordWindow; w != cur {
			if cur != math.MaxUint32 {
				win, mx = append(win, cur), append(mx, m)
			}
			cur, m = w, 0
		}
		m = max(m, roundUp32(s))
	}
	if cur != math.MaxUint32 {
		win, mx = append(win, cur), append(mx, m)
	}
	return win, mx
}

// roundUp32 returns the smallest float32 not below x.
func roundUp32(x float64) float32 {
	f := float32(x)
	if float64(f) < x {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// validWordBounds reports whether wb fits an index of nwords words: the
// starts ascend from 0 to the number of cells, so that a search reads no
// cell outside them.
func validWordBounds(wb *wordBounds, nwords int) bool {
	if len(wb.start) != nwords+1 || wb.start[0] != 0 || len(wb.win) != len(wb.max) ||
		int(wb.start[nwords]) != len(wb.win) {
		return false
	}
	for t := range nwords {
		if wb.start[t] > wb.start[t+1] {
			return false
		}
	}
	return true
}

// wordGroup is one word of a paste search, the cursors curs[first:first+n]
// of its text views, or a term of no word (a tag, or a term of a view
// pastes do not weigh) alone: word −1, n 1. wt is the word's weight in the
// paste, the largest of its cursors' weights over their views' paste
// weights (rounded up), so that wt times a word bound bounds what the
// cursors add to a case; pos and end are its cells in the word bounds.
type wordGroup struct {
	first, n int
	word     int
	wt       float64
	pos, end uint32
}

// groupWords orders curs a word at a time, the words in ascending order of
// their bound per posting (their cursors' global bounds summed, over their
// postings in the search's range; ties by word, then key), and returns the
// groups in that order, in groups' storage. Any order gives the same
// answer; this one puts first, where the non-essential terms are, the
// words that cost most to read for what they can add (see costOrder).
func (p *pass) groupWords(curs []cursor, groups []wordGroup) []wordGroup {
	ix := p.ix
	id := func(c *cursor) int64 { // a word, or a term of no word after all words
		if v := keyView(c.key); v < textViews && ix.pasteViews[v] > 0 && c.w > 0 {
			return int64(keyTerm(c.key))
		}
		return 1<<32 + int64(c.key)
	}
	// Words together first, to sum their bounds; c.ub holds the sum per
	// posting until the window loop sets it.
	slices.SortFunc(curs, func(a, b cursor) int {
		return cmp.Or(cmp.Compare(id(&a), id(&b)), cmp.Compare(a.key, b.key))
	})
	for i := 0; i < len(curs); {
		j, sum := i, 0.0
		cost := 0
		for ; j < len(curs) && id(&curs[j]) == id(&curs[i]); j++ {
			sum += curs[j].wd * float64(p.wt.pmax[curs[j].key])
			cost += curs[j].end - curs[j].pos
		}
		sum /= float64(max(cost, 1))
		for k := i; k < j; k++ {
			curs[k].ub = sum
		}
		i = j
	}
	slices.SortStableFunc(curs, func(a, b cursor) int {
		return cmp.Or(cmp.Compare(a.ub, b.ub), cmp.Compare(id(&a), id(&b)))
	})
	for i := range curs {
		c := &curs[i]
		wid := id(c)
		if n := len(groups); wid < 1<<32 && n > 0 && groups[n-1].word == int(wid) {
			g := &groups[n-1]
			g.n++
			g.wt = max(g.wt, c.wd/ix.pasteViews[keyView(c.key)]*(1+1e-6))
			continue
		}
		g := wordGroup{first: i, n: 1, word: -1}
		if wid < 1<<32 {
			g.word = int(wid)
			g.wt = c.wd / ix.pasteViews[keyView(c.key)] * (1 + 1e-6)
			g.pos, g.end = ix.wb.start[g.word], ix.wb.start[g.word+1]
		}
		groups = append(groups, g)
	}
	return groups
}

// cut returns the first of the cursors that are essential in the window
// that starts at lo (len(curs) when none is), a word at a time: a word's bound there
// is the smaller of its cursors' window bounds summed and its word bound.
// It sets cum to the same bounds: cum[i] bounds what curs[:i+1] add, a
// word counting its cursors' window bounds summed up to its word bound.
func (w *blockWindow) cut(lo uint32) int {
	wb := &w.p.ix.wb
	win := lo / wordWindow
	ne := len(w.curs)
	var sum float64
	for i := range w.groups {
		g := &w.groups[i]
		tb := math.Inf(1)
		if g.word >= 0 {
			for g.pos < g.end && wb.win[g.pos] < win {
				g.pos++
			}
			tb = 0
			if g.pos < g.end && wb.win[g.pos] == win {
				tb = g.wt * float64(wb.max[g.pos])
			}
		}
		var b float64
		for j := g.first; j < g.first+g.n; j++ {
			b += w.curs[j].ub
			w.cum[j] = sum + min(b, tb)
		}
		if sum += min(b, tb); ne == len(w.curs) && sum >= w.theta-slack {
			ne = g.first
		}
	}
	return ne
}
