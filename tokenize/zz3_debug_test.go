package tokenize

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestZZPatho(t *testing.T) {
	pats := []string{"a-", "aB", "db ", "👩‍", "1.", "a'", "https://x(", "<b", "&a", "out of ", "ab-", "Ab", "a1", "0:", "x", " ", "日", "가", "a\u0301", "10.0.0.1 ", "-", "::", "a::", "ab_", "AbC-", "lb-", "crash loop "}
	a := New(allOn())
	for _, p := range pats {
		s := strings.Repeat(p, 200000/len(p))
		t0 := time.Now()
		ts := a.Analyze(s)
		d := time.Since(t0)
		fmt.Printf("%-12q %8v terms=%d ratio=%.3f\n", p, d, len(ts), float64(len(ts))/float64(len(s)))
	}
}
