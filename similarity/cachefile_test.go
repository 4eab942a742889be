package similarity

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/caselink/caselink/similarity/caselib"
	"github.com/caselink/caselink/similarity/indexfile"
)

// cacheDocs returns a library large enough to have shared terms, tags and
// dates: the seeds, and variants of them under new ids with their text
// reordered.
func cacheDocs(t testing.TB) []Document {
	t.Helper()
	lib, err := caselib.LoadSeeds()
	if err != nil {
		t.Fatal(err)
	}
	docs := Documents(lib.Cases)
	n := len(docs)
	for r := 1; r <= 6; r++ {
		for i := range n {
			c := *docs[i].Case
			c.ID = fmt.Sprintf("%s-v%d", c.ID, r)
			d := NewDocument(&c)
			for v := range d.Text {
				if k := len(d.Text[v]); k > 1 {
					j := (i + r) % k
					d.Text[v] = append(d.Text[v][j:], d.Text[v][:j]...)
				}
			}
			if r%2 == 0 && len(d.Tags) > 0 {
				d.Tags = d.Tags[1:]
			}
			docs = append(docs, d)
		}
	}
	return docs
}

func saveAndOpen(t *testing.T, docs []Document, cfg Config) (built, opened *Index, path string) {
	t.Helper()
	built, err := Build(docs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "lib.idx")
	key := CacheKey(docs, cfg, "test")
	if err := built.SaveCache(path, key); err != nil {
		t.Fatal(err)
	}
	opened, err = OpenCache(path, key, docs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return built, opened, path
}

// sameIndex compares every field of two indexes (all but the scorer pool,
// the analyzer, the lazily built typo state and the files an opened index
// holds), so that a field added to
// Index and not kept by the cache file fails here.
func sameIndex(t *testing.T, a, b *Index) {
	t.Helper()
	a.events() // built on first use: compare them built
	b.events()
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := range va.NumField() {
		f := va.Type().Field(i)
		switch f.Name {
		case "scorers", "an", "fuzzy", "evMu", "byIDOnce", "maps", "closed":
			continue
		case "ev":
			if !reflect.DeepEqual(a.ev.Load(), b.ev.Load()) {
				t.Error("the same-event evidence differs between the built and the opened index")
			}
			continue
		}
		x := reflect.NewAt(f.Type, unsafe.Pointer(va.Field(i).UnsafeAddr())).Elem().Interface()
		y := reflect.NewAt(f.Type, unsafe.Pointer(vb.Field(i).UnsafeAddr())).Elem().Interface()
		if !reflect.DeepEqual(x, y) {
			t.Errorf("%s differs between the built and the opened index", f.Name)
		}
	}
	if (a.rel == a.exp) != (b.rel == b.exp) || (a.mw == a.rw) != (b.mw == b.rw) || b.rel.w != b.rw {
		t.Error("the opened index shares weights differently")
	}
}

// sameAnswers checks that match, relate and dupes answer the same on both
// indexes, for a paste made of every case's title and a typo'd one.
func sameAnswers(t *testing.T, a, b *Index) {
	t.Helper()
	for i := range a.Len() {
		c := a.Case(i)
		for _, text := range []string{c.Title.EN, c.Title.EN + " conection timout"} {
			q := Query{Text: text, K: 5}
			if ra, rb := a.Match(q), b.Match(q); !reflect.DeepEqual(ra.Hits, rb.Hits) {
				t.Fatalf("match %q: built %v, opened %v", text, ra.Hits, rb.Hits)
			}
		}
		if ra, rb := a.Related(i, 5, 0), b.Related(i, 5, 0); !reflect.DeepEqual(ra, rb) {
			t.Fatalf("relate %s: built %v, opened %v", c.ID, ra, rb)
		}
		if ra, rb := a.DupesOf(i, 5, 0), b.DupesOf(i, 5, 0); !reflect.DeepEqual(ra, rb) {
			t.Fatalf("dupes %s: built %v, opened %v", c.ID, ra, rb)
		}
	}
}

func TestCacheRoundTrip(t *testing.T) {
	t.Parallel()
	docs := cacheDocs(t)
	for name, cfg := range map[string]Config{
		"default": DefaultConfig(),
		"no lift, other expansion": func() Config {
			c := DefaultConfig()
			c.TagLift = false
			c.ExpandTagKinds[0] = c.TagKinds[0] + 0.5
			return c
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			built, opened, _ := saveAndOpen(t, docs, cfg)
			sameIndex(t, built, opened)
			sameAnswers(t, built, opened)
			// Reindexing an opened index (what serve does on a change)
			// gives what reindexing the built one gives.
			changed := append([]Document(nil), docs[1:]...)
			ra, err := built.Reindex(changed)
			if err != nil {
				t.Fatal(err)
			}
			rb, err := opened.Reindex(changed)
			if err != nil {
				t.Fatal(err)
			}
			sameIndex(t, ra, rb)
		})
	}
}

