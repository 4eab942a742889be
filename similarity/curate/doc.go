// Package curate holds what a curator's tools decide, for the CLI and the
// server alike: which links relate proposes and keeps (the link-merge
// policy), the duplicate decisions a curator records (not a duplicate, a
// confirmed duplicate, undone), and the product defaults both front ends
// share (thresholds, top k).
//
// What does not live here: scoring (package similarity), reading and writing
// case files (package similarity/caselib), flags, terminals and HTTP
// (cmd/caselink).
package curate
