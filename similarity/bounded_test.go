package similarity

import (
	"cmp"
	"slices"
	"testing"
)

// The bounded heap keeps exactly the k best items offered, in any order of
// offering, for both orders the engine uses.
func TestBoundedKeepsTheKBest(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scores []float32
		k      int
		want   []float32 // the k best, best first
	}{
		{"empty", nil, 3, nil},
		{"k zero", []float32{1, 2}, 0, nil},
		{"fewer than k", []float32{0.2, 0.9}, 5, []float32{0.9, 0.2}},
		{"exactly k", []float32{0.3, 0.1, 0.2}, 3, []float32{0.3, 0.2, 0.1}},
		{"ascending", []float32{1, 2, 3, 4, 5, 6, 7}, 3, []float32{7, 6, 5}},
		{"descending", []float32{7, 6, 5, 4, 3, 2, 1}, 3, []float32{7, 6, 5}},
		{"ties at the bar", []float32{0.5, 0.5, 0.5, 0.9, 0.5}, 2, []float32{0.9, 0.5}},
		{"k one", []float32{0.4, 0.8, 0.1, 0.8}, 1, []float32{0.8}},
		{"mixed", []float32{0.12, 0.97, 0.33, 0.5, 0.08, 0.71, 0.66, 0.2, 0.9}, 4, []float32{0.97, 0.9, 0.71, 0.66}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Partial scores, as kthLowerBound keeps them.
			f := bounded[float32, highest]{k: tc.k}
			for _, s := range tc.scores {
				f.push(s)
			}
			got := slices.Clone(f.h)
			slices.SortFunc(got, func(a, b float32) int { return cmp.Compare(b, a) })
			if !slices.Equal(got, tc.want) {
				t.Errorf("partial scores: kept %v, want %v", got, tc.want)
			}
			if f.full() != (len(tc.want) >= tc.k) {
				t.Errorf("partial scores: full() = %v with %d of %d kept", f.full(), len(f.h), tc.k)
			}
			if len(tc.want) > 0 && *f.worst() != tc.want[len(tc.want)-1] {
				t.Errorf("partial scores: worst %v, want %v", *f.worst(), tc.want[len(tc.want)-1])
			}

			// Hits, as a search keeps them: ties by case id, so the hits
			// kept are the first k of the sorted list whatever the order
			// they come in.
			var all []Hit
			for i, s := range tc.scores {
				all = append(all, Hit{Doc: i, ID: string(rune('z' - i)), Score: float64(s)})
			}
			want := slices.Clone(all)
			sortHits(want)
			want = want[:min(len(want), max(tc.k, 0))]
			for _, order := range [][]Hit{all, reversed(all)} {
				h := topHeap{k: tc.k}
				for _, x := range order {
					h.push(x)
				}
				got := slices.Clone(h.h)
				sortHits(got)
				if !slices.Equal(got, want) {
					t.Errorf("hits: kept %v, want %v", got, want)
				}
				if len(want) > 0 && *h.worst() != want[len(want)-1] {
					t.Errorf("hits: worst %v, want %v", *h.worst(), want[len(want)-1])
				}
			}
		})
	}
}

func reversed(h []Hit) []Hit {
	r := slices.Clone(h)
	slices.Reverse(r)
	return r
}