// A file that is not exactly what SaveCache wrote under the key asked for
// is refused, so the caller rebuilds.
func TestCacheRefusesBadFiles(t *testing.T) {
	t.Parallel()
	docs := cacheDocs(t)
	cfg := DefaultConfig()
	_, _, path := saveAndOpen(t, docs, cfg)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key := CacheKey(docs, cfg, "test")
	try := func(name string, data []byte, want error) {
		t.Helper()
		p := filepath.Join(t.TempDir(), "bad.idx")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenCache(p, key, docs, cfg); !errors.Is(err, want) {
			t.Errorf("%s: OpenCache gives %v, want %v", name, err, want)
		}
	}
	for _, at := range []int{0, 9, 20, 50, 57, indexfile.HeaderSize + 3, len(good) / 3, len(good) / 2, len(good) - 1} {
		bad := append([]byte(nil), good...)
		bad[at] ^= 0x10
		// The key too is under the header's checksum: corrupt, not stale.
		try(fmt.Sprintf("byte %d flipped", at), bad, ErrCacheCorrupt)
	}
	for _, n := range []int{0, 10, indexfile.HeaderSize, indexfile.HeaderSize + 100, len(good) / 2, len(good) - 1} {
		try(fmt.Sprintf("cut to %d bytes", n), good[:n], ErrCacheCorrupt)
	}
	try("a byte added", append(append([]byte(nil), good...), 0), ErrCacheCorrupt)

	// Another library, other weights, another version: stale.
	other := append([]Document(nil), docs...)
	other[3].Text[0] = append([]string{"disk full"}, other[3].Text[0]...)
	weights := cfg
	weights.Views[0] += 0.01
	for name, k := range map[string][32]byte{
		"a case's text changed": CacheKey(other, cfg, "test"),
		"a weight changed":      CacheKey(docs, weights, "test"),
		"another version":       CacheKey(docs, cfg, "test2"),
		"a case gone":           CacheKey(docs[1:], cfg, "test"),
	} {
		if k == key {
			t.Fatalf("%s: same key", name)
		}
		if _, err := OpenCache(path, k, docs, cfg); !errors.Is(err, ErrCacheStale) {
			t.Errorf("%s: OpenCache gives %v, want ErrCacheStale", name, err)
		}
	}
	if _, err := OpenCache(filepath.Join(t.TempDir(), "none.idx"), key, docs, cfg); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: OpenCache gives %v", err)
	}
	// A file of the right key but opened with other documents (a caller's
	// mistake) is refused by its counts rather than misread.
	if _, err := OpenCache(path, key, docs[1:], cfg); err == nil {
		t.Error("a file opened with fewer documents than it has was used")
	}
}

