// Package eval measures how well caselink finds similar past incidents.
//
// It holds:
//
//   - Metrics for one ranked list against graded relevance judgments (Score)
//     and their averages (Mean, ScoreQueries, ScoreRelate): nDCG@k, MRR, P@1,
//     P@1 of the best-graded case, Recall@5 and MAP. The definitions follow the
//     reference scorer score.py of the shared benchmark tools (shared/bench,
//     beside the repository) exactly, so numbers computed here and there agree
//     (see README.md).
//   - The judged-set formats and their readers: queries as JSON Lines
//     (ReadQueries, ParseQueries) and related-case pairs as TSV (ReadPairs,
//     ParsePairs).
//   - Plain-text and JSON output of results (WriteTable, WriteJSON).
//   - The runner that drives the engine over a judged set for match, relate
//     and dupes (Run, CheckSet), the precision and recall of dupes over
//     thresholds (MeasureDupes, WriteDupesTable), and the ablation grid the
//     defaults were chosen with (Grid, RunGrid, RunVariants).
//   - The calibration of the confidence bands: the judged hits of a run
//     with their scores (MatchHits, RelatedHits; Without leaves out each
//     paste's own incidents, to ask about incidents the library lacks), the
//     precision of a score band (Precision, Bands, WriteBands), the
//     threshold from which hits stay right (Threshold) and how often no hit
//     reaches a band (Silent).
//   - Validation of differences: per-query and per-subject scores (Row's
//     PerQuery, PerSubject, DupesPerSubject), percentile bootstrap intervals
//     of a mean and paired intervals of a difference (Bootstrap, Intervals,
//     Compare), a grid ranked by the lower bound of its gain over the
//     default (Matrix.Rank) and grouped cross-validation of the grid
//     (Themes, AssignFolds, CrossValidate).
//
// What does not live here: command-line flags and terminal handling (the
// command in cmd/caselink), any scoring logic of the engine itself
// (package similarity), and drawing plots (the command's --plot). Package
// eval imports the standard library, package similarity (with its case
// library) and gonum's stat package (means and quantiles of the bootstrap,
// the ROC sweep of the precision-recall curve).
//
// The judged set for the four seed cases ships in testdata/seeds.
package eval
