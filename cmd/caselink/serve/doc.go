// Package serve is the HTTP side of `caselink serve`: a JSON API and a
// paste-your-symptoms web page over one in-memory index of an incident
// library.
//
// What lives here: the [Server] (routes, request decoding and limits, JSON
// and HTML answers, timeouts, graceful shutdown), the background reload that
// watches the library's files and swaps the index atomically, and the web
// page's assets (HTML templates, CSS and vanilla JavaScript), embedded in the
// binary so the page works offline.
//
// What does not live here: scoring, ranking and explanations (package
// similarity), reading and validating case files (package
// similarity/caselib), and command-line flags (package main, which passes the
// thresholds it uses for its own commands in [Options]). No scoring logic
// lives here: every number the server shows comes from the engine.
//
// # Routes
//
//	GET  /                         the page: paste, Ctrl/Cmd+Enter, read the hits
//	GET  /cases/{id}               one case, readable, with its related cases
//	GET  /dupes                    review probable duplicates one pair at a time: c confirm, d dismiss, s skip, u undo
//	POST /api/match                {"text","top","filters":{"org","domain","since","until"}} → {"hits":[…]}
//	GET  /api/cases/{id}           the case's display fields, tags and related cases
//	GET  /api/cases/{id}/related   {"hits":[…]}: the cases most similar to it
//	GET  /api/dupes                {"threshold","pending","total","offset","limit","pairs":[…]}: probable
//	                               duplicates with evidence and verdict, most probable first, dismissed
//	                               pairs left out (?threshold=&offset=&limit=, 100 a page; &pending=1:
//	                               undecided pairs only)
//	POST /api/dupes/decisions      {"a","b","verdict"}: not-duplicate, duplicate or undo → the decision
//	                               as recorded, in the decisions file caselink dupes reads
//	GET  /healthz                  {"ok","cases","loaded_at","library","reloads","last_error"}
//
// The answers are the exported types of this package ([MatchRequest],
// [HitList], [CaseView], [DupesAnswer], [DecisionRequest], [DecisionAnswer], [Health]) encoded as JSON.
//
// Every API error is {"error":"…"} with a status code: 400 for bad JSON or
// an empty text, 404 for an unknown case or route, 405 for a wrong method,
// 409 for a decision where there is no decisions file (the embedded seeds),
// 413 for a request body over 1 MiB.
package serve
