// Package curate holds what a curator's tools decide, for the CLI and the
// server alike: which links relate proposes and keeps (the link-merge
// policy, ProposeLinks, with the dry run's Diff), the link checks of
// `caselink check` (CheckLinks), the duplicate decisions a curator records
// (not a duplicate, a confirmed duplicate, undone), the product defaults
// both front ends share (thresholds, top k, and the checks of such options),
// and what a hit shows of a past case (what fixed it, its explanation cut to
// size).
//
// What does not live here: scoring (package similarity), reading and writing
// case files (package similarity/caselib), flags, terminals and HTTP
// (cmd/caselink).
package curate
