package caselib

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// A UTF-16 case file (as Windows tools write) is named as UTF-16, with the
// fix, with a byte order mark or without.
func TestUTF16IsNamed(t *testing.T) {
	text := `{"id":"U-1","title":{"en":"disk full"}}`
	le := func(bom bool) []byte {
		var b []byte
		if bom {
			b = append(b, 0xff, 0xfe)
		}
		for _, u := range utf16.Encode([]rune(text)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	be := []byte{0xfe, 0xff}
	for _, u := range utf16.Encode([]rune(text)) {
		be = append(be, byte(u>>8), byte(u))
	}
	for name, data := range map[string][]byte{"le-bom.json": le(true), "le.json": le(false), "be-bom.json": be} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load([]string{path}, LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), "file is UTF-16") || !strings.Contains(err.Error(), "iconv -f UTF-16 -t UTF-8") {
			t.Errorf("%s: error %v, want it named UTF-16 with the fix", name, err)
		}
	}
}
