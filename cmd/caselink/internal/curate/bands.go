package curate

import "math"

// Band words: how far a person can trust a hit, the same words for every
// kind of score.
const (
	// Strong: hits are right (judged related or better) at least 9 times
	// in 10 on the judged sets.
	Strong = "strong"
	// Possible: worth reading; right about half the time or more.
	Possible = "possible"
	// Weak: shares words with the paste or the case, seldom more.
	Weak = "weak"
)

// Thresholds are the lowest scores of the strong and possible bands of one
// kind of score.
type Thresholds struct {
	Strong, Possible float64
}

// Band returns the band word of score s. Scores are shown to 2 decimals,
// so s is banded as shown: a hit shown as 0.05 is in the band from 0.05.
func (t Thresholds) Band(s float64) string {
	s = math.Round(s*100) / 100
	switch {
	case s >= t.Strong:
		return Strong
	case s >= t.Possible:
		return Possible
	}
	return Weak
}

// The bands of each kind of score, set from the precision measured on the
// judged sets: eval/notes/confidence-bands.md gives the figures and
// the one command that measures them again after a change to the scoring.
// Match and case-to-case scores differ in scale (a paste's score is its
// BM25 share, a case's a cosine), so each kind has its own.
var (
	// MatchBands are those of match's paste scores.
	MatchBands = Thresholds{Strong: 0.05, Possible: 0.03}
	// CaseBands are those of case-to-case scores: relate, match --like and
	// a case page's similar cases.
	CaseBands = Thresholds{Strong: 0.18, Possible: 0.12}
	// DupesBands are those of the dupes score, where right means one
	// incident: on the judged pairs of eval/README.md, "Dupes precision"
	// (re-measured with caselink eval --dupes-judged), pairs from about
	// 0.86 are one incident 12 times in 13 (and 54 in 58 of the check
	// set's first 100), those from 0.7 (DupesThreshold) to 0.86 9 in 15.
	DupesBands = Thresholds{Strong: 0.86, Possible: DupesThreshold}
)

// NothingLike is what match says instead of a list when no hit reaches the
// possible band: on the judged pastes, the best hit of a paste whose
// incidents were removed from the library is under it far more often than
// when they are there (eval/notes/confidence-bands.md).
const NothingLike = "nothing like this here: a new kind of incident?"

// Novel reports whether a match's scores (best first) leave nothing in the
// possible band or above: then NothingLike is said instead of the hits.
func Novel(scores ...float64) bool {
	for _, s := range scores {
		if MatchBands.Band(s) != Weak {
			return false
		}
	}
	return true
}
