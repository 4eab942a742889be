package tokenize

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"slices"
	"strings"
	"sync"
)

// englishStems is the normal forms (Snowball stems) of the lower-case a–z
// words of Debian's wamerican word list, sorted, one a line, gzipped; see
// english_test.go for how it is made.
//
//go:embed english-stems.txt.gz
var englishStems []byte

var englishList struct {
	once  sync.Once
	stems []string
}

// EnglishWord reports whether term, an analyzed term, is the normal form
// of a common English word (the stem of a word of Debian's wamerican list:
// "sever" of several, "connect" of connections). A paste's word that is a
// real word absent from the library is no typo: it is not corrected into
// a library word ("stood" is not read as "stop"). The list is loaded
// on first use.
func EnglishWord(term string) bool {
	englishList.once.Do(loadEnglish)
	_, ok := slices.BinarySearch(englishList.stems, term)
	return ok
}

func loadEnglish() {
	zr, err := gzip.NewReader(bytes.NewReader(englishStems))
	if err != nil {
		panic("tokenize: english-stems.txt.gz: " + err.Error())
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		panic("tokenize: english-stems.txt.gz: " + err.Error())
	}
	englishList.stems = strings.Split(strings.TrimSpace(string(b)), "\n")
}
