// Package similarity is caselink's engine: it turns incident cases into
// weighted sparse vectors and answers "which cases are most like this?" with
// exact scores in [0, 1] (a cosine between cases, a BM25-style share for a
// paste) and an explanation of every score.
//
// # Vectors
//
// Every case is read through four views (see [View]):
//
//   - symptoms: title, symptoms_text, detection and impact — what people saw;
//   - cause: summary, trigger and lessons — what happened and why;
//   - response: remediation and action_items — what was done;
//   - tags: namespaced tags such as domain:kubernetes, symptom:oom-killed,
//     component:service-discovery, root_cause:capacity, contributing:retry-storm.
//
// The text views are analyzed by package tokenize and weighted by TF-IDF
// (sublinear tf, smoothed idf); tags are weighted by idf and by what they
// tell in this library ([Config.TagLift]): a tag counts by how much more
// often the cases that share it are each other's text neighbours than
// random pairs, so a tag every case has, or one as broad as a priority,
// counts for almost nothing while curated tags keep their weight. Each
// view is L2-normalized (optionally with a pivoted length penalty for short
// texts, see [Config.Pivot]; the tag view by its norm before the lift, so a
// case whose tags tell little has a short tag part) and the views are
// concatenated with weights so that a case-to-case score is
//
//	score(a, b) = Σ_v w_v · cos_v(a, b) / (‖a‖·‖b‖),  ‖a‖² = Σ_{v in a} w_v·‖a_v‖²
//
// which is the plain cosine of the concatenated vectors: symmetric, in [0, 1],
// 1 for a case against itself, and a sum of per-term contributions (the
// explanation).
//
// In this package a query is what is searched with: a pasted text ([Query],
// analyzePaste) or a case's own vector for case-to-case scores (caseQuery).
// Three names keep the word for something narrower: [Config.Query] is the
// paste's weight per view; [Explanation.Query] and the stage "query" of a
// [Hit] are the first pass, the score from the query itself (against the
// second stage's "expand"). The pastes of a judged set are eval's, not this
// package's.
//
// A pasted text has no views and no tags, and is scored BM25-style: its terms
// weigh their idf-weighted share of the paste, and each case term its
// saturated frequency tf/(tf + K1·(1 − B + B·len/avglen)) ([Config.K1],
// [Config.B]), so a paste's score against a view is BM25 divided by the
// paste's best possible score, in [0, 1]. It is matched against each text
// view with the weights of [Config.Query], and tags may be inferred from its
// words ([Config.InferTags]), each weighing the share of the paste its words
// carry. A paste word the library never uses is read as the library word one
// edit from it, two for long words ([Config.Typos], fuzzy.go), weighing less
// than the word written right; [Config.TypoWords] leaves a common English
// word alone. A second stage re-ranks the first hits by their similarity to the
// best hit's full case vector ([Config.Expand]): a hit's score is
// (1 − e)·its paste score + e·s(best)·sim(hit, best), and explanations keep
// the two parts apart. The weight e shrinks as the first pass grows unsure of
// its best hit ([Config.ExpandGap]): a best hit tied with a different case
// lends nothing, so one wrong hit cannot drag the list. Unless the paste
// names an organisation, at most [Config.OrgCap] of the first five hits are
// its records (orgcap.go). An explanation names each term as the hit's case
// writes it, the paste's form beside it ("postgres (from
// PostgresWriteErrors)", "primry→primary"), read from the case's text so
// that it does not depend on which cases were loaded before (surface.go). A paste that comes with candidates
// (re-rank mode) gets all of them back, scored by the first pass alone unless
// [Config.RerankExpand].
//
// Relate and dupes multiply a pair's score by a date prior, a factor in
// [1 − w, 1] that shrinks as the two cases' dates grow apart: mild for relate
// ([Config.RelateDate]), strong for dupes ([Config.DupeDate]), since two
// reports of one incident are written close together.
//
// Relate reads a record written as a title and a body (nothing in its
// response view: a bug report, a status notice, a forum question) across
// its views too: a word of its title counts where another case has it in
// its body, and the other way round ([Config.CrossViews]), since a
// duplicate report often repeats the first one's title only in its body. A
// curated case, whose views hold different things, is compared view by
// view, both when its list is made and when it is in another's; dupes and
// match do not read across views.
//
// Dupes also looks for same-event evidence ([Index.EventEvidence]), for the
// same incident told twice in different words (a post-mortem and a two-line
// status notice): the same organisation, dates days apart, and the words of
// the incident both use, each weighed by how rarely the organisation writes
// it (its name and its template lines weigh nothing), or a source both
// cite; a write-up and a status notice of one day, each its site's only
// record of the day, need no shared words, and two notices of one site on
// different days count their shared words half. It is joined with the
// text score as 1 − (1 − text)(1 − event), and only exists within a case's
// small block of same-organisation, same-days cases, which is scored in
// full beside the pruned search; two records of one organisation on
// different days keep half their text score (a templated repeat), and the
// search widens until that cannot change the result, so dupes stays exact.
//
// Case-to-case scores and the second stage of match may weigh tag kinds
// differently ([Config.TagKinds], [Config.ExpandTagKinds]); the index keeps
// one set of weights for each, and one for pastes. In a library of a handful
// of cases, pastes and case-to-case scores lean on the tags
// ([Config.TextPrior]).
//
// # Index
//
// [Build] indexes [Document] values, the one form the engine reads: the text
// of each view and the tags, with the case they stand for. [NewDocument]
// makes a case's document, [Documents] a library's, and [BuildCases] does
// both steps. [Index.Reindex] indexes a changed library, tokenizing only the
// documents that changed. [Index.SaveCache] keeps an index in a file
// (package indexfile gives its byte layout: flat arrays, checksummed, mmapped
// and used in place), keyed by [CacheKey] of the documents and the Config, so
// that a process opening the same library again neither tokenizes nor weighs
// it; where that file lives is the caller's policy (cmd/caselink/cache.go).
// The Examples show Build, Match, Related and Duplicates on the seed cases.
//
// # Opening an index
//
// An index comes to be in one of three ways, which answer alike, byte for
// byte, and differ in what they hold of the cases (a fourth, the Builder's,
// gives an index like the third):
//
//   - built: [Build], [BuildCases] (and [Index.Reindex]) analyze and weigh
//     the documents. The index holds its cases.
//   - opened with its cases: [OpenCache] (with the documents) and
//     [OpenCacheCases] (with the cases, whose documents it makes only when
//     needed) map a file [Index.SaveCache] wrote under the key of those
//     documents. The index holds its cases and can do all a built one can,
//     saving again included.
//   - opened without its cases: [OpenCacheLazy] maps the file with a
//     function that reads case i when asked, and a key from a [DocsSum]
//     recorded earlier ([CacheKeyOf]), so the library is not read at all.
//     The file keeps what matching and filtering read of the cases (ids,
//     organisations, dates, domain tags, day numbers); [Index.ReadCase] and
//     [Index.ReadCases] read a case and return its error ([*CaseError]: its
//     file changed since). Such an index does not hold its cases
//     ([Index.HoldsCases] is false): [Index.Cases] panics rather than read
//     them all, [Index.Case] panics on a case that cannot be read (read the
//     cases to print with ReadCases first), dupes' same-event evidence
//     reads every case once (and panics with the *CaseError of one that
//     cannot be read), and Reindex builds afresh; saved again, it writes
//     the file it was opened from. It is for a command that prints a few
//     hits of an unchanged library (caselink match, dupes). When the
//     library's files are written again with the same documents (only
//     related lists changed), [Index.Reread] gives it the reader of the
//     files as they now are.
//
// A [Builder] builds an index of the last kind from cases given one at a
// time (read by caselib.Stream), analyzing and dropping them as they come,
// so that building never holds the library's text; it saves the file the
// whole library's build would. Given the index of the library before a
// change ([Builder.Reuse]), it tokenizes only the cases whose text or tags
// changed, told by a print of each case's content that the index and its
// file keep: what Reindex is to an index that holds its cases.
//
// An index opened from a file reads its arrays and strings from the
// file's mapping, and one built from its analysis (Reindex, Builder.Reuse)
// points into that mapping too. [Index.Close] gives the file back once no
// open index points into it: for a program that replaces its index while it
// runs (a server's reload), where each replaced file, renamed over on disk,
// would otherwise stay mapped, with its disk space and pages, for the life
// of the process.
//
// [Index] keeps the vectors of all cases in contiguous arrays and an inverted
// index from (term, view) to postings. Top-k is exact, and pruning never
// changes a result. Case-to-case searches (relate, dupes, the second stage
// of match) accumulate scores term at a time, largest contributions first,
// and read low-impact terms only for the candidates that can still reach
// the top k (MaxScore); a case-to-case score is the inner product of two
// vectors of norm at most 1, so Cauchy–Schwarz on the terms left (their
// norm, the case's own norm) bounds them too, which decides most cases when
// the bar is high, as in the second stage of match or in relate, where each
// search starts from a bar from the pairs already found (pairbars.go). The
// terms left are the long postings of common words, and each case keeps the
// norm of its part over such keys at a few posting lengths (levels.go), a
// bound often far smaller than its whole norm. A
// paste is searched by block-max MaxScore instead (blockmax.go): postings keep the largest weight of each block of 64, and
// in each window of cases only the terms whose bounds there can still lift
// a case to the k-th best are read in full, the common words, which cost
// most for what they can add, left out first, so their long postings are
// mostly skipped. Ties break by case id. A search is a short
// driver over named phases (see pass in search.go): order the terms by their
// upper bounds, accumulate postings up to the cut (or walk the windows),
// screen the touched cases through the filter and the date prior (in a
// large library, in case order, so that their sums and bounds are read as a
// stream), complete the candidates, and rescore the winners exactly.
//
// Memory: an index holds one float32 per case entry and one per posting for
// each of two weight sets (pastes' and relate's; the second stage of match
// reads relate's text weights and the pastes' tag weights, which are the
// same numbers), the analyzed entries packed (about 2 bytes each), and no
// copy of the documents it was built from unless they differ from their
// cases' (see Index.document). Figures are in eval/README.md.
//
// Weighting (idf, tf-idf, the pivot, tag kinds and lift, BM25 saturation,
// the view profiles) lives in weighting.go and taglift.go; the one
// merge-join of a query with a case vector, shared by scores and
// explanations, is Index.shared in search.go; the typo tolerance of pastes
// is fuzzy.go, block-max search of pastes blockmax.go.
//
// What does not live here: the case model, reading and writing case files,
// case dates and the curators' duplicate decisions (package
// similarity/caselib, and caselib/pgstore for PostgreSQL), turning text into
// terms (package tokenize), flags and terminals (cmd/caselink), product
// policy shared by the CLI and the server (cmd/caselink/internal/curate),
// HTTP (cmd/caselink/internal/serve), and measuring quality (package eval).
// No package under similarity/ but this one imports it.
package similarity
