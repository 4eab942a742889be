package similarity

import (
	"math"

	"github.com/caselink/caselink/similarity/par"
)

// Level bounds: how much of a case lies on the keys of common words.
//
// A case-to-case search reads the query's rare keys first and leaves the
// long postings of common words for last (orderTerms). Once it makes its
// cut, what the keys after it (the tail) can still add to a candidate's
// score is, by Cauchy–Schwarz, at most ‖u over the tail‖ times the norm of
// the candidate's part over the tail keys. normBound bounds that part by the
// case's whole norm less what the keys before the cut account for, and for
// a candidate that shares little with the query before the cut that is
// nearly the whole norm. But the tail holds only keys with long postings,
// and a case puts little of its weight on those (common words have a low
// idf). So each case keeps, for each of numLevels posting lengths L_j, the
// norm of its part over the keys with at least L_j postings: when the
// shortest posting list of the tail has at least L_j postings, the tail's
// keys are among those, and the candidate's part over them is at most that
// norm. The search takes the smaller of the two bounds; each is a bound, so
// no answer changes, and fewer candidates are left to finish.
//
// The norms are kept in caseBound beside the scale and norm a search reads
// anyway, one byte a level: q_j = ⌈255·norm_j/unorm⌉, read back as
// unorm·q_j/255, which is never below norm_j.

// numLevels is how many posting lengths a case keeps its norm for.
const numLevels = 8

// levelLen returns L_j, the least postings of a key on level j, in a library
// of n cases: n/4^(numLevels−1−j) (at least 1), so the levels run from
// n/16384 to n, by fourfold steps. Where a search cuts depends on how many
// cases share its query's words, and so grows with the library.
func levelLen(j, n int) int {
	return max(1, n>>(2*(numLevels-1-j)))
}

// keyLevels returns, for each key, how many levels it is on: key k with m
// postings is on the levels j with L_j ≤ m, which are the first ones.
func keyLevels(ix *Index, n int) []uint8 {
	kl := make([]uint8, len(ix.pstart)-1)
	for k := range kl {
		m := ix.pstart[k+1] - ix.pstart[k]
		j := 0
		for j < numLevels && levelLen(j, n) <= m {
			j++
		}
		kl[k] = uint8(j)
	}
	return kl
}

// levelNorms computes each case's level norms under the profile, quantized
// (q_j above), numLevels bytes a case; unorm must be set.
func (p *profile) levelNorms(ix *Index) []uint8 {
	n := len(p.scale)
	kl := keyLevels(ix, n)
	out := make([]uint8, n*numLevels)
	par.For(n, 1024, func(_, lo, hi int) {
		var on [numLevels + 1]float64 // on[m]: Σ of the squares on keys on exactly m levels
		for d := lo; d < hi; d++ {
			clear(on[:])
			for j := ix.vstart[d]; j < ix.vstart[d+1]; j++ {
				k := ix.vkey[j]
				x := float64(p.w.at(k, j))
				on[kl[k]] += p.views[keyView(k)] * x * x
			}
			u := float64(p.unorm[d])
			var n2 float64 // over the keys on level j and above
			for j := numLevels - 1; j >= 0; j-- {
				n2 += on[j+1]
				out[d*numLevels+j] = quantizeLevel(math.Sqrt(n2)*float64(p.scale[d]), u)
			}
		}
	})
	return out
}

// quantizeLevel returns q = ⌈255·norm/unorm⌉ (rounded up a little more, so
// that unorm·q/255 stays a bound through the float arithmetic), 255 at most.
func quantizeLevel(norm, unorm float64) uint8 {
	if unorm <= 0 || norm <= 0 {
		return 0
	}
	return uint8(min(255, math.Ceil(255*norm/unorm*(1+1e-6))))
}

// level returns the bound of case b's norm on level j (see quantizeLevel).
func (b caseBound) level(j int) float64 {
	return float64(b.unorm) * float64(b.lev[j]) / 255
}

// tailLevel returns the highest level whose keys hold all of order[i:],
// from tmin[i], the fewest postings of a key of order[i:]; −1 for none.
func tailLevel(tmin, n int) int {
	for j := numLevels - 1; j >= 0; j-- {
		if levelLen(j, n) <= tmin {
			return j
		}
	}
	return -1
}
