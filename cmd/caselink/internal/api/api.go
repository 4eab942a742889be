// Package api holds caselink's wire types: the JSON of the HTTP API's
// requests and answers, which the CLI's --json prints too (match, relate's
// hits, dupes), and the functions that make them from the engine's results
// (MatchAnswer, MatchHits, NewHit, NewDupePair, NewDupeCase, NewDupeClusterRecords). The
// CLI, the server and their tests share them, so the two contracts cannot
// drift apart.
//
// What does not live here: the handlers, routes, limits and errors' status
// codes (package serve), and any scoring (package similarity).
package api

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// MatchRequest is the body of POST /api/match.
type MatchRequest struct {
	Text    string  `json:"text"`    // the paste: alert lines, errors, a message (required)
	Top     *int    `json:"top"`     // how many hits, 1–100; missing or null means 5 (0 is refused, as by the CLI's --top)
	Filters Filters `json:"filters"` // optional
	// MinScore drops hits scoring below it, 0–1; missing or null means
	// the server's default (Options.MatchMinScore).
	MinScore *float64 `json:"min_score"`
	// Explain adds each hit's score parts ("explain"), as the CLI's
	// --explain prints them.
	Explain bool `json:"explain"`
}

// Filters narrow a match. Empty fields do not filter. Org and Domain accept
// a list or a single string.
type Filters struct {
	Org    stringList `json:"org"`    // keep cases of one of these organisations
	Domain stringList `json:"domain"` // keep cases with one of these domain tags
	Since  string     `json:"since"`  // keep cases dated on or after YYYY[-MM[-DD]]
	Until  string     `json:"until"`  // keep cases dated on or before YYYY[-MM[-DD]]
}

// stringList decodes a JSON list of strings or a single string.
type stringList []string

// UnmarshalJSON accepts a string or a list of strings.
func (l *stringList) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = stringList{s}
		return nil
	}
	return json.Unmarshal(b, (*[]string)(l))
}

// Hit is one case of a match or related answer.
type Hit struct {
	Rank  int     `json:"rank"`  // 1 for the best
	ID    string  `json:"id"`    // case id
	Score float64 `json:"score"` // similarity, 0–1, 4 decimals
	// Band is how far the hit can be trusted, from the precision measured
	// on judged sets for its kind of score: "strong" (right at least 9
	// times in 10), "possible" (about half) or "weak" (see curate.MatchBands
	// and curate.CaseBands).
	Band  string   `json:"band"`
	Date  string   `json:"date"`            // as in the case file; "" when unknown
	Org   string   `json:"org"`             // organisation
	Title string   `json:"title"`           // title in the answer's language (see serve.Lang)
	URL   string   `json:"url"`             // the case's url
	Why   []string `json:"why"`             // shared terms and tags, strongest first
	Tags  []string `json:"tags"`            // the case's namespaced tags
	Stage string   `json:"stage,omitempty"` // match only: "query" or "expand"
	// Match only: how much of Score the paste gave and how much the hit's
	// likeness to the best hit.
	*curate.Split
	// Remediation is what fixed the case: the first line of its first
	// steps. ResolvedAfter is how long it took ("25m"), when the case says.
	Remediation   []string `json:"remediation"`
	ResolvedAfter string   `json:"resolved_after,omitempty"`
	// Explain holds the score's parts, when the request asked for them.
	Explain *similarity.Explanation `json:"explain,omitempty"`
}

// CaseSummary is one case of GET /api/cases.
type CaseSummary struct {
	ID    string `json:"id"`
	Date  string `json:"date"`
	Org   string `json:"org"`
	Title string `json:"title"` // in the answer's language (see serve.Lang)
}

// CaseList is the answer of GET /api/cases?offset=&limit=: one page of the
// library's cases, in library order.
type CaseList struct {
	Total  int           `json:"total"` // cases in all pages
	Offset int           `json:"offset"`
	Cases  []CaseSummary `json:"cases"`
}

