package similarity

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/indexfile/maptest"
)

// TestCloseGivesBackTheFile: an index built from the analysis of one
// opened from its file (Builder.Reuse, Reindex) keeps that file mapped
// when the opened one is closed, answering as a fresh build; the file is
// given back when the last of them is closed, as a server's reload needs
// once the file was renamed over.
func TestCloseGivesBackTheFile(t *testing.T) {
	if !maptest.Available() {
		t.Skip("cannot read the process's mappings here")
	}
	t.Parallel()
	lib := synthLibrary(900, 11)
	cfg := DefaultConfig()
	built, sum := buildStream(t, lib, cfg)
	key := CacheKeyOf(sum, cfg, "test")
	dir := t.TempDir()
	save := func(name string) string {
		path := filepath.Join(dir, name)
		if err := built.SaveCache(path, key); err != nil {
			t.Fatal(err)
		}
		return path
	}
	edited := slices.Clone(lib)
	c := *lib[3]
	c.Title.EN = "pods OOMKilled after the rollout " + c.Title.EN
	edited[3] = &c
	fresh, _ := buildStream(t, edited, cfg)
	answers := func(ix *Index) string {
		var b strings.Builder
		for i := 0; i < ix.Len(); i += 7 {
			fmt.Fprintln(&b, ix.Related(i, 5, 0))
		}
		r := ix.Match(Query{Text: "pods OOMKilled after the rollout", K: 5})
		for _, h := range r.Hits {
			fmt.Fprintln(&b, h.ID, h.Score, ix.ExplainMatch(r, h))
		}
		return b.String()
	}
	want := answers(fresh)

	for _, how := range []string{"Builder.Reuse", "Reindex"} {
		path := save(strings.ReplaceAll(how, ".", "") + ".idx")
		var opened, derived *Index
		var err error
		if how == "Reindex" {
			if opened, err = OpenCache(path, key, Documents(lib), cfg); err == nil {
				derived, err = opened.Reindex(Documents(edited))
			}
		} else {
			opened, err = OpenCacheLazy(path, key, cfg, func(i int) (*caselib.Case, error) { return lib[i], nil })
			if err == nil {
				derived, _, _ = buildStreamFrom(t, edited, cfg, opened)
			}
		}
		if err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		if err := os.Remove(path); err != nil { // as a rename over it does
			t.Fatal(err)
		}
		opened.Close()
		if !maptest.Mapped(t, path) {
			t.Fatalf("%s: the file was given back while the index built from it was open", how)
		}
		if got := answers(derived); got != want {
			t.Errorf("%s: after closing the index it was built from, answers differ from a fresh build", how)
		}
		derived.Close()
		opened.Close() // a second Close does nothing
		if maptest.Mapped(t, path) {
			t.Errorf("%s: the file is still mapped after both indexes were closed", how)
		}
	}
}
