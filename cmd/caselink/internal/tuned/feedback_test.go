package tuned

import (
	"fmt"
	"slices"
	"testing"

	"github.com/caselink/caselink/eval"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// twinLibrary returns 10 families of cases: a case H (the one that helps)
// and four near twins of another case B. A paste names B's words more than
// H's, so B is the best first-pass hit and the second stage of match lifts
// B's twins over H; the pastes, each with H marked helpful and B not, are
// the feedback.
func twinLibrary() ([]*caselib.Case, []caselib.Feedback) {
	topics := [][3]string{{"kafka", "broker", "rebalance"}, {"certificate", "issuer", "handshake"},
		{"resolver", "zone", "nxdomain"}, {"inode", "filesystem", "volume"}, {"heap", "allocator", "leak"},
		{"replica", "standby", "failover"}, {"ingress", "nginx", "upstream"}, {"scheduler", "node", "eviction"},
		{"quota", "limiter", "throttling"}, {"webhook", "apiserver", "admission"}}
	var cases []*caselib.Case
	var fb []caselib.Feedback
	for f, tp := range topics {
		h := &caselib.Case{ID: fmt.Sprintf("H-%d", f)}
		h.Title.EN = tp[2] + " stuck"
		cases = append(cases, h)
		for i := range 5 {
			// B-f0 shares three words with the paste; its twins one, and
			// the words of B-f0 the paste does not have.
			b := &caselib.Case{ID: fmt.Sprintf("B-%d%d", f, i)}
			b.Title.EN = tp[1] + " capacity saturation brownout"
			if i == 0 {
				b.Title.EN = tp[0] + " " + b.Title.EN + " overloaded"
			}
			cases = append(cases, b)
		}
		paste := tp[0] + " " + tp[1] + " overloaded, " + tp[2]
		fb = append(fb, caselib.Feedback{Paste: paste, ID: h.ID, Helpful: true, Rank: 6},
			caselib.Feedback{Paste: paste, ID: fmt.Sprintf("B-%d0", f), Helpful: false, Rank: 1})
	}
	return cases, fb
}

// rankOf returns the 1-based rank of id in the match of paste, 0 when it is
// not in the top 10.
func rankOf(t *testing.T, cases []*caselib.Case, cfg similarity.Config, paste, id string) int {
	t.Helper()
	ix, err := similarity.BuildCases(cases, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for r, h := range ix.Match(similarity.Query{Text: paste, K: 10}).Hits {
		if h.ID == id {
			return r + 1
		}
	}
	return 0
}

// TestTuneLearnsFromFeedback: pastes marked helpful for a case that the
// default second stage pushes down make match lists, one group per paste,
// and tune chooses a second stage that brings the case up, with a held-out
// gain whose interval lies above 0, and no curated link needed.
func TestTuneLearnsFromFeedback(t *testing.T) {
	cases, fb := twinLibrary()
	base := similarity.DefaultConfig()
	if r := rankOf(t, cases, base, fb[0].Paste, fb[0].ID); r >= 1 && r <= 5 {
		t.Fatalf("the helpful case already ranks %d: the library does not test anything", r)
	}
	s := Curated(cases, nil, nil)
	if err := s.Enough(5); err == nil {
		t.Fatal("a library without links or feedback is enough")
	}
	s.AddFeedback(cases, append(fb, caselib.Feedback{Paste: "x", ID: "NOPE", Helpful: true}))
	if s.Verdicts != 20 || s.Helpful != 10 || s.Judged != 10 || s.FeedbackUnknown != 1 || s.Groups != 10 {
		t.Fatalf("feedback signal: %d verdicts, %d helpful, %d pastes, %d unknown, %d groups",
			s.Verdicts, s.Helpful, s.Judged, s.FeedbackUnknown, s.Groups)
	}
	res, err := Tune(cases, base, s, Options{Folds: 5, K: 10, Bootstrap: eval.DefaultBootstrap()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Items["match"] != 10 || len(res.Items) != 1 {
		t.Errorf("lists %v, want 10 match", res.Items)
	}
	e, ok := res.Chosen.Values["second_stage"]
	if !ok || e >= base.Expand || res.CV.Delta.Lo <= 0 {
		t.Fatalf("chosen %q (second stage %v, learned %v), held-out gain %+v", res.ChosenName, e, ok, res.CV.Delta)
	}
	t.Logf("chosen %q, held-out gain %+v", res.ChosenName, res.CV.Delta)
	tuned := base
	Apply(&tuned, res.Chosen)
	for _, f := range fb {
		if f.Helpful {
			if r := rankOf(t, cases, tuned, f.Paste, f.ID); r < 1 || r > 2 {
				t.Errorf("tuned: %s ranks %d for %q, want 1 or 2", f.ID, r, f.Paste)
			}
		}
	}
}

// TestFeedbackLatestVerdictWins: a case judged twice for one paste keeps
// the latest verdict, and a paste with no helpful verdict makes no list.
func TestFeedbackLatestVerdictWins(t *testing.T) {
	cases, _ := twinLibrary()
	s := Curated(cases, nil, nil)
	s.AddFeedback(cases, []caselib.Feedback{{Paste: "kafka lag", ID: "H-0", Helpful: true},
		{Paste: " kafka lag\n", ID: "H-0", Helpful: false}, {Paste: "dns", ID: "H-2", Helpful: true}})
	if s.Judged != 2 || s.Match["paste 1"]["H-0"] != 0 || !slices.Equal(s.MatchLists(), []string{"paste 2"}) {
		t.Errorf("pastes %v, lists %v", s.Match, s.MatchLists())
	}
}
