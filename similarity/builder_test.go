package similarity

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// readFile returns the content of path.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// buildStream indexes cases through a Builder, reading a case back from
// cases when asked.
func buildStream(t *testing.T, cases []*caselib.Case, cfg Config) (*Index, [32]byte) {
	t.Helper()
	b, err := NewBuilder(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if err := b.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	ix, sum, err := b.Index(func(i int) (*caselib.Case, error) { return cases[i], nil })
	if err != nil {
		t.Fatal(err)
	}
	return ix, sum
}

// An index built case by case, without holding the cases, is the index of
// the whole library: the same sum, the same cache file byte for byte (on
// one core, where a build's raw term ids do not depend on the scheduling),
// and the same answers (on every core).
func TestBuilderEqualsBuild(t *testing.T) {
	// Not parallel: it sets GOMAXPROCS. Three batches and a part.
	cases := synthLibrary(2*streamBatch+777, 11)
	cases[5].Org, cases[5].Date, cases[5].Domain = "Org A", "2024-02-03", []string{"dns", "storage"}
	cases[6].Org, cases[6].Date = "Org B", "not a date"
	cfg := DefaultConfig()
	prev := runtime.GOMAXPROCS(1)
	whole, err := BuildCases(cases, cfg)
	if err != nil {
		runtime.GOMAXPROCS(prev)
		t.Fatal(err)
	}
	streamed, sum := buildStream(t, cases, cfg)
	runtime.GOMAXPROCS(prev)
	if sum != CasesSum(cases) {
		t.Fatal("the Builder's sum is not the cases' DocsSum")
	}
	if streamed.HoldsCases() {
		t.Error("an index built from a stream says it holds its cases")
	}
	dir := t.TempDir()
	key := CacheKeyOf(sum, cfg, "test")
	a, b := filepath.Join(dir, "whole.idx"), filepath.Join(dir, "stream.idx")
	if err := whole.SaveCache(a, key); err != nil {
		t.Fatal(err)
	}
	if err := streamed.SaveCache(b, key); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, a), readFile(t, b)) {
		t.Fatal("the streamed index saves another file than the whole library's")
	}
	if got := streamed.Domains(5); len(got) != 2 || got[1] != "storage" || streamed.Org(6) != "Org B" {
		t.Fatalf("case fields: %q, %q", got, streamed.Org(6))
	}
	parallel, _ := buildStream(t, cases[:600], cfg)
	small, err := BuildCases(cases[:600], cfg)
	if err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, small, parallel)
}

// A Builder refuses a repeated id, then every later call.
func TestBuilderRefusesRepeatedID(t *testing.T) {
	t.Parallel()
	cases := synthLibrary(3, 2)
	b, err := NewBuilder(DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*caselib.Case{cases[0], cases[1], cases[0]} {
		err = b.Add(c)
	}
	if err == nil {
		t.Fatal("a repeated id was taken")
	}
	if b.Add(cases[2]) == nil {
		t.Error("a Builder that failed took another case")
	}
	if _, _, err := b.Index(nil); err == nil {
		t.Error("a Builder that failed gave an index")
	}
}
