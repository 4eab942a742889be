package similarity

import (
	"cmp"
	"slices"
	"testing"
)

// The one bounded heap keeps exactly the k best hits offered, in any order
// of offering, and kthLowerBound, built on it, returns the k-th best
// partial score.
func TestTopHeapKeepsTheKBest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		scores []float32
		k      int
		kth    float32 // the k-th best score, 0 when fewer than k
	}{
		{"empty", nil, 3, 0},
		{"fewer than k", []float32{0.2, 0.9}, 5, 0},
		{"exactly k", []float32{0.3, 0.1, 0.2}, 3, 0.1},
		{"ascending", []float32{1, 2, 3, 4, 5, 6, 7}, 3, 5},
		{"descending", []float32{7, 6, 5, 4, 3, 2, 1}, 3, 5},
		{"ties at the bar", []float32{0.5, 0.5, 0.5, 0.9, 0.5}, 2, 0.5},
		{"k one", []float32{0.4, 0.8, 0.1, 0.8}, 1, 0.8},
		{"mixed", []float32{0.12, 0.97, 0.33, 0.5, 0.08, 0.71, 0.66, 0.2, 0.9}, 4, 0.66},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Hits, as a search keeps them: ties by case id, so the hits
			// kept are the first k of the sorted list whatever the order
			// they come in.
			var all []Hit
			for i, s := range tc.scores {
				all = append(all, Hit{Doc: i, ID: string(rune('z' - i)), Score: float64(s)})
			}
			want := slices.Clone(all)
			sortHits(want)
			want = want[:min(len(want), tc.k)]
			for _, order := range [][]Hit{all, reversed(all)} {
				h := topHeap{k: tc.k}
				for _, x := range order {
					h.push(x)
				}
				got := slices.Clone(h.h)
				sortHits(got)
				if !slices.Equal(got, want) {
					t.Errorf("kept %v, want %v", got, want)
				}
				if h.full() != (len(all) >= tc.k) {
					t.Errorf("full() = %v with %d of %d kept", h.full(), len(h.h), tc.k)
				}
				if len(want) > 0 && *h.worst() != want[len(want)-1] {
					t.Errorf("worst %v, want %v", *h.worst(), want[len(want)-1])
				}
			}

			// Partial scores in an accumulator, every case touched.
			sc := &scorer{acc: tc.scores}
			touched := make([]uint32, len(tc.scores))
			for i := range touched {
				touched[i] = uint32(i)
			}
			got := (&Index{}).kthLowerBound(sc, touched, &search{k: tc.k})
			if wantLB := float64(tc.kth) * (1 - 1e-6); got != wantLB {
				t.Errorf("kthLowerBound = %v, want %v", got, wantLB)
			}
			kept := slices.Clone(sc.kth)
			slices.SortFunc(kept, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
			for i, h := range kept {
				if sorted := slices.Sorted(slices.Values(tc.scores)); h.Score != float64(sorted[len(sorted)-1-i]) {
					t.Errorf("kthLowerBound kept %v, want the %d best of %v", kept, tc.k, tc.scores)
					break
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