// HitList is the answer of POST /api/match and GET /api/cases/{id}/related,
// and what caselink match --json prints.
type HitList struct {
	Hits []Hit `json:"hits"`
	// Match only: Hidden is how many more of the top cases scored above 0
	// but below the minimum score and were left out; Note says so in a
	// sentence, with how to see them. Both are absent when none were.
	Hidden int    `json:"hidden,omitempty"`
	Note   string `json:"note,omitempty"`
	// More is how many cases scored above 0 but are not among the hits:
	// those Hidden counts and those past the top (match only).
	More int `json:"more,omitempty"`
	// Novel is true when no hit of a match reaches the "possible" band:
	// the front ends then say curate.NothingLike ("nothing like this here:
	// a new kind of incident?") instead of listing the weak hits, which
	// are still here.
	Novel bool `json:"novel,omitempty"`
	// Filters are notes on the filters: the names an organisation was read
	// as, a domain filter that leaves out the cases without a domain tag,
	// filters no case passes together.
	Filters []string `json:"filters,omitempty"`
	// Weights says, when explanations were asked for, where the engine's
	// weights came from: the defaults, or a [weights] table that caselink
	// tune wrote.
	Weights string `json:"weights,omitempty"`
}

// CaseView is the answer of GET /api/cases/{id}: what a reader needs of a
// case, its tags and the cases most similar to it. Its text is in the
// answer's language where the case has it (see serve.Lang).
type CaseView struct {
	ID          string   `json:"id"`
	Lang        string   `json:"lang"` // "ko" when some text is shown in Korean, else "en"
	Org         string   `json:"org"`
	Date        string   `json:"date"`
	Severity    string   `json:"severity"`
	URL         string   `json:"url"`
	Sources     []string `json:"sources"` // source urls
	Title       string   `json:"title"`
	Summary     string   `json:"summary"`
	Symptoms    string   `json:"symptoms"` // the symptoms text
	Detection   string   `json:"detection"`
	Trigger     string   `json:"trigger"`
	Lessons     string   `json:"lessons"`
	Remediation []string `json:"remediation"`
	Domain      []string `json:"domain"`
	Tags        []string `json:"tags"`
	Links       []string `json:"links"`   // the case file's own "related" ids
	Related     []Hit    `json:"related"` // the most similar cases, computed
}

// DupeCase is one side of a [DupePair].
type DupeCase struct {
	ID    string `json:"id"`
	Date  string `json:"date"`
	Org   string `json:"org"`
	Title string `json:"title"`
	// Text is what the record says (summary, symptoms, trigger, detection,
	// lessons, as written), Sources the links it gives (url, sources[].url):
	// what a curator reads to decide.
	Text    string   `json:"text"`
	Sources []string `json:"sources"`
}

// DupePair is two cases that are probably the same incident, with what
// they share.
type DupePair struct {
	A     DupeCase `json:"a"`
	B     DupeCase `json:"b"`
	Score float64  `json:"score"` // the dupes score, 0–1
	// Band is how far the pair can be trusted to be one incident
	// (curate.DupesBands): "strong", "possible" or "weak".
	Band string `json:"band"`
	// Similarity is the pair's text similarity, Event its same-event
	// evidence (0 when none); Score joins them.
	Similarity float64 `json:"similarity"`
	Event      float64 `json:"event"`
	// Verdict is "duplicate" for a pair a curator confirmed, "" when
	// undecided (dismissed pairs are not listed).
	Verdict  string   `json:"verdict"`
	Evidence []string `json:"evidence"` // same-event evidence first, then shared terms
	// Shared are the words the two share as each writes them (for the page
	// to mark in both texts).
	Shared []string `json:"shared"`
	// Cluster is the number of the pair's cluster in DupesAnswer.Clusters
	// (the records of one event; 0 when the pair links two clusters).
	Cluster int `json:"cluster"`
}

