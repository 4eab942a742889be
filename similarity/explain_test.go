package similarity

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

// Why leaves out filler words and class terms (a hex fragment of a pod
// name), which still count in the score.
func TestWhyLeavesOutFiller(t *testing.T) {
	ix := seedIndex(t, DefaultConfig())
	paste := "loki distributor pods OOMKilled right after the deploy, only the new pods take write traffic, " +
		"one app did not get any: loki-distributor-7d9f8c6b5-x2k4p 3fa85f64"
	res := ix.Match(Query{Text: paste, K: 4})
	if len(res.Hits) == 0 {
		t.Fatal("no hits")
	}
	for _, h := range res.Hits {
		ex := ix.ExplainMatch(res, h)
		for _, w := range ex.Why(50) {
			first := strings.ToLower(strings.SplitN(w, ":", 2)[0])
			switch {
			case slices.Contains([]string{"right", "take", "one", "not", "get", "app"}, first):
				t.Errorf("%s: why lists filler %q", h.ID, w)
			case strings.Contains(w, "x2k4p") || strings.Contains(w, "3fa85f64"):
				t.Errorf("%s: why lists a hex fragment %q", h.ID, w)
			}
		}
	}
}

// Top keeps the largest parts and sums the rest, so the parts still add up
// to the score; the JSON has lowercase keys and views by name.
func TestExplanationTopAndJSON(t *testing.T) {
	ix := seedIndex(t, DefaultConfig())
	a, _ := ix.Lookup("IL-0191")
	b, _ := ix.Lookup("IL-0371")
	ex := ix.ExplainPair(a, b)
	if len(ex.Parts) <= 3 {
		t.Fatalf("only %d parts", len(ex.Parts))
	}
	top := ex.Top(3)
	sum := top.RestScore
	for _, p := range top.Parts {
		sum += p.Score
	}
	if len(top.Parts) != 3 || top.RestParts != len(ex.Parts)-3 || math.Abs(sum-ex.Score) > 1e-6 {
		t.Errorf("Top(3): %d parts, rest %d (%v), sum %v, want score %v", len(top.Parts), top.RestParts, top.RestScore, sum, ex.Score)
	}
	b2, err := json.Marshal(top)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b2, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"score", "parts", "rest_parts", "rest_score", "views", "query", "expand"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON has no %q: %s", k, b2)
		}
	}
	views, _ := m["views"].(map[string]any)
	for v := range View(NumViews) {
		if _, ok := views[v.String()]; !ok {
			t.Errorf("views has no %q: %s", v, b2)
		}
	}
	part, _ := m["parts"].([]any)[0].(map[string]any)
	if _, ok := part["term"]; !ok {
		t.Errorf("a part has no \"term\": %s", b2)
	}
}
