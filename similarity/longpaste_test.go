package similarity

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// longPaste returns the titles and summaries of n cases picked at random, as
// one text: a paste of a hundred keys and more, full of common words, like
// a real on-call paste (the words of synthLibrary follow Zipf's law).
func longPaste(ix *Index, r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		c := ix.Case(r.IntN(ix.Len()))
		b.WriteString(c.Title.EN + "\n" + c.Summary.EN + "\n")
	}
	return b.String()
}

// longKeys is how many keys make a paste long: real on-call pastes have up to
// 160 (a word is a key in each text view).
const longKeys = 128

// A long paste leaves many terms essential in every window and most cases
// touched; the block-max traversal then adds the non-essential terms to
// them a term at a time (sweep) before seeking the rest case by case. Ids
// and scores must be a brute-force scan's, whether it sweeps every term it
// can, never, or as the engine chooses, with a filter and a score floor,
// over windows small and large, whole and split.
func TestBlockMaxLongPastes(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(synthLibrary(2000, 21), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(21, 21))
	long := 0
	for i := range 90 {
		p := ix.analyzePaste(longPaste(ix, r, 1+i%5))
		if len(p.q) > longKeys {
			long++
		}
		k := []int{1, 10, 17}[i%3]
		minScore := []float64{0, 0, 0, 0.02}[i%4]
		accept := []func(int) bool{nil, func(d int) bool { return d%3 != 0 }}[i/3%2]
		want := brutePaste(ix, p, k, minScore, accept)
		for _, cost := range []int{-1, 1, 0, 1 << 30} {
			for _, ws := range []int{64, 1024} {
				ix.opts = searchOptions{windowSize: ws, sweepCost: cost, parallelMin: []int{20000, 100}[i%2],
					blocks: func(s *search) bool { return s.prof == nil }}
				got := ix.search(&search{q: p.q, k: k, minScore: minScore, accept: accept})
				if scored(got) != scored(want) {
					t.Fatalf("paste %d (%d keys), sweep cost %d, window %d, k=%d: block-max %v, brute force %v",
						i, len(p.q), cost, ws, k, scored(got), scored(want))
				}
			}
		}
	}
	if long < 20 {
		t.Fatalf("only %d pastes of more than %d keys", long, longKeys)
	}
}

// pasteTexts reads the "text" of every line of a JSON Lines file of pastes
// (a judged set's queries.jsonl).
func pasteTexts(t testing.TB, path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var q struct{ Text string }
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		texts = append(texts, q.Text)
	}
	return texts
}