// Two processes saving the same cache at once leave one whole file (and
// no temporary ones), which opens to the same index.
func TestCacheConcurrentSaves(t *testing.T) {
	t.Parallel()
	docs := cacheDocs(t)
	cfg := DefaultConfig()
	built, err := Build(docs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Build(docs[:len(docs)/2], cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "lib.idx")
	key := CacheKey(docs, cfg, "test")
	otherKey := CacheKey(docs[:len(docs)/2], cfg, "test")
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				var err error
				if w%2 == 0 {
					err = built.SaveCache(path, key)
				} else {
					err = other.SaveCache(path, otherKey)
				}
				if err != nil {
					t.Error(err)
				}
				// Whatever is there is one whole file of one of them: a
				// snapshot of it (renames replace it whole) opens with one
				// of the keys.
				data, err := os.ReadFile(path)
				if err != nil {
					t.Error(err)
					return
				}
				snap := filepath.Join(t.TempDir(), "snap.idx")
				if err := os.WriteFile(snap, data, 0o644); err != nil {
					t.Error(err)
					return
				}
				if _, err := OpenCache(snap, key, docs, cfg); err != nil {
					if _, err2 := OpenCache(snap, otherKey, docs[:len(docs)/2], cfg); err2 != nil {
						t.Errorf("file is neither's: %v; %v", err, err2)
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := built.SaveCache(path, key); err != nil {
		t.Fatal(err)
	}
	opened, err := OpenCache(path, key, docs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sameIndex(t, built, opened)
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("folder holds %d files, want the cache alone", len(ents))
	}
}

// The key is the same on any number of cores, and a change in any part of
// a library of several hash parts changes it.
func TestCacheKeyParts(t *testing.T) {
	base := cacheDocs(t)
	var docs []Document
	for i := 0; len(docs) < 9000; i++ {
		d := base[i%len(base)]
		c := *d.Case
		c.ID = fmt.Sprintf("K-%05d", i)
		d.Case = &c
		docs = append(docs, d)
	}
	cfg := DefaultConfig()
	key := CacheKey(docs, cfg, "v")
	prev := runtime.GOMAXPROCS(1)
	one := CacheKey(docs, cfg, "v")
	runtime.GOMAXPROCS(prev)
	if one != key {
		t.Error("the key depends on the number of cores")
	}
	for _, at := range []int{0, 4095, 4096, 8999} {
		changed := slices.Clone(docs)
		changed[at].Tags = append(slices.Clone(changed[at].Tags), "symptom:new")
		if CacheKey(changed, cfg, "v") == key {
			t.Errorf("a tag added to document %d leaves the key unchanged", at)
		}
	}
}

// An index opened without its cases answers as the built one: the same
// ids, day numbers and filters, the same match (with typos, filters and
// explanations in the case's own words), relate and dupes, reading through
// load only the cases asked for.
func TestCacheLazyRoundTrip(t *testing.T) {
	t.Parallel()
	cases := seedCopies(t, 3, func(v *caselib.Case, r int) {
		v.Org = fmt.Sprintf("Org %d", r)
		v.Date = fmt.Sprintf("202%d-0%d-1%d", r, r, r)
	})
	cfg := DefaultConfig()
	built, path, key := savedIndex(t, cases, cfg)
	var mu sync.Mutex
	read := map[int]int{}
	load := func(i int) (*caselib.Case, error) {
		mu.Lock()
		read[i]++
		mu.Unlock()
		return cases[i], nil
	}
	lazy, err := OpenCacheLazy(path, key, cfg, load)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lazy.ids, built.ids) || !slices.Equal(lazy.day, built.day) || lazy.Len() != built.Len() {
		t.Fatal("ids or day numbers differ")
	}
	if i, ok := lazy.Lookup(cases[7].ID); !ok || i != 7 {
		t.Errorf("Lookup: %d %v", i, ok)
	}
	filters := []Filter{{}, {Orgs: []string{"org 2", "PostHog"}}, {Domains: []string{"Kubernetes"}}, {Since: "2022-02", Until: "2023"}}
	for _, f := range filters {
		for i := range built.Len() {
			if built.Keeps(f, i) != lazy.Keeps(f, i) {
				t.Fatalf("filter %+v keeps case %d differently", f, i)
			}
		}
	}
	if len(read) != 0 {
		t.Fatalf("opening and filtering read %d cases", len(read))
	}
	// A match and its explanations read the hits' cases, and only those.
	res := lazy.Match(Query{Text: "pods oomkilled after rollout", K: 3})
	for _, h := range res.Hits {
		lazy.ExplainMatch(res, h).Why(6)
	}
	if len(res.Hits) == 0 || len(read) > len(res.Hits) {
		t.Fatalf("a match of %d hits read %d cases", len(res.Hits), len(read))
	}
	for i := range built.Len() {
		c := built.Case(i)
		for _, f := range filters {
			q := Query{Text: c.Title.EN + " conection timout", K: 5, Filter: f}
			ra, rb := built.Match(q), lazy.Match(q)
			if !reflect.DeepEqual(ra.Hits, rb.Hits) {
				t.Fatalf("match %q: built %v, opened %v", q.Text, ra.Hits, rb.Hits)
			}
			for _, h := range ra.Hits {
				if ea, eb := built.ExplainMatch(ra, h), lazy.ExplainMatch(rb, h); !reflect.DeepEqual(ea.Why(6), eb.Why(6)) {
					t.Fatalf("match %q, hit %s: why %v, opened %v", q.Text, h.ID, ea.Why(6), eb.Why(6))
				}
			}
		}
		if ra, rb := built.Related(i, 5, 0), lazy.Related(i, 5, 0); !reflect.DeepEqual(ra, rb) {
			t.Fatalf("relate %s: built %v, opened %v", c.ID, ra, rb)
		}
	}
	for i, n := range read {
		if n != 1 {
			t.Fatalf("case %d read %d times", i, n)
		}
	}
	if !reflect.DeepEqual(lazy.Case(3), built.Case(3)) {
		t.Error("Case differs")
	}
	for i := range built.Len() { // dupes reads every case
		if ra, rb := built.DupesOf(i, 5, 0), lazy.DupesOf(i, 5, 0); !reflect.DeepEqual(ra, rb) {
			t.Fatalf("dupes %s: built %v, opened %v", built.ID(i), ra, rb)
		}
	}
	if lazy.HoldsCases() || !built.HoldsCases() {
		t.Error("HoldsCases: the lazy index says it holds its cases, or the built one that it does not")
	}
	// Saved again, an index opened without its cases writes the file it
	// was opened from.
	again := filepath.Join(t.TempDir(), "x.idx")
	if err := lazy.SaveCache(again, key); err != nil {
		t.Fatalf("saving an index opened without its cases: %v", err)
	}
	if a, b := readFile(t, path), readFile(t, again); !bytes.Equal(a, b) {
		t.Error("an index opened without its cases saves another file than the one it was opened from")
	}
	docs := Documents(cases)
	if nx, err := lazy.Reindex(docs[1:]); err != nil || nx.Len() != len(docs)-1 {
		t.Errorf("Reindex: %v", err)
	}
}

// A case that cannot be read, or reads as another, is an error of
// ReadCase and ReadCases (the caller then builds afresh), tried again at
// the next call; Case, which has no error to return, panics with it; Cases
// says the index holds no cases rather than read them all.
func TestCacheLazyReportsUnreadCases(t *testing.T) {
	t.Parallel()
	cases := seedCopies(t, 2, nil)
	docs := Documents(cases)
	cfg := DefaultConfig()
	_, _, path := saveAndOpen(t, docs, cfg)
	key := CacheKey(docs, cfg, "test")
	// An index of documents that are not their cases' own cannot be
	// opened from the cases alone.
	own := cacheDocs(t)
	_, _, ownPath := saveAndOpen(t, own, cfg)
	if _, err := OpenCacheLazy(ownPath, CacheKey(own, cfg, "test"), cfg, nil); !errors.Is(err, ErrCacheStale) {
		t.Errorf("documents of their own, opened lazily: %v", err)
	}
	panics := func(f func()) (v any) {
		defer func() { v = recover() }()
		f()
		return nil
	}
	for name, load := range map[string]func(int) (*caselib.Case, error){
		"error":     func(int) (*caselib.Case, error) { return nil, caselib.ErrChanged },
		"other id":  func(i int) (*caselib.Case, error) { return docs[(i+1)%len(docs)].Case, nil },
		"first one": func(i int) (*caselib.Case, error) { return docs[i].Case, nil },
	} {
		ix, err := OpenCacheLazy(path, key, cfg, load)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ix.ReadCase(2)
		var ce *CaseError
		if name == "first one" {
			if err != nil || c.ID != docs[2].Case.ID || ix.ReadCases(0, 1, 2) != nil {
				t.Errorf("%s: ReadCase(2) = %v, %v", name, c, err)
			}
			if ix.Case(2) != c {
				t.Errorf("%s: Case(2) is not the case read", name)
			}
		} else {
			if c != nil || !errors.As(err, &ce) || ce.Pos != 2 || ce.ID != docs[2].Case.ID || !errors.Is(err, caselib.ErrChanged) {
				t.Errorf("%s: ReadCase(2) = %v, %v; want a CaseError of case 2, ErrChanged", name, c, err)
			}
			if err := ix.ReadCases(0, 2); err == nil {
				t.Errorf("%s: ReadCases read a case that cannot be read", name)
			}
			if v, ok := panics(func() { ix.Case(2) }).(*CaseError); !ok || v.Pos != 2 {
				t.Errorf("%s: Case(2) of a case that cannot be read panics with %v", name, v)
			}
		}
		if v := panics(func() { ix.Cases() }); v != errNoCases {
			t.Errorf("%s: Cases of a lazy index panics with %v, want errNoCases", name, v)
		}
	}
	// A damaged file is refused as OpenCache refuses it.
	good, _ := os.ReadFile(path)
	for _, at := range []int{20, len(good) / 2, len(good) - 3} {
		bad := append([]byte(nil), good...)
		bad[at] ^= 4
		p := filepath.Join(t.TempDir(), "bad.idx")
		os.WriteFile(p, bad, 0o644)
		if _, err := OpenCacheLazy(p, key, cfg, nil); !errors.Is(err, ErrCacheCorrupt) {
			t.Errorf("byte %d flipped: %v", at, err)
		}
	}
	if _, err := OpenCacheLazy(path, CacheKey(docs[1:], cfg, "test"), cfg, nil); !errors.Is(err, ErrCacheStale) {
		t.Errorf("another key: %v", err)
	}
}

// TestCacheOfCases checks that what the CLI uses to key and open a file
// without making the library's documents (CasesSum, OpenCacheCases) keys
// and opens the same index as the documents do.
func TestCacheOfCases(t *testing.T) {
	t.Parallel()
	cases := seedCopies(t, 1100, nil) // more than one hashing part of 4,096
	docs := Documents(cases)
	if CasesSum(cases) != DocsSum(docs) {
		t.Fatal("CasesSum differs from DocsSum of the cases' documents")
	}
	if CasesSum(cases[1:]) == DocsSum(docs) {
		t.Fatal("CasesSum does not see a case removed")
	}
	cfg := DefaultConfig()
	built, err := BuildCases(cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cases.idx")
	key := CacheKeyOf(CasesSum(cases), cfg, "test")
	if err := built.SaveCache(path, key); err != nil {
		t.Fatal(err)
	}
	opened, err := OpenCacheCases(path, key, cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 3, len(cases) / 2, len(cases) - 1} {
		want := built.Related(i, 10, 0)
		got := opened.Related(i, 10, 0)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("case %d: related of the opened index %v, of the built one %v", i, got, want)
		}
	}
	// A file of documents of their own cannot be opened for the cases.
	own := cacheDocs(t)
	_, _, ownPath := saveAndOpen(t, own, cfg)
	ownCases := make([]*caselib.Case, len(own))
	for i := range own {
		ownCases[i] = own[i].Case
	}
	if _, err := OpenCacheCases(ownPath, CacheKey(own, cfg, "test"), ownCases, cfg); !errors.Is(err, ErrCacheStale) {
		t.Errorf("documents of their own, opened for their cases: %v", err)
	}
}

// seedCopies returns the seed cases followed by rounds copies of them, the
// copies of round r with "-vR" added to their ids and then changed by
// change (when not nil).
func seedCopies(t testing.TB, rounds int, change func(v *caselib.Case, r int)) []*caselib.Case {
	t.Helper()
	lib, err := caselib.LoadSeeds()
	if err != nil {
		t.Fatal(err)
	}
	cases := lib.Cases
	for r := 1; r <= rounds; r++ {
		for _, c := range lib.Cases {
			v := *c
			v.ID = fmt.Sprintf("%s-v%d", c.ID, r)
			if change != nil {
				change(&v, r)
			}
			cases = append(cases, &v)
		}
	}
	return cases
}

// An index opened without its cases keeps only the last cases it read (a
// server reads case after case for as long as it runs): an older one is
// read from its file again, a recent one is not.
func TestLazyKeepsTheLastCasesRead(t *testing.T) {
	t.Parallel()
	cases := seedCopies(t, 2, func(*caselib.Case, int) {})
	cfg := DefaultConfig()
	_, path, key := savedIndex(t, cases, cfg)
	read := map[int]int{}
	lazy, err := OpenCacheLazy(path, key, cfg, func(i int) (*caselib.Case, error) { read[i]++; return cases[i], nil })
	if err != nil {
		t.Fatal(err)
	}
	lazy.lazy.keep = 4
	for i := range 10 {
		if c := lazy.Case(i); c.ID != cases[i].ID {
			t.Fatalf("case %d is %s, want %s", i, c.ID, cases[i].ID)
		}
	}
	if err := lazy.ReadCases(9, 6, 0); err != nil {
		t.Fatal(err)
	}
	if read[9] != 1 || read[6] != 1 || read[0] != 2 {
		t.Errorf("reads of cases 9, 6, 0: %d %d %d, want 1 1 2 (the last four read are kept)", read[9], read[6], read[0])
	}
	if n := len(lazy.lazy.got); n > 4 {
		t.Errorf("%d cases kept, want at most 4", n)
	}
}

// savedIndex builds cases with cfg and saves the index in a temporary
// file, returning the index, the file and its key.
func savedIndex(t *testing.T, cases []*caselib.Case, cfg Config) (*Index, string, [32]byte) {
	t.Helper()
	docs := Documents(cases)
	built, err := Build(docs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lib.idx")
	key := CacheKey(docs, cfg, "test")
	if err := built.SaveCache(path, key); err != nil {
		t.Fatal(err)
	}
	return built, path, key
}

// The same-event evidence of dupes reads every case of an index opened
// without them, and keeps none of them: dupes answer as the built index's,
// and at most the last few cases read are held after it. A case that
// cannot be read fails the build with its *CaseError, and the next call
// builds it again.
func TestLazyDupesHoldNoCases(t *testing.T) {
	t.Parallel()
	// Copies of one seed cite the same page, three by three, which only the
	// cases' text says. More cases than one worker's share (par.For), so
	// that the workers of Duplicates run on goroutines of their own.
	cases := seedCopies(t, 20, func(v *caselib.Case, r int) {
		v.URL = fmt.Sprintf("https://status.example.com/incidents/%s/%d", v.ID[:strings.LastIndex(v.ID, "-v")], r/3)
	})
	cfg := DefaultConfig()
	built, path, key := savedIndex(t, cases, cfg)
	broken := true
	lazy, err := OpenCacheLazy(path, key, cfg, func(i int) (*caselib.Case, error) {
		if broken && i == len(cases)-1 {
			return nil, caselib.ErrChanged
		}
		return cases[i], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lazy.lazy.keep = 2
	func() {
		defer func() {
			if ce, ok := recover().(*CaseError); !ok || ce.Pos != len(cases)-1 {
				t.Errorf("dupes with a case that cannot be read: panic %v, want its *CaseError", ce)
			}
		}()
		lazy.Duplicates(0, 5, nil)
	}()
	broken = false
	got, want := lazy.Duplicates(0, 5, nil), built.Duplicates(0, 5, nil)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("dupes of the index opened without its cases:\n%v\nwant:\n%v", got, want)
	}
	if ev := built.EventEvidence(len(cases)-5, len(cases)-1); ev.Source == "" {
		t.Errorf("copies citing one page: evidence %+v, want a shared source (a test that cannot fail)", ev)
	}
	held := len(lazy.lazy.got)
	for _, c := range lazy.cases {
		held += b2i(c != nil)
	}
	if held > 2 {
		t.Errorf("%d cases held after dupes, want at most the 2 read last", held)
	}
}
