package curate

import (
	"slices"
	"strings"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// RemedyLines is how many remediation steps a match hit shows.
const RemedyLines = 3

// Remedy returns what fixed case c, as an on-call engineer wants it first:
// the first line of each of its first n remediation steps (English, else
// Korean), blank steps left out.
func Remedy(c *caselib.Case, n int) []string {
	var out []string
	for _, r := range c.Remediation {
		if len(out) >= n {
			break
		}
		t := r.EN
		if strings.TrimSpace(t) == "" {
			t = r.KO
		}
		t, _, _ = strings.Cut(strings.TrimSpace(t), "\n")
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// ExplainParts is how many score parts an explained hit lists; the others
// are summed in the explanation's remainder.
const ExplainParts = 12

// Explained returns a hit's explanation as the CLI and the API print it:
// its ExplainParts largest parts and the remainder, every number rounded to
// 4 decimals like the scores.
func Explained(ex similarity.Explanation) *similarity.Explanation {
	ex = ex.Top(ExplainParts)
	r := similarity.RoundScore
	ex.Score, ex.Query, ex.Expand, ex.RestScore = r(ex.Score), r(ex.Query), r(ex.Expand), r(ex.RestScore)
	ex.Parts = slices.Clone(ex.Parts)
	for i := range ex.Parts {
		ex.Parts[i].Score = r(ex.Parts[i].Score)
	}
	for i := range ex.Views {
		ex.Views[i] = r(ex.Views[i])
	}
	return &ex
}

// Split is how the CLI and the API show where a match hit's score came
// from: Paste from the paste itself, LikeScore from the hit's similarity to
// the best hit Like (the second stage), rounded like the scores. Like is ""
// when the second stage did not add to the hit's score.
type Split struct {
	Paste     float64 `json:"paste"`
	Like      string  `json:"like,omitempty"`
	LikeScore float64 `json:"like_score,omitempty"`
}

// SplitOf returns the Split of hit h of match result r.
func SplitOf(r *similarity.Result, h similarity.Hit) *Split {
	paste, like, id := r.Split(h)
	s := &Split{Paste: similarity.RoundScore(paste)}
	if like = similarity.RoundScore(like); like > 0 {
		s.Like, s.LikeScore = id, like
	}
	return s
}
