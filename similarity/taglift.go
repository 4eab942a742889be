package similarity

import (
	"math"
	"slices"
	"strings"

	"github.com/caselink/caselink/similarity/par"
)

// The lift of a tag is how much more often two cases that share it are each
// other's nearest neighbours by text than two cases taken at random: a tag
// every case has (domain:hadoop) or one that splits the library in a few
// broad parts (a priority, a product) has a lift near 1 and tells nothing
// the text does not; a curated tag (symptom:oom-killed) marks cases whose
// texts are alike far more often than chance. It is measured on the
// library itself, without labels.
const (
	// liftPerTag is how many cases with a tag, spread evenly over those
	// that have it, have their text neighbours looked up; liftSample caps
	// the cases looked up in all, rarest tags first. A case's pairs tell
	// about every tag it has, so common tags are well covered by the
	// holders of the rare ones; and choosing a case for its tags does not
	// bias the lift, since its expected count is its own.
	liftPerTag = 8
	liftSample = 500
	// liftK is the number of text neighbours a sampled case has.
	liftK = 10
	// liftPrior is the weight, in expected co-neighbour pairs, with which a
	// tag's own lift is shrunk towards the lift of its kind: a tag seen in
	// a handful of sampled pairs borrows most of its kind's. (Stronger
	// priors, 10 to 100, cost the judged incidents' relate a lot: their
	// curated tags are far more telling than their kind's pooled lift.)
	liftPrior = 1.0
	// liftFull is the lift from which a tag counts fully: below it a tag
	// counts by (ln(lift)/ln(liftFull))², the square of its information in
	// the units of a tag that lifts co-neighbours 20-fold, so that partial
	// evidence is discounted more than in proportion. Curated tags lift
	// them 20 to 50 times and keep all their weight; a priority or a
	// product 1 to 5 times. (Chosen on GitBugs with coarse tags and
	// incidents-judged; see eval/notes/tag-lift.md.)
	liftFull = 20.0
	// liftFloor keeps a trace of weight on a tag that tells nothing, so its
	// postings stay visible to the accumulator (as a kind weighted 0 does).
	liftFloor = 1e-3
)

// tagLift returns, per canonical term, the factor in [liftFloor, 1] by
// which a tag counts in case-to-case scores (see liftFactors), 1 for words.
// views are the case-to-case view weights; the neighbours are found with
// the text views alone. It returns nil when the library has no text views
// to measure with or too few cases.
//
// It also returns the weight set it searched with, whose arrays the caller
// may reuse (nil with a nil lift).
func (ix *Index) tagLift(wt *weighting, views [NumViews]float64) ([]float32, *weights) {
	n := len(ix.docs)
	views[Tags] = 0
	if views = normalized(views); views == ([NumViews]float64{}) || n < 3 {
		return nil, nil
	}
	textW := ix.normalize(&tagView{raw: wt.raw, norms: wt.norms}, ix.cfg.Pivot, nil)
	ix.invert(textW)
	prof := newProfile(views, tagView{norms: wt.norms}, textW)
	prof.maxScaled(ix)
	sample := ix.liftCases()
	found := make([][]Hit, len(sample))
	par.For(len(sample), 16, func(_, lo, hi int) {
		sc := ix.getScorer()
		defer ix.putScorer(sc)
		var q []qterm
		for s := lo; s < hi; s++ {
			d := sample[s]
			q = ix.caseQuery(d, prof, q[:0])
			found[s] = ix.run(sc, &search{q: q, prof: prof, k: liftK, accept: func(x int) bool { return x != d }})
		}
	})
	hits, expect := ix.coNeighbours(sample, found)
	return ix.liftFactors(hits, expect), textW
}

// liftCases returns the cases whose text neighbours tagLift looks up, in
// library order: up to liftPerTag holders of each tag that two cases share,
// rarest tags first, at most liftSample in all.
func (ix *Index) liftCases() []int {
	taken := make([]bool, len(ix.docs))
	var sample []int
	for c := len(ix.craw) - 1; c >= 0 && len(sample) < liftSample; c-- { // rarest first
		k := ix.key(uint32(c), Tags)
		holders := ix.pdoc[ix.pstart[k]:ix.pstart[k+1]]
		if len(holders) < 2 {
			continue
		}
		step := max(1, len(holders)/liftPerTag)
		for i, got := 0, 0; i < len(holders) && got < liftPerTag && len(sample) < liftSample; i += step {
			if d := holders[i]; !taken[d] {
				taken[d] = true
				sample = append(sample, int(d))
			}
			got++
		}
	}
	slices.Sort(sample)
	return sample
}

// coNeighbours counts, per canonical tag, the sampled pairs (case, text
// neighbour) that share it, and how many would by chance: a sampled case
// with the tag and K neighbours expects K·(df − 1)/(N − 1) of them to have
// it too.
func (ix *Index) coNeighbours(sample []int, found [][]Hit) (hits, expect []float64) {
	n := len(ix.docs)
	hits = make([]float64, len(ix.craw))
	expect = make([]float64, len(ix.craw))
	var tags []qterm
	for s, d := range sample {
		if len(found[s]) == 0 {
			continue
		}
		tags = tags[:0]
		for j := ix.vstart[d]; j < ix.vstart[d+1]; j++ {
			if k := ix.vkey[j]; keyView(k) == Tags {
				tags = append(tags, qterm{key: k})
				t := keyTerm(k)
				expect[t] += float64(len(found[s])) * float64(ix.df[t]-1) / float64(n-1)
			}
		}
		for _, h := range found[s] {
			ix.shared(tags, h.Doc, func(i, _ int) { hits[keyTerm(tags[i].key)]++ })
		}
	}
	return hits, expect
}

// liftFactors turns co-neighbour counts into each tag's factor: its lift
// L = (hits + p·L_kind)/(expected + p), shrunk towards its kind's pooled lift
// L_kind with p = liftPrior, counts by min(1, ln L / ln liftFull)².
func (ix *Index) liftFactors(hits, expect []float64) []float32 {
	kind := make([]int, len(ix.craw)) // -1 for a word; for a tag 1 + its kind's index, 0 for no known kind
	var kh, ke [NumTagKinds + 1]float64
	for c, r := range ix.craw {
		kind[c] = -1
		if strings.HasPrefix(ix.voc.terms[r], tagPrefix) {
			kind[c] = ix.kindOf(uint32(c)) + 1
			kh[kind[c]] += hits[c]
			ke[kind[c]] += expect[c]
		}
	}
	// In a library of a handful of cases every case is every other's
	// neighbour and lift cannot be measured: the tags keep their weight
	// there, as shrinkText lets them decide.
	n := float64(len(ix.docs))
	trust := n / (n + ix.cfg.TextPrior)
	u := make([]float32, len(ix.craw))
	for c := range u {
		u[c] = 1
		if k := kind[c]; k >= 0 {
			lk := (kh[k] + liftPrior) / (ke[k] + liftPrior)
			l := (hits[c] + liftPrior*lk) / (expect[c] + liftPrior)
			f := min(1, max(0, math.Log(l)/math.Log(liftFull)))
			f *= f
			u[c] = float32(max(liftFloor, 1-(1-f)*trust))
		}
	}
	return u
}
