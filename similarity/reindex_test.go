package similarity

import (
	"fmt"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// A reindexed index answers exactly as one built from scratch on the same
// documents in the same order (idf, pivots and every vector are recomputed),
// and it tokenizes only the documents that changed.
func TestReindexEqualsBuild(t *testing.T) {
	t.Parallel()
	lib := synthLibrary(300, 11)
	spellVariously(lib)
	ix, err := BuildCases(lib[:250], DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	// Change case 10's text and case 11's related list (not indexed text),
	// remove cases 20 and 30, and insert 50 new cases in the middle.
	changed := *lib[10]
	changed.Title.EN = "pods OOMKilled after the rollout " + changed.Title.EN
	linked := *lib[11]
	linked.Related = []string{lib[12].ID}
	var want []*caselib.Case
	for i, c := range lib[:250] {
		switch i {
		case 10:
			want = append(want, &changed)
		case 11:
			want = append(want, &linked)
		case 20, 30:
		case 100:
			want = append(want, lib[250:]...)
			want = append(want, c)
		default:
			want = append(want, c)
		}
	}
	re, err := ix.Reindex(Documents(want))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := BuildCases(want, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if re.Len() != fresh.Len() || re.Len() != 298 {
		t.Fatalf("reindexed index has %d cases, rebuilt %d, want 298", re.Len(), fresh.Len())
	}
	sameSurfaces(t, re, fresh)
	if got, want := fmt.Sprint(re.AllRelated(5, 0, nil)), fmt.Sprint(fresh.AllRelated(5, 0, nil)); got != want {
		t.Errorf("relate differs after Reindex:\nreindexed %.300s\nrebuilt   %.300s", got, want)
	}
	if got, want := fmt.Sprint(re.Duplicates(0.2, 5, nil)), fmt.Sprint(fresh.Duplicates(0.2, 5, nil)); got != want {
		t.Errorf("dupes differ after Reindex:\nreindexed %.300s\nrebuilt   %.300s", got, want)
	}
	for _, q := range []string{"pods OOMKilled after the rollout", lib[5].Summary.EN, lib[260].Title.EN} {
		a, b := re.Match(Query{Text: q, K: 10}), fresh.Match(Query{Text: q, K: 10})
		if fmt.Sprint(a.Hits) != fmt.Sprint(b.Hits) {
			t.Errorf("match %q differs:\nreindexed %v\nrebuilt   %v", q, a.Hits, b.Hits)
		}
	}
	// Unchanged documents kept their analysis; changed and new ones did not.
	for i, c := range re.Cases() {
		j, had := ix.Lookup(c.ID)
		reused := had && len(re.docs[i].packed) > 0 && &re.docs[i].packed[0] == &ix.docs[j].packed[0]
		if wantReuse := had && c.ID != changed.ID; reused != wantReuse {
			t.Errorf("case %s: analysis reused %v, want %v", c.ID, reused, wantReuse)
		}
		if re.Case(i) != want[i] {
			t.Errorf("case %d is not the case given", i)
		}
	}
	// The old index is untouched and still answers as before.
	if ix.Len() != 250 {
		t.Errorf("old index has %d cases after Reindex, want 250", ix.Len())
	}
	if _, err := ix.Reindex(Documents([]*caselib.Case{lib[0], lib[0]})); err == nil {
		t.Error("a repeated id: no error")
	}
}

// Reindexing over and over with new text does not let the vocabulary grow
// without bound: unused terms are dropped by a fresh build now and then.
func TestReindexDropsStaleTerms(t *testing.T) {
	t.Parallel()
	ix, err := BuildCases(synthLibrary(20, 1), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for round := range 40 {
		cases := synthLibrary(20, 1)
		for i, c := range cases {
			c.Summary.EN = ""
			for w := range 100 {
				c.Summary.EN += " " + letters((round*20+i)*100+w)
			}
		}
		if ix, err = ix.Reindex(Documents(cases)); err != nil {
			t.Fatal(err)
		}
		if n := len(ix.voc.terms); n > 2*len(ix.craw)+staleTerms+20*100 {
			t.Fatalf("round %d: %d terms in the vocabulary, %d in use", round, n, len(ix.craw))
		}
	}
}

// letters spells n in base 26 with the letters q–z and a–p, from "qq" on:
// a made-up word, different for every n.
func letters(n int) string {
	const digits = "qrstuvwxyzabcdefghijklmnop"
	b := []byte{'q'}
	for ; n > 0; n /= 26 {
		b = append(b, digits[n%26])
	}
	return string(b) + "q"
}
