package curate

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
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

// Match runs q on ix and says how many of the top q.K cases q.MinScore hid:
// hits scoring above 0 but below it. An answer that leaves cases out says
// so, and how to see them (see HiddenNote), rather than showing less in
// silence. The hits are those ix.Match(q) returns.
func Match(ix *similarity.Index, q similarity.Query) (res *similarity.Result, hidden int) {
	min := q.MinScore
	q.MinScore = 0
	res = ix.Match(q)
	kept := res.Hits[:0]
	for _, h := range res.Hits {
		if h.Score < min {
			if h.Score > 0 {
				hidden++
			}
			continue
		}
		kept = append(kept, h)
	}
	res.Hits = kept
	return res, hidden
}

// Unshown counts the cases that scored above 0 for q but are not among
// the hits of res (the result of Match(ix, q)): those the minimum score hid
// and those past the top k alike. "N more" then counts every case the paste
// shares a word or an inferred tag with, not only the top k.
func Unshown(ix *similarity.Index, q similarity.Query, res *similarity.Result) int {
	return max(0, ix.Scored(res, q)-len(res.Hits))
}

// HiddenNote is the line the CLI and the page show when cases that scored
// above 0 are not shown: more in all, hidden of them by the minimum score
// within the top k, the rest past it; and how to see them (minFlag and
// topFlag name the CLI's flags or the API's fields).
func HiddenNote(more, hidden int, minScore float64, top int, minFlag, topFlag string) string {
	if more == 0 && hidden == 0 {
		return ""
	}
	more = max(more, hidden)
	s := "s"
	if more == 1 {
		s = ""
	}
	ms := strconv.FormatFloat(minScore, 'f', -1, 64)
	wider := min(max(2*top, 20), 100) // what the API allows
	switch {
	case more == hidden:
		return fmt.Sprintf("%d more case%s scored below %s %s: %s 0 shows them", more, s, minFlag, ms, minFlag)
	case hidden == 0:
		return fmt.Sprintf("%d more case%s scored above 0, past the top %d: %s %d shows more", more, s, top, topFlag, wider)
	}
	return fmt.Sprintf("%d more cases scored above 0: %d below %s %s (%s 0 shows them), the rest past the top %d (%s %d shows more)",
		more, hidden, minFlag, ms, minFlag, top, topFlag, wider)
}

// CheckPaste refuses a paste that gives the engine nothing to match: blank,
// or only words caselink leaves out (stop words, punctuation). The CLI
// exits 2 and the API answers 400 with the same sentence.
func CheckPaste(ix *similarity.Index, text string) error {
	if strings.TrimSpace(text) == "" {
		return errors.New("nothing to match: the paste is blank")
	}
	if len(ix.Analyzer().Analyze(text)) == 0 {
		return errors.New("nothing to match: the paste has no word caselink uses (caselink analyze shows the terms of a text)")
	}
	return nil
}
