package eval

import (
	"encoding/json"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/caselink/caselink/seeds"
)

const (
	seedQueries = "testdata/seeds/queries.jsonl"
	seedRelated = "testdata/seeds/related.tsv"
)

// seedCases returns the English text of each seed case (every string value in
// the case file except those under a "ko" key), keyed by case id.
func seedCases(t *testing.T) map[string][]string {
	t.Helper()
	files, err := fs.Glob(seeds.FS, "*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no seed cases: %v", err)
	}
	out := map[string][]string{}
	for _, name := range files {
		b, err := fs.ReadFile(seeds.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		id, _ := v.(map[string]any)["id"].(string)
		if id == "" {
			t.Fatalf("%s: no id", name)
		}
		var texts []string
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case string:
				texts = append(texts, v)
			case []any:
				for _, x := range v {
					walk(x)
				}
			case map[string]any:
				for k, x := range v {
					if k != "ko" {
						walk(x)
					}
				}
			}
		}
		walk(v)
		out[id] = texts
	}
	return out
}

// words splits s into lower-case runs of letters and digits; everything else
// (spaces, punctuation, underscores) separates words.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// The seed queries must be written in their own words: no run of 4 words in
// a query may appear in the English text of any seed case.
func TestSeedQueriesShareNoPhraseWithSeeds(t *testing.T) {
	const run = 4
	grams := map[string]string{} // 4-word run → case id
	for id, texts := range seedCases(t) {
		for _, s := range texts {
			w := words(s)
			for i := 0; i+run <= len(w); i++ {
				grams[strings.Join(w[i:i+run], " ")] = id
			}
		}
	}
	qs, err := ReadQueries(seedQueries)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		w := words(q.Text)
		for i := 0; i+run <= len(w); i++ {
			g := strings.Join(w[i:i+run], " ")
			if id, ok := grams[g]; ok {
				t.Errorf("query %s shares %q with case %s", q.ID, g, id)
			}
		}
	}
}

// The seed judged set is consistent with the seed cases: every id exists, each
// query has exactly one grade-2 case, each seed has 2 to 4 queries, and a
// query's grade-1 cases are exactly the related.tsv neighbours of its target.
func TestSeedJudgedSet(t *testing.T) {
	cases := seedCases(t)
	qs, err := ReadQueries(seedQueries)
	if err != nil {
		t.Fatal(err)
	}
	j, err := ReadPairs(seedRelated)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := j.Subjects(), slices.Sorted(maps.Keys(cases)); !slices.Equal(got, want) {
		t.Errorf("related.tsv subjects = %v, want every seed %v", got, want)
	}
	for a, m := range j {
		for b, g := range m {
			if _, ok := cases[b]; !ok {
				t.Errorf("related.tsv: %s -> %s: no such seed", a, b)
			}
			if g < 1 || g > 2 {
				t.Errorf("related.tsv: %s -> %s: grade %d, want 1 or 2", a, b, g)
			}
		}
	}
	if len(qs) < 8 || len(qs) > 16 {
		t.Errorf("%d seed queries, want about 12", len(qs))
	}
	perSeed := map[string]int{}
	for _, q := range qs {
		var target string
		for id, g := range q.Relevant {
			if _, ok := cases[id]; !ok {
				t.Errorf("query %s: %s is not a seed", q.ID, id)
			}
			if g == 2 {
				if target != "" {
					t.Errorf("query %s: two grade-2 cases", q.ID)
				}
				target = id
			}
		}
		if target == "" {
			t.Errorf("query %s: no grade-2 case", q.ID)
			continue
		}
		perSeed[target]++
		want := map[string]int{target: 2}
		for id := range j[target] {
			want[id] = 1
		}
		if !maps.Equal(q.Relevant, want) {
			t.Errorf("query %s: relevant = %v, want %v (target 2, its related.tsv neighbours 1)", q.ID, q.Relevant, want)
		}
		if q.Kind == "" {
			t.Errorf("query %s: no kind", q.ID)
		}
		if q.Candidates != nil {
			t.Errorf("query %s: seed queries rank the whole library, want no candidates", q.ID)
		}
	}
	for id := range cases {
		if n := perSeed[id]; n < 2 || n > 4 {
			t.Errorf("seed %s is the target of %d queries, want 2 to 4", id, n)
		}
	}
}