// DupeCluster is the records of one event, as the listed pairs join them:
// its cases, the best record first, and how many listed pairs it has.
type DupeCluster struct {
	N     int      `json:"n"`
	Score float64  `json:"score"`
	Cases []string `json:"cases"`
	Pairs int      `json:"pairs"`
	// PairIDs are its pairs, [A, B] each, on this page or not: what a
	// decision on the cluster records.
	PairIDs [][2]string `json:"pair_ids"`
}

// DupesAnswer is the answer of GET
// /api/dupes?threshold=&offset=&limit=&pending=: one page of the pairs
// scoring at least Threshold, most probable first, the pairs dismissed as
// not duplicates left out (and the confirmed ones too when Pending).
type DupesAnswer struct {
	Threshold float64    `json:"threshold"`
	Pending   bool       `json:"pending"`
	Total     int        `json:"total"` // pairs in all pages
	Offset    int        `json:"offset"`
	Limit     int        `json:"limit"`
	Pairs     []DupePair `json:"pairs"`
	// Clusters are the clusters of this page's pairs; with order=cluster
	// the pairs come cluster by cluster (the review page's order).
	Clusters []DupeCluster `json:"clusters"`
}

// DupeClusterList is what `caselink dupes --json` prints: one page of the
// clusters of probable duplicates, most probable first. The terminal pages
// by cluster (one event each), so its page is of clusters; its records and
// pairs are the answer's DupeCase and DupePair, as /api/dupes gives them.
type DupeClusterList struct {
	Threshold float64 `json:"threshold"`
	Total     int     `json:"total"` // clusters in all pages
	Pairs     int     `json:"pairs"` // pairs in all pages
	Offset    int     `json:"offset"`
	// Clusters are this page's clusters, each with all its records and
	// pairs.
	Clusters []DupeClusterRecords `json:"clusters"`
}

// DupeClusterRecords is one cluster of a [DupeClusterList]: its records,
// the best (the fullest, most linked) first, its pairs (Cluster = N), and
// the pairs that link it to other clusters without joining them (Cluster =
// 0: another event, or a repeat).
type DupeClusterRecords struct {
	N     int        `json:"n"`
	Score float64    `json:"score"`
	Cases []DupeCase `json:"cases"`
	Pairs []DupePair `json:"pairs"`
	Links []DupePair `json:"links,omitempty"`
}

// NewDupeClusterRecords is a listed cluster in the form of a
// [DupeClusterList], in language lg.
func NewDupeClusterRecords(ix *similarity.Index, cl curate.DupeCluster, lg string) DupeClusterRecords {
	out := DupeClusterRecords{N: cl.N, Score: similarity.RoundScore(cl.Score), Cases: []DupeCase{}, Pairs: []DupePair{}}
	for _, x := range cl.Cases {
		out.Cases = append(out.Cases, NewDupeCase(ix.Case(x), lg))
	}
	for _, pr := range cl.Pairs {
		out.Pairs = append(out.Pairs, NewDupePair(ix, pr, cl.N, lg))
	}
	for _, pr := range cl.Links {
		out.Links = append(out.Links, NewDupePair(ix, pr, 0, lg))
	}
	return out
}

// DecisionRequest is the body of POST /api/dupes/decisions: what a curator
// decided about the pair A, B. Verdict is "not-duplicate" (or "dismiss"),
// "duplicate" (or "confirm"), or "undo".
type DecisionRequest struct {
	A       string `json:"a"`
	B       string `json:"b"`
	Verdict string `json:"verdict"`
	// Pairs, when given instead of A and B, are the pairs of a cluster,
	// [A, B] each: the verdict is recorded for every one of them (a
	// decision on a cluster applies to its pairs).
	Pairs [][2]string `json:"pairs,omitempty"`
}

