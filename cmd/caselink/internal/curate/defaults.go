package curate

import "fmt"

// The product defaults the CLI and the server share.
const (
	// MatchTop is how many hits match shows by default.
	MatchTop = 5
	// MatchMinScore is the lowest score match shows by default: below it a
	// hit shares little more than a common word with the paste. A paste's
	// score is the idf-weighted share of its terms a case holds, saturated
	// BM25 style, so scores run lower than a cosine's: the best hit of each
	// of the judged on-call pastes scores 0.034–0.23 (median 0.087) in the
	// noisy library, the seeds' best hits 0.042–0.15; unrelated pastes (a
	// coffee machine, a jammed printer) score under 0.015 against the seeds.
	MatchMinScore = 0.02
	// RelateTop is how many related cases relate links per case by default.
	RelateTop = 5
	// RelateMinScore is the lowest relate score (similarity with the mild
	// date prior) linked by default. It means the same in a library of any
	// size: on random sub-libraries of the judged incidents of 3 to 48
	// cases, 80–93% of the links at or above it are judged related; 80–85%
	// for the judged cases inside the 6,898-case noisy library (82 links
	// there, 70 judged) and 87–88% inside the 100,000-case scale-up (a copy
	// of a judged case counting as it); links scoring 0.125–0.15 are judged
	// related only 30–70% of the time (eval TestRelateThresholdAcrossSizes). The
	// case-to-case score needs no size correction because the text views
	// of a small library are already discounted (Config.TextPrior). On the
	// four embedded seeds, four different incidents, no pair reaches it.
	RelateMinScore = 0.15
	// DupesThreshold is the dupes score (similarity discounted by the date
	// prior, joined with same-event evidence) from which two cases are
	// listed as probable duplicates, unless told otherwise. Chosen by
	// measured precision on the incidents-judged noisy library (6,898
	// cases; pairs judged by reading both records,
	// eval/notes/dupes-threshold.md): 12 of 13 sampled pairs of ranks 101–500 (scores above
	// about 0.86) are one incident, 9 of 15 of ranks 501–1000 (0.71–0.86):
	// from 0.7 down the list is more often wrong than a curator's time is
	// worth. There it lists about 1,000 pairs; on GitBugs, whose one
	// organisation gives no same-event evidence, it keeps the pairs whose
	// text alone is that close.
	DupesThreshold = 0.7
	// DupesLimit is how many clusters of probable duplicates dupes shows
	// in the terminal unless told otherwise: one screen, so that the list
	// is something a curator finishes, page by page.
	DupesLimit = 5
)

// CheckScore reports a score bound outside [0, 1], naming it: every score
// caselink gives is in [0, 1], so such a bound keeps everything or nothing.
func CheckScore(name string, v float64) error {
	if !(v >= 0 && v <= 1) { // also NaN
		return fmt.Errorf("%s must be between 0 and 1, got %v", name, v)
	}
	return nil
}

// CheckTop reports a number of results that is not at least 1, naming it.
func CheckTop(name string, k int) error {
	if k < 1 {
		return fmt.Errorf("%s must be at least 1, got %d", name, k)
	}
	return nil
}
