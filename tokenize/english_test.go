package tokenize

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"
)

var updateEnglish = flag.Bool("update-english", false, "rewrite english-stems.txt.gz from /usr/share/dict/words")

// TestEnglishStemsFile checks the embedded word list is sorted and unique,
// and with -update-english rebuilds it from Debian's wamerican word list
// (apt-get install wamerican: /usr/share/dict/words): its words of lower-case
// letters a–z only (no proper nouns, no possessives), each stemmed as the
// analyzer stems, of four letters or more (shorter terms are never
// corrected).
func TestEnglishStemsFile(t *testing.T) {
	const file = "english-stems.txt.gz"
	if *updateEnglish {
		f, err := os.Open("/usr/share/dict/words")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		set := map[string]bool{}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			w := sc.Text()
			if w == "" || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
				continue
			}
			if s := stemWord(w, w); len(s) >= 4 {
				set[s] = true
			}
		}
		stems := make([]string, 0, len(set))
		for s := range set {
			stems = append(stems, s)
		}
		slices.Sort(stems)
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write([]byte(strings.Join(stems, "\n") + "\n"))
		zw.Close()
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		englishStems = buf.Bytes()
	}
	loadEnglish()
	if len(englishList.stems) < 20000 {
		t.Fatalf("%d stems, want a full word list", len(englishList.stems))
	}
	if !slices.IsSorted(englishList.stems) || len(slices.Compact(slices.Clone(englishList.stems))) != len(englishList.stems) {
		t.Fatal("stems not sorted and unique")
	}
}

// TestEnglishWord: real words, in their analyzed form, are English; typos
// and incident jargon are not.
func TestEnglishWord(t *testing.T) {
	a := New(DefaultOptions())
	for _, tc := range []struct {
		word string
		want bool
	}{
		{"several", true}, {"severity", true}, {"connections", true}, {"stood", true},
		{"received", true}, {"primary", true},
		{"recieved", false}, {"conection", false}, {"primry", false}, {"anyting", false},
		{"kubernetes", false}, {"coredns", false},
	} {
		term, _ := a.normalize(tc.word)
		if got := EnglishWord(term); got != tc.want {
			t.Errorf("EnglishWord(%q of %q) = %v, want %v", term, tc.word, got, tc.want)
		}
	}
}

// BenchmarkLoadEnglish measures what the first EnglishWord call of a
// process pays: unzipping and splitting the list.
func BenchmarkLoadEnglish(b *testing.B) {
	for b.Loop() {
		loadEnglish()
	}
}

// BenchmarkEnglishWord measures one look-up.
func BenchmarkEnglishWord(b *testing.B) {
	loadEnglish()
	for b.Loop() {
		EnglishWord("recieved")
	}
}
