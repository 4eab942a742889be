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
// What does not live here: the JSON types of requests and answers and their
// making from the engine's results (package api, shared with the CLI),
// scoring, ranking and explanations (package similarity), reading and validating case files (package
// similarity/caselib), and command-line flags (package main, which passes the
// thresholds it uses for its own commands in [Options]). No scoring logic
// lives here: every number the server shows comes from the engine.
//
// # Routes
//
//	GET  /                         the page: paste, Ctrl/Cmd+Enter, read the hits; /?q=… opens it with
//	                               that paste and matches it (the page keeps the paste in the address)
//	GET  /cases/{id}               one case, readable, with its related cases
//	GET  /dupes                    review probable duplicates one pair at a time: c confirm, d dismiss, s skip, u undo
//	POST /api/match                {"text","top","min_score","explain","filters":{"org","domain","since","until"}}
//	                               → {"hits":[…],"hidden","note"}; each hit has "remediation" and "resolved_after",
//	                               and "paste", "like", "like_score": how much of its score came from where;
//	                               "hidden" counts the top cases under min_score, "note" says how to see them.
//	                               caselink match --json prints the same types; a paste of stop words and
//	                               "top": 0 are refused (400) as the CLI refuses them
//	GET  /api/cases                {"total","offset","cases":[{"id","date","org","title"}…]} (?offset=&limit=, 100 a page)
//	GET  /api/cases/{id}           the case's display fields, tags and related cases
//	GET  /api/cases/{id}/related   {"hits":[…]}: the cases most similar to it
//	GET  /api/dupes                {"threshold","pending","total","offset","limit","pairs":[…]}: probable
//	                               duplicates with evidence and verdict, most probable first, dismissed
//	                               pairs left out (?threshold=&offset=&limit=, 100 a page; &pending=1:
//	                               undecided pairs only)
//	POST /api/dupes/decisions      {"a","b","verdict"}: not-duplicate, duplicate or undo → the decision
//	                               as recorded, in the decisions file caselink dupes reads
//	POST /api/feedback             {"text","id","helpful","rank","score"}: whether a hit helped, kept with the
//	                               paste in .caselink-feedback.jsonl beside the decisions file (caselib.Feedback)
//	GET  /healthz                  {"ok","status","cases","loaded_at","library","reloads","last_error"}; status "degraded", ok false and HTTP 503 after a failed reload
//	GET  /livez                    {"ok": true} while the process answers; no token, any Host
//	POST /api/alerts               Alertmanager's webhook (payload version 4) → {"alerts":[{"fingerprint","status",
//	                               "labels","hits":[…]}]}; with ServiceOptions.Notify, a firing group is posted to a
//	                               Slack incoming webhook with its top cases, scores, why and links
//	GET  /metrics                  Prometheus text format, every name caselink_… (requests by route and status,
//	                               latency, cases and terms indexed, reloads, decisions recorded)
//	GET, POST /sign-in             with tokens: the form a browser gives its token in (kept in a cookie)
//
// # Running it as a service
//
// [ServiceOptions] hold what a team sets (service.go, auth.go, limits.go,
// metrics.go, alerts.go): bearer [Tokens] with roles read and curate (401
// without a token, 403 with too weak a role; a browser is shown the sign-in
// page); a Host check against DNS rebinding (421 unless the listen address,
// a loopback address, localhost or a ServiceOptions.Hosts name); no
// cross-site writes (403 for a cross-origin Origin or Sec-Fetch-Site on any
// POST, 415 for a write whose body is not application/json); a paste limit
// (413 over ServiceOptions.MaxPaste, 64 KiB by default) and large pastes two
// at a time; a request log through log/slog (text or JSON) with a request
// id answered in X-Request-Id; and reloads only of a library whose
// fingerprint held still across two polls.
//
// The requests and answers are the wire types of package api
// ([api.MatchRequest], [api.HitList], [api.CaseList], [api.CaseView],
// [api.DupesAnswer], [api.DecisionRequest], [api.DecisionAnswer],
// [api.FeedbackRequest], [api.FeedbackAnswer], [api.Health]) encoded as JSON;
// the CLI's --json prints the same types. Every page's labels (match, case, dupes review, not found) are
// Korean with ?lang=ko or Accept-Language: ko
// (labels.go); its header names the library by its folders' base names.
//
// # Language
//
// Case text (titles, and a case view's fields) is shown in the language
// [Lang] picks: ?lang=en|ko, else the first of en and ko in the request's
// Accept-Language, else English. In Korean, each field shows its Korean
// text where the case has one and its English where not; the answer says
// Content-Language and varies by Accept-Language. The page passes its own
// ?lang= on to the API and to the case pages, and each case page has a
// language switch. Pastes may be in either language: matching does not
// depend on it.
//
// Every API error is {"error":"…"} with a status code: 400 for bad JSON,
// an empty text or a lang other than en or ko, 404 for an unknown case or route, 405 for a wrong method,
// 409 for a decision where there is no decisions file (the embedded seeds),
// 413 for a paste over the limit or a request body over 1 MiB (more with a
// larger paste limit), 401, 403, 415 and 421 as above.
package serve
