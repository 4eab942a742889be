package similarity

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// CatchCaseError turns the panic of a case that cannot be read again into
// its error, and lets every other panic through.
func TestCatchCaseError(t *testing.T) {
	t.Parallel()
	if err := CatchCaseError(func() {}); err != nil {
		t.Errorf("no panic: %v", err)
	}
	ce := &CaseError{Pos: 3, ID: "A-3", Err: errors.New("changed")}
	if err := CatchCaseError(func() { panic(fmt.Errorf("reading: %w", ce)) }); err != ce {
		t.Errorf("a wrapped *CaseError: got %v, want %v", err, ce)
	}
	for _, v := range []any{"boom", errors.New("other")} {
		func() {
			defer func() {
				if got := recover(); got != v {
					t.Errorf("panic %v came out as %v", v, got)
				}
			}()
			CatchCaseError(func() { panic(v) })
			t.Errorf("panic %v was swallowed", v)
		}()
	}
}

// Reread: an index opened without its cases reads them through the new
// reader, none kept from the old one, and answers as before; an index
// that holds its cases refuses.
func TestReread(t *testing.T) {
	t.Parallel()
	lib := synthLibrary(300, 5)
	cfg := DefaultConfig()
	built, sum := buildStream(t, lib, cfg)
	path := filepath.Join(t.TempDir(), "lib.idx")
	key := CacheKeyOf(sum, cfg, "test")
	if err := built.SaveCache(path, key); err != nil {
		t.Fatal(err)
	}
	ix, err := OpenCacheLazy(path, key, cfg, func(i int) (*caselib.Case, error) { return lib[i], nil })
	if err != nil {
		t.Fatal(err)
	}
	before := fmt.Sprint(ix.Related(7, 5, 0))
	if c, err := ix.ReadCase(7); err != nil || len(c.Related) != 0 {
		t.Fatalf("case 7 before: %v, %v", c, err)
	}
	linked := *lib[7]
	linked.Related = []string{lib[8].ID}
	ix.Reread(func(i int) (*caselib.Case, error) {
		if i == 7 {
			return &linked, nil
		}
		return lib[i], nil
	})
	if c, err := ix.ReadCase(7); err != nil || !slices.Equal(c.Related, linked.Related) {
		t.Errorf("case 7 after Reread: %v, %v; want related %v", c, err, linked.Related)
	}
	if after := fmt.Sprint(ix.Related(7, 5, 0)); after != before {
		t.Errorf("Related after Reread: %s, want %s", after, before)
	}
	whole, err := BuildCases(lib, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Reread of an index that holds its cases did not panic")
		}
	}()
	whole.Reread(nil)
}
