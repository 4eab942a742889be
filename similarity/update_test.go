package similarity

import (
	"fmt"
	"testing"

	"github.com/caselink/caselink/similarity/caselib"
)

// An updated index answers exactly as one built from scratch on the same
// cases in the same order: idf, pivots and every vector are recomputed.
func TestUpdateEqualsRebuild(t *testing.T) {
	lib := synthLibrary(300, 11)
	ix, err := BuildCases(lib[:250], DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	// Replace case 10 (in place), remove cases 20 and 30, add 50 new ones.
	changed := *lib[10]
	changed.Title.EN = "pods OOMKilled after the rollout " + changed.Title.EN
	upsert := append([]*caselib.Case{&changed}, lib[250:]...)
	up, err := ix.Update(Documents(upsert), []string{lib[20].ID, lib[30].ID})
	if err != nil {
		t.Fatal(err)
	}
	var want []*caselib.Case
	for i, c := range lib {
		switch i {
		case 10:
			want = append(want, &changed)
		case 20, 30:
		default:
			want = append(want, c)
		}
	}
	fresh, err := BuildCases(want, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if up.Len() != fresh.Len() || up.Len() != 298 {
		t.Fatalf("updated index has %d cases, rebuilt %d, want 298", up.Len(), fresh.Len())
	}
	if got, want := fmt.Sprint(up.AllRelated(5, 0, nil)), fmt.Sprint(fresh.AllRelated(5, 0, nil)); got != want {
		t.Errorf("relate differs after update:\nupdated %.300s\nrebuilt %.300s", got, want)
	}
	for _, q := range []string{"pods OOMKilled after the rollout", lib[5].Summary.EN, lib[260].Title.EN} {
		a, b := up.Match(Query{Text: q, K: 10}), fresh.Match(Query{Text: q, K: 10})
		if fmt.Sprint(a.Hits) != fmt.Sprint(b.Hits) {
			t.Errorf("match %q differs:\nupdated %v\nrebuilt %v", q, a.Hits, b.Hits)
		}
	}
	// The old index is untouched and still answers as before.
	if ix.Len() != 250 {
		t.Errorf("old index has %d cases after Update, want 250", ix.Len())
	}
	if _, err := ix.Update(nil, []string{"NOPE"}); err == nil {
		t.Error("removing an unknown id: no error")
	}
}