// DecisionAnswer is the answer of POST /api/dupes/decisions: the decision
// as recorded (A before B; Verdict "undo" for an undone pair).
type DecisionAnswer struct {
	A       string `json:"a"`
	B       string `json:"b"`
	Verdict string `json:"verdict"`
	Date    string `json:"date"`
}

// Health is the answer of GET /healthz, always with status 200 while the
// server answers. Status is "ok", or "degraded" when the last reload failed:
// LastError is its error (null when the last load succeeded), and the
// previous index keeps serving, so OK is false until a reload succeeds.
type Health struct {
	OK          bool    `json:"ok"`
	Status      string  `json:"status"` // "ok" or "degraded"
	Cases       int     `json:"cases"`
	LoadedAt    string  `json:"loaded_at"` // RFC 3339, UTC
	Library     string  `json:"library"`
	Reloads     int     `json:"reloads"`
	LastError   *string `json:"last_error"`
	LastErrorAt *string `json:"last_error_at,omitempty"`
}

// ErrorBody is the body of every API error: what went wrong, in a sentence.
type ErrorBody struct {
	Error string `json:"error"`
}

// NewDupePair is the answer's form of a listed pair of cluster n (0: a
// link between two clusters): both records with their text and sources in
// language lg, the evidence, the words they share. The server and
// `caselink dupes --json` both build their pairs with it.
func NewDupePair(ix *similarity.Index, p curate.DupePair, n int, lg string) DupePair {
	e := ix.EventEvidence(p.A, p.B)
	ev := e.Why()
	shared := slices.Clone(e.Rare)
	for _, w := range ix.ExplainDupe(p.A, p.B).Why(8) {
		if !slices.Contains(e.Rare, w) {
			ev = append(ev, w)
		}
	}
	for _, ab := range [][2]int{{p.A, p.B}, {p.B, p.A}} {
		for _, c := range ix.ExplainDupe(ab[0], ab[1]).Parts {
			if c.View != similarity.Tags && !slices.Contains(shared, c.Term) && len(shared) < 40 {
				shared = append(shared, c.Term)
			}
		}
	}
	return DupePair{
		A: NewDupeCase(ix.Case(p.A), lg), B: NewDupeCase(ix.Case(p.B), lg),
		Score: similarity.RoundScore(p.Score), Band: curate.DupesBands.Band(p.Score), Similarity: similarity.RoundScore(p.Similarity),
		Event: similarity.RoundScore(p.Event), Verdict: string(p.Verdict),
		Evidence: nonNil(ev), Shared: nonNil(shared), Cluster: n,
	}
}

// NewDupeCase is one record of a listed pair or cluster, with what it says
// (in language lg) and links to.
func NewDupeCase(c *caselib.Case, lg string) DupeCase {
	var text []string
	for _, t := range []caselib.Text{c.Summary, c.SymptomsText, c.Trigger, c.Detection, c.Lessons} {
		if x := strings.TrimSpace(t.In(lg)); x != "" {
			text = append(text, x)
		}
	}
	var src []string
	for _, u := range append([]string{c.URL}, sourceURLs(c)...) {
		if u = strings.TrimSpace(u); (strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) && !slices.Contains(src, u) {
			src = append(src, u)
		}
	}
	return DupeCase{ID: c.ID, Date: c.Date, Org: c.Org, Title: c.Title.In(lg), Text: strings.Join(text, "\n\n"), Sources: nonNil(src)}
}

// sourceURLs returns the urls of a case's sources list.
func sourceURLs(c *caselib.Case) []string {
	var us []string
	for _, s := range c.Sources {
		us = append(us, s.URL)
	}
	return us
}

// FeedbackRequest is the body of POST /api/feedback: whether the case ID,
// shown at Rank with Score for the paste Text, helped. The server keeps it
// with the paste in the feedback file beside the library's decisions
// (caselib.FeedbackFile), the signal a tuner can learn from.
type FeedbackRequest struct {
	Text    string  `json:"text"`    // the paste (required)
	ID      string  `json:"id"`      // the hit's case id (required)
	Helpful *bool   `json:"helpful"` // true or false (required)
	Rank    int     `json:"rank"`    // optional
	Score   float64 `json:"score"`   // optional
}

