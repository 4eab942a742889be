package par

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestForCoversOnce: every item is visited exactly once, in chunks no longer
// than asked, and a worker never runs two chunks at once.
func TestForCoversOnce(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	for _, tt := range []struct{ n, chunk int }{{0, 1}, {1, 1}, {7, 3}, {1000, 64}, {1000, 1}, {5, 0}} {
		seen := make([]atomic.Int32, tt.n)
		busy := make([]atomic.Int32, Workers(tt.n, tt.chunk))
		For(tt.n, tt.chunk, func(w, lo, hi int) {
			if busy[w].Add(1) != 1 {
				t.Errorf("n=%d chunk=%d: worker %d runs two chunks at once", tt.n, tt.chunk, w)
			}
			if hi <= lo || hi-lo > max(tt.chunk, 1) {
				t.Errorf("n=%d chunk=%d: chunk [%d, %d)", tt.n, tt.chunk, lo, hi)
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
			busy[w].Add(-1)
		})
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Errorf("n=%d chunk=%d: item %d visited %d times", tt.n, tt.chunk, i, c)
			}
		}
	}
}

func TestWorkers(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	for _, tt := range []struct{ n, chunk, want int }{{0, 64, 1}, {64, 64, 1}, {65, 64, 2}, {1000, 64, 4}, {3, 1, 3}} {
		if got := Workers(tt.n, tt.chunk); got != tt.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", tt.n, tt.chunk, got, tt.want)
		}
	}
}

func TestEach(t *testing.T) {
	out := make([]int, 100)
	Each(len(out), func(i int) { out[i] = i * i })
	for i, v := range out {
		if v != i*i {
			t.Fatalf("out[%d] = %d", i, v)
		}
	}
}
