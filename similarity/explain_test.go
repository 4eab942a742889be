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
	t.Parallel()
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
	t.Parallel()
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

// A hit's score splits into what the paste gives and what the second stage
// adds through the best hit: the two sum to the score, agree with the
// explanation, and the best hit is explained by the paste alone (never "like
// itself").
func TestMatchSplit(t *testing.T) {
	t.Parallel()
	ix := seedIndex(t, DefaultConfig())
	res := ix.Match(Query{Text: "loki distributor pods OOMKilled after the rollout, write path stalled", K: 4})
	if len(res.Hits) < 2 || len(res.Expanded) == 0 {
		t.Fatalf("want several hits and a second stage, got %d hits, expanded %v", len(res.Hits), res.Expanded)
	}
	moved := false
	for i, h := range res.Hits {
		paste, like, id := res.Split(h)
		if math.Abs(paste+like-h.Score) > 1e-6 {
			t.Errorf("%s: paste %v + like %v != score %v", h.ID, paste, like, h.Score)
		}
		ex := ix.ExplainMatch(res, h)
		if math.Abs(ex.Query-paste) > 1e-6 || math.Abs(ex.Expand-like) > 1e-6 {
			t.Errorf("%s: split %v/%v, explanation %v/%v", h.ID, paste, like, ex.Query, ex.Expand)
		}
		if i == 0 {
			if like != 0 || id != "" {
				t.Errorf("best hit %s: %v like %q, want all from the paste", h.ID, like, id)
			}
			for _, p := range ex.Parts {
				if p.Via != "" {
					t.Errorf("best hit %s explained through %s", h.ID, p.Via)
				}
			}
			continue
		}
		if like > 0 {
			moved = true
			if id != res.Hits[0].ID {
				t.Errorf("%s: like %q, want the best hit %s", h.ID, id, res.Hits[0].ID)
			}
		}
	}
	if !moved {
		t.Error("the second stage added to no hit")
	}
}