// FeedbackAnswer is the answer of POST /api/feedback: what was recorded.
type FeedbackAnswer struct {
	ID      string `json:"id"`
	Helpful bool   `json:"helpful"`
	Date    string `json:"date"`
}

// MatchAnswer runs q on ix and gives the answer the API and match --json
// share: the hits with their bands, titles in lang (and their score parts
// when explain), how many cases that scored are not shown and why, whether
// nothing reaches the possible band, and the filter notes (notes, then
// whether the filters keep no case at all). flags name the options as the
// front end spells them.
func MatchAnswer(ix *similarity.Index, q similarity.Query, lang string, explain bool, notes []string, flags curate.Flags) (HitList, error) {
	res, hidden := curate.Match(ix, q)
	more := curate.Unshown(ix, q, res)
	if len(res.Hits)+more == 0 {
		if n := curate.EmptyFilterNote(ix, q.Filter, flags); n != "" {
			notes = append(slices.Clip(notes), n) // notes may be shared by a batch's answers
		}
	}
	docs := make([]int, len(res.Hits))
	for i, h := range res.Hits {
		docs[i] = h.Doc
	}
	if err := ix.ReadCases(docs...); err != nil {
		return HitList{}, err
	}
	out := HitList{Hits: MatchHits(ix, res, lang, explain), Hidden: hidden, More: more,
		Note: curate.HiddenNote(more, hidden, q.MinScore, q.K, flags.MinScore, flags.Top), Filters: notes}
	scores := make([]float64, len(res.Hits))
	for i, h := range res.Hits {
		scores[i] = h.Score
	}
	// A paste that shares no word with any case kept gets "no similar
	// cases", as before: only weak hits make a "nothing like this".
	out.Novel = curate.Novel(scores...) && len(res.Hits)+more > 0
	return out, nil
}

// MatchHits turns the hits of a match result into API hits, titles in
// lang, each with its stage and score split, and its score parts when
// explain is set. The CLI's match --json prints the same.
func MatchHits(ix *similarity.Index, res *similarity.Result, lang string, explain bool) []Hit {
	out := make([]Hit, len(res.Hits))
	for i, h := range res.Hits {
		ex := ix.ExplainMatch(res, h)
		out[i] = NewHit(ix, i, h, ex, lang)
		out[i].Stage = h.Stage
		out[i].Split = curate.SplitOf(res, h)
		out[i].Band = curate.MatchBands.Band(h.Score)
		if explain {
			out[i].Explain = curate.Explained(ex)
		}
	}
	return out
}

// NewHit turns an engine hit at rank i (0-based), explained by ex, into an
// API hit, its title in lang, in the band of a case-to-case score (MatchHits
// sets a paste's).
func NewHit(ix *similarity.Index, i int, h similarity.Hit, ex similarity.Explanation, lang string) Hit {
	c := ix.Case(h.Doc)
	return Hit{Rank: i + 1, ID: h.ID, Score: similarity.RoundScore(h.Score), Band: curate.CaseBands.Band(h.Score), Date: c.Date, Org: c.Org, Title: c.Title.In(lang),
		URL: c.URL, Why: nonNil(ex.Why(6)), Tags: nonNil(similarity.CaseTags(c)),
		Remediation: nonNil(curate.Remedy(c, curate.RemedyLines)), ResolvedAfter: c.ResolvedAfter}
}

// ClusterDecisionAnswer is the answer of POST /api/dupes/decisions with
// "pairs": the decisions as recorded.
type ClusterDecisionAnswer struct {
	Decisions []DecisionAnswer `json:"decisions"`
}

// nonNil returns s, or an empty list for nil, so that JSON lists are
// never null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
