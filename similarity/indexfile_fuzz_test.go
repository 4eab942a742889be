package similarity

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/indexfile"
)

// FuzzOpenIndex: whatever the bytes of an index file, opening it (with the
// documents, and lazily without them) returns an index or ErrCacheCorrupt /
// ErrCacheStale, never a panic or another error. Each input is tried as
// given and with the library's key and right checksums set on a copy, so
// that the fuzzer reaches the section table and the values' checks. The
// seed corpus is the index file of two small cases, whole, cut in half, and
// with two sections swapped.
func FuzzOpenIndex(f *testing.F) {
	// Small cases, for small inputs: the fuzzer's speed falls with their size.
	cases := []*caselib.Case{
		{ID: "a", Org: "Acme", Date: "2024-03-01", Title: caselib.Text{EN: "pods OOMKilled after deploy"},
			Summary: caselib.Text{EN: "memory limit too low"}, Domain: []string{"kubernetes"}, Symptoms: []string{"oom-killed"}},
		{ID: "b", Org: "Beta", Date: "2024-03-09", Title: caselib.Text{EN: "postgres connection refused"},
			Summary: caselib.Text{EN: "pool exhausted after deploy"}, Domain: []string{"database"}, RootCause: []string{"capacity"}},
	}
	docs := Documents(cases)
	cfg := DefaultConfig()
	ix, err := Build(docs, cfg)
	if err != nil {
		f.Fatal(err)
	}
	key := CacheKey(docs, cfg, "fuzz")
	path := filepath.Join(f.TempDir(), "seeds.idx")
	if err := ix.SaveCache(path, key); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	swapped := bytes.Clone(good)
	copy(swapped[indexfile.HeaderSize:], good[indexfile.HeaderSize+indexfile.EntrySize:indexfile.HeaderSize+2*indexfile.EntrySize])
	copy(swapped[indexfile.HeaderSize+indexfile.EntrySize:], good[indexfile.HeaderSize:indexfile.HeaderSize+indexfile.EntrySize])
	f.Add(swapped)
	noLoad := func(int) (*caselib.Case, error) { return nil, errors.New("not read in the fuzzer") }
	f.Fuzz(func(t *testing.T, data []byte) {
		sealed := bytes.Clone(data)
		if len(sealed) >= indexfile.HeaderSize {
			copy(sealed[16:48], key[:])
			indexfile.Reseal(sealed)
		}
		for _, b := range [][]byte{data, sealed} {
			file, err := indexfile.Parse(b, key)
			if err == nil {
				_, err = openFile(file, cfg, docs, func(ix *Index) error { return ix.setDocuments(docs) })
			}
			if err == nil {
				_, err = openFile(file, cfg, nil, func(ix *Index) error {
					ix.lazy = &lazyCases{load: noLoad, got: map[int]*caselib.Case{}}
					return nil
				})
			}
			if err != nil && !errors.Is(err, ErrCacheCorrupt) && !errors.Is(err, ErrCacheStale) {
				t.Fatalf("open gives %v, neither corrupt nor stale", err)
			}
			if err != nil && bytes.Equal(b, good) {
				t.Fatalf("the file as written is refused: %v", err)
			}
		}
	})
}
