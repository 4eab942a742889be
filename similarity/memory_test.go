package similarity

import (
	"math"
	"testing"
)

// The second stage of match keeps no weights of its own: it reads rw's text
// weights and mw's tag weights. They must be, bit for bit, the weights its
// own normalization gives (what earlier versions stored), for every case
// entry and every posting, so that no score moves.
func TestSharedWeightsAreExact(t *testing.T) {
	for name, cfg := range map[string]Config{
		"default": DefaultConfig(),
		"no lift": func() Config { c := DefaultConfig(); c.TagLift = false; return c }(),
	} {
		t.Run(name, func(t *testing.T) {
			ix, err := BuildCases(synthLibrary(500, 3), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if ix.exp == ix.rel || ix.exp.w.text != ix.rw || ix.exp.w.tags != ix.mw {
				t.Fatal("the second stage's weights are not shared")
			}
			want := ownExpansion(ix)
			for i := range ix.Len() {
				for j := ix.vstart[i]; j < ix.vstart[i+1]; j++ {
					if k := ix.vkey[j]; math.Float32bits(ix.exp.w.at(k, j)) != math.Float32bits(want.vval[j]) {
						t.Fatalf("case %d entry %d (view %d): %v, want %v", i, j, keyView(k), ix.exp.w.at(k, j), want.vval[j])
					}
				}
				if ix.exp.w.vnorm[i] != want.vnorm[i] {
					t.Fatalf("case %d norm %v, want %v", i, ix.exp.w.vnorm[i], want.vnorm[i])
				}
			}
			for k := range len(ix.pstart) - 1 {
				vals := ix.exp.w.postings(uint32(k))
				for p := ix.pstart[k]; p < ix.pstart[k+1]; p++ {
					if want := want.vval[entryOf(ix, ix.pdoc[p], uint32(k))]; vals[p] != want {
						t.Fatalf("key %d posting %d: %v, want %v", k, p, vals[p], want)
					}
				}
			}
		})
	}
}

// ownExpansion computes the second stage's weights as a set of their own:
// the tags weighed by Config.ExpandTagKinds (and the lift), normalized.
func ownExpansion(ix *Index) *weights {
	wt := ix.caseVectors() // the same layout again: deterministic
	var lift []float32
	if ix.cfg.TagLift {
		lift, _ = ix.tagLift(&wt, ix.shrinkText(ix.cfg.Views))
	}
	exp := ix.tagged(&wt, ix.cfg.ExpandTagKinds, lift)
	return ix.normalize(&exp, ix.cfg.Pivot, nil)
}

// entryOf returns the position in vkey of case doc's entry for key k.
func entryOf(ix *Index, doc, k uint32) int {
	for j := ix.vstart[doc]; j < ix.vstart[doc+1]; j++ {
		if ix.vkey[j] == k {
			return j
		}
	}
	panic("no such entry")
}
