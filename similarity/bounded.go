package similarity

// ranking orders what a bounded heap keeps: better(a, b) reports whether a
// ranks before b. Implementations are empty structs, so that the order is
// part of the heap's type and costs no field or indirect call per compare.
type ranking[T any] interface {
	better(a, b *T) bool
}

// bounded keeps the k best items offered so far by the order R; its root is
// the worst of them. It is the one bounded heap of the engine: the top k hits
// of a search (topHeap) and the k-th best partial score (kthLowerBound).
type bounded[T any, R ranking[T]] struct {
	k int
	h []T
}

// worst returns the worst item kept; the heap must not be empty.
func (t *bounded[T, R]) worst() *T { return &t.h[0] }

// full reports whether the heap holds k items.
func (t *bounded[T, R]) full() bool { return len(t.h) >= t.k }

// push offers an item; it is kept when it ranks among the k best. An item
// that only ties the worst kept is not: the first offered stays.
func (t *bounded[T, R]) push(x T) {
	if t.k <= 0 {
		return
	}
	var r R
	if len(t.h) < t.k {
		t.h = append(t.h, x)
		t.up(r, len(t.h)-1)
		return
	}
	if !r.better(&x, &t.h[0]) {
		return
	}
	t.h[0] = x
	t.down(r, 0)
}

func (t *bounded[T, R]) up(r R, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !r.better(&t.h[p], &t.h[i]) {
			break
		}
		t.h[p], t.h[i] = t.h[i], t.h[p]
		i = p
	}
}

func (t *bounded[T, R]) down(r R, i int) {
	n := len(t.h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		w := l
		if c := l + 1; c < n && r.better(&t.h[l], &t.h[c]) {
			w = c
		}
		if !r.better(&t.h[i], &t.h[w]) {
			return
		}
		t.h[i], t.h[w] = t.h[w], t.h[i]
		i = w
	}
}

// byHit ranks hits by better: higher score first, ties by case id.
type byHit struct{}

func (byHit) better(a, b *Hit) bool { return better(a, b) }

// topHeap keeps the k best hits seen so far; its root is the worst of them.
type topHeap = bounded[Hit, byHit]

// highest ranks partial scores higher first (ties are equal).
type highest struct{}

func (highest) better(a, b *float32) bool { return *a > *b }
