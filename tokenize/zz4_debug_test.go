package tokenize

import (
	"strings"
	"testing"
)

func BenchmarkZZTag(b *testing.B) {
	s := strings.Repeat("<b", 100000)
	a := New(allOn())
	for i := 0; i < b.N; i++ {
		a.Analyze(s)
	}
}
