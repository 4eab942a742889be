package caselib

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestSpecial checks the word-at-a-time test against the byte table.
func TestSpecial(t *testing.T) {
	check := func(w [8]byte) {
		want := false
		for _, c := range w {
			want = want || !plain[c]
		}
		if got := special(binary.LittleEndian.Uint64(w[:])); got != want {
			t.Fatalf("special(%q) = %v", w, got)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for c := range 256 {
		for pos := range 8 {
			var w [8]byte
			for i := range w {
				w[i] = byte(r.IntN(256)) | 0x80 // all plain
			}
			w[pos] = byte(c)
			check(w)
			for i := range w { // plain ASCII around it
				if i != pos {
					w[i] = 'a'
				}
			}
			check(w)
		}
	}
	for range 100000 {
		var w [8]byte
		for i := range w {
			w[i] = byte(r.IntN(256))
		}
		check(w)
	}
}
