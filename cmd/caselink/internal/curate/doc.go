// Package curate holds what a curator's tools decide, for the CLI and the
// server alike: which links relate proposes and keeps (the link-merge
// policy, ProposeLinks, with the dry run's Diff), the link checks of
// `caselink check` (CheckLinks), the dupes list a curator works through
// with the decisions already recorded (ListDupes), grouped into clusters of
// one event each, a decision on a cluster applying to its pairs
// (ListClusters, ClusterDecisions), the product defaults
// both front ends share (thresholds, top k, and the checks of such options),
// the confidence bands every hit is shown with and the "nothing like this
// here" rule (MatchBands, CaseBands, DupesBands, Novel), the filters checked
// against the library with organisation aliases and did-you-mean
// (ResolveFilter, orgs.txt), the count of cases a match did not show
// (Unshown, HiddenNote),
// and what a hit shows of a past case (what fixed it, its explanation cut to
// size).
//
// It lives under cmd/caselink/internal because only the command and its
// server use it: product policy, not engine.
//
// What does not live here: scoring (package similarity), reading and writing
// case files and the decision model and stores (package similarity/caselib),
// flags, terminals and HTTP (cmd/caselink).
package curate
