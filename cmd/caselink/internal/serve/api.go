package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// MaxBodyBytes is the largest request body the API reads; a larger one is
// answered 413.
const MaxBodyBytes = 1 << 20

// Limits on how many hits one request may ask for.
const (
	defaultTop = 5
	maxTop     = 100
	maxDupes   = 1000 // pairs per /api/dupes page
	maxCases   = 1000 // cases per /api/cases page
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
	Title string   `json:"title"`           // title in the answer's language (see [Lang])
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
	Title string `json:"title"` // in the answer's language (see [Lang])
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
// answer's language where the case has it (see [Lang]).
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

// Health is the answer of GET /healthz: status 200 when the library in
// force is the last one read, 503 when degraded, so that a load balancer
// takes a replica serving an old library out. Status is "ok", or
// "degraded" when the last reload failed: LastError is its error (null
// when the last load succeeded), and the previous index keeps serving, so
// OK is false until a reload succeeds. (GET /livez says only that the
// process answers.)
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

// errorBody is every API error.
type errorBody struct {
	Error string `json:"error"`
}

// routes builds the server's mux. Each API path is registered twice: with
// its method, and without one to answer other methods with a JSON 405 (a
// pattern with a method is the more specific, so it wins for that method).
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	api := func(method, path string, h http.HandlerFunc) {
		mux.HandleFunc(method+" "+path, h)
		allow := method
		if method == http.MethodGet {
			allow = "GET, HEAD"
		}
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, "method %s not allowed: use %s", r.Method, method)
		})
	}
	api(http.MethodPost, "/api/match", s.apiMatch)
	api(http.MethodGet, "/api/cases", s.apiCases)
	api(http.MethodGet, "/api/cases/{id}", s.apiCase)
	api(http.MethodGet, "/api/cases/{id}/related", s.apiRelated)
	api(http.MethodGet, "/api/dupes", s.apiDupes)
	api(http.MethodPost, "/api/dupes/decisions", s.apiDecision)
	api(http.MethodPost, "/api/feedback", s.apiFeedback)
	api(http.MethodGet, "/healthz", s.apiHealth)
	api(http.MethodGet, livePath, s.apiLive)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: %s", r.URL.Path)
	})
	s.serviceRoutes(mux, api)
	s.pageRoutes(mux)
	return s.middleware(secure(mux))
}

// secure sets the headers every answer carries: a strict content security
// policy (the page uses only its own scripts and styles) and no sniffing.
func secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
			"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// Lang picks the language of an answer's text, "en" or "ko": the query
// parameter lang=en|ko when given (any other value is an error), else the
// first of en and ko in the Accept-Language header by its weights, else
// "en". A case's Korean text is shown where it has one, its English where
// not.
func Lang(r *http.Request) (string, error) {
	if l := r.URL.Query().Get("lang"); l != "" {
		if l != "en" && l != "ko" {
			return "", fmt.Errorf("lang must be en or ko, got %q", l)
		}
		return l, nil
	}
	best, bestQ := "en", 0.0
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		tag, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		if tag != "en" && tag != "ko" {
			continue
		}
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		if q > bestQ {
			best, bestQ = tag, q
		}
	}
	return best, nil
}

// lang is Lang for a handler: on a bad lang parameter it answers 400 and
// returns ok false. It marks the answer as varying by Accept-Language.
func lang(w http.ResponseWriter, r *http.Request) (string, bool) {
	w.Header().Add("Vary", "Accept-Language")
	l, err := Lang(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return "", false
	}
	w.Header().Set("Content-Language", l)
	return l, true
}

func (s *Server) apiMatch(w http.ResponseWriter, r *http.Request) {
	lg, ok := lang(w, r)
	if !ok {
		return
	}
	var req MatchRequest
	if status, err := decodeBody(w, r, &req); err != nil {
		writeError(w, status, "%v", err)
		return
	}
	q, err := s.query(req)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	release, ok := s.admitPaste(w, r, req.Text)
	if !ok {
		return
	}
	defer release()
	ix := s.cur.Load().ix
	if err := curate.CheckPaste(ix, q.Text); err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	filter, notes, err := curate.ResolveFilter(ix, q.Filter, curate.APIFields)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	q.Filter = filter
	writeJSON(w, http.StatusOK, MatchAnswer(ix, q, lg, req.Explain, notes, curate.APIFields))
}

// MatchAnswer runs q on ix and gives the answer the API and match --json
// share: the hits with their bands, titles in lang (and their score parts
// when explain), how many cases that scored are not shown and why, whether
// nothing reaches the possible band, and the filter notes (notes, then
// whether the filters keep no case at all). flags name the options as the
// front end spells them.
func MatchAnswer(ix *similarity.Index, q similarity.Query, lang string, explain bool, notes []string, flags curate.Flags) HitList {
	res, hidden := curate.Match(ix, q)
	more := curate.Unshown(ix, q, res)
	if len(res.Hits)+more == 0 {
		if n := curate.EmptyFilterNote(ix, q.Filter, flags); n != "" {
			notes = append(slices.Clip(notes), n) // notes may be shared by a batch's answers
		}
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
	return out
}

func (s *Server) apiCases(w http.ResponseWriter, r *http.Request) {
	lg, ok := lang(w, r)
	if !ok {
		return
	}
	offset, limit, ok := pageParams(w, r, maxCases)
	if !ok {
		return
	}
	ix := s.cur.Load().ix
	n := ix.Len()
	out := CaseList{Total: n, Offset: offset, Cases: []CaseSummary{}}
	for d := min(offset, n); d < min(offset+limit, n); d++ {
		c := ix.Case(d)
		out.Cases = append(out.Cases, CaseSummary{c.ID, c.Date, c.Org, c.Title.In(lg)})
	}
	writeJSON(w, http.StatusOK, out)
}

// query checks a match request and turns it into an engine query.
func (s *Server) query(req MatchRequest) (similarity.Query, error) {
	if strings.TrimSpace(req.Text) == "" {
		return similarity.Query{}, errors.New(`"text" is empty: paste alert lines, error messages or a message`)
	}
	top := defaultTop
	if req.Top != nil {
		top = *req.Top
	}
	if err := curate.CheckTop(`"top"`, top); err != nil {
		return similarity.Query{}, err
	}
	if top > maxTop {
		return similarity.Query{}, fmt.Errorf(`"top" must be between 1 and %d, got %d`, maxTop, top)
	}
	f := req.Filters
	filter := similarity.Filter{Orgs: nonEmpty(f.Org), Domains: nonEmpty(f.Domain), Since: f.Since, Until: f.Until}
	if err := filter.Validate(); err != nil {
		return similarity.Query{}, err
	}
	minScore := s.opts.MatchMinScore
	if req.MinScore != nil {
		if err := curate.CheckScore(`"min_score"`, *req.MinScore); err != nil {
			return similarity.Query{}, err
		}
		minScore = *req.MinScore
	}
	return similarity.Query{Text: req.Text, K: top, MinScore: minScore, Filter: filter}, nil
}

// pathCase reads the language and the case {id} of a request to a case's
// route, with the index it is in; when either is wrong it writes the error
// answer and returns false.
func (s *Server) pathCase(w http.ResponseWriter, r *http.Request) (ix *similarity.Index, doc int, lg string, ok bool) {
	if lg, ok = lang(w, r); !ok {
		return nil, 0, "", false
	}
	ix = s.cur.Load().ix
	if doc, ok = ix.Lookup(r.PathValue("id")); !ok {
		writeError(w, http.StatusNotFound, "no case with id %q", r.PathValue("id"))
	}
	return ix, doc, lg, ok
}

func (s *Server) apiCase(w http.ResponseWriter, r *http.Request) {
	if ix, doc, lg, ok := s.pathCase(w, r); ok {
		writeJSON(w, http.StatusOK, s.caseView(ix, doc, lg))
	}
}

func (s *Server) apiRelated(w http.ResponseWriter, r *http.Request) {
	ix, doc, lg, ok := s.pathCase(w, r)
	if !ok {
		return
	}
	top, err := intParam(r, "top", defaultTop, 1, maxTop)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, HitList{Hits: s.related(ix, doc, top, lg)})
}

func (s *Server) apiDupes(w http.ResponseWriter, r *http.Request) {
	lg, ok := lang(w, r)
	if !ok {
		return
	}
	q, byCluster, ok := dupesParams(w, r, s.opts.DupesThreshold)
	if !ok {
		return
	}
	var decisions []caselib.Decision
	if s.decisions != nil {
		var err error
		if decisions, err = s.decisions.Load(); err != nil {
			writeError(w, http.StatusInternalServerError, "cannot read the decisions: %v", err)
			return
		}
	}
	snap := s.cur.Load()
	ix := snap.ix
	all := snap.pairs(q.Threshold)
	clusters := curate.PageClusters(ix, all, decisions, curate.DupesQuery{Threshold: q.Threshold, Pending: q.Pending}).Clusters
	clusterOf := map[[2]int]int{}
	var ordered []curate.DupePair
	for _, c := range clusters {
		for _, p := range c.Pairs {
			clusterOf[[2]int{p.A, p.B}] = c.N
			ordered = append(ordered, p)
		}
	}
	page := curate.Page(ix, all, decisions, q)
	if byCluster {
		// The pairs of one cluster together; a weak link between two
		// clusters after them all.
		for _, p := range curate.Page(ix, all, decisions, curate.DupesQuery{Threshold: q.Threshold, Pending: q.Pending}).Pairs {
			if clusterOf[[2]int{p.A, p.B}] == 0 {
				ordered = append(ordered, p)
			}
		}
		lo := min(q.Offset, len(ordered))
		page.Pairs = ordered[lo:min(len(ordered), lo+q.Limit)]
	}
	out := DupesAnswer{Threshold: q.Threshold, Pending: q.Pending, Total: page.Total, Offset: q.Offset, Limit: q.Limit,
		Pairs: []DupePair{}, Clusters: []DupeCluster{}}
	seen := map[int]bool{}
	for _, p := range page.Pairs {
		n := clusterOf[[2]int{p.A, p.B}]
		out.Pairs = append(out.Pairs, NewDupePair(ix, p, n, lg))
		if n > 0 && !seen[n] {
			seen[n] = true
			c := clusters[n-1]
			dc := DupeCluster{N: n, Score: similarity.RoundScore(c.Score), Pairs: len(c.Pairs)}
			for _, x := range c.Cases {
				dc.Cases = append(dc.Cases, ix.Case(x).ID)
			}
			for _, p := range c.Pairs {
				dc.PairIDs = append(dc.PairIDs, [2]string{ix.Case(p.A).ID, ix.Case(p.B).ID})
			}
			out.Clusters = append(out.Clusters, dc)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// dupesParams reads the query of GET /api/dupes: the page, the threshold
// (default threshold), pending, and whether the pairs go by cluster; on a
// bad value it writes the 400 answer and returns false.
func dupesParams(w http.ResponseWriter, r *http.Request, threshold float64) (q curate.DupesQuery, byCluster, ok bool) {
	q = curate.DupesQuery{Threshold: threshold}
	if q.Offset, q.Limit, ok = pageParams(w, r, maxDupes); !ok {
		return q, false, false
	}
	if v := r.URL.Query().Get("threshold"); v != "" {
		var err error
		if q.Threshold, err = ParseNumber("threshold", v); err != nil || q.Threshold < 0 || q.Threshold > 1 {
			writeError(w, http.StatusBadRequest, "threshold must be a number from 0 to 1, got %q", v)
			return q, false, false
		}
	}
	switch v := r.URL.Query().Get("pending"); v {
	case "", "0", "false":
	case "1", "true":
		q.Pending = true
	default:
		writeError(w, http.StatusBadRequest, "pending must be true or false, got %q", v)
		return q, false, false
	}
	switch v := r.URL.Query().Get("order"); v {
	case "", "score":
	case "cluster":
		byCluster = true
	default:
		writeError(w, http.StatusBadRequest, "order must be score or cluster, got %q", v)
		return q, false, false
	}
	return q, byCluster, true
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
		Event: similarity.RoundScore(p.Event.Score), Verdict: string(p.Verdict),
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
		if u = strings.TrimSpace(u); WebURL(u) && !slices.Contains(src, u) {
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

func (s *Server) apiDecision(w http.ResponseWriter, r *http.Request) {
	var req DecisionRequest
	if status, err := decodeBody(w, r, &req); err != nil {
		writeError(w, status, "%v", err)
		return
	}
	if s.decisions == nil {
		writeError(w, http.StatusConflict, "the embedded seed cases have no folder to keep decisions in: serve a library with --cases")
		return
	}
	v, err := caselib.ParseVerdict(req.Verdict)
	if err != nil || strings.TrimSpace(req.Verdict) == "" {
		writeError(w, http.StatusBadRequest, `"verdict" %q: want not-duplicate, duplicate or undo`, req.Verdict)
		return
	}
	ix := s.cur.Load().ix
	if len(req.Pairs) > 0 {
		s.apiClusterDecision(w, ix, req.Pairs, v)
		return
	}
	for _, f := range []struct{ name, id string }{{"a", req.A}, {"b", req.B}} {
		if f.id == "" {
			writeError(w, http.StatusBadRequest, "%q is empty: want a case id", f.name)
			return
		}
		if _, ok := ix.Lookup(f.id); !ok {
			writeError(w, http.StatusNotFound, "%q: no case with id %q", f.name, f.id)
			return
		}
	}
	d := caselib.Decision{A: req.A, B: req.B, Verdict: v, Date: time.Now().UTC().Format(time.DateOnly)}
	if err := d.Check(); err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	if out, ok := s.record(w, d); ok {
		writeJSON(w, http.StatusOK, out)
	}
}

// record keeps decision d and returns it as answered; on failure it
// writes the error answer and returns false.
func (s *Server) record(w http.ResponseWriter, d caselib.Decision) (DecisionAnswer, bool) {
	if err := s.decisions.Record(d); err != nil {
		s.log.Printf("decision %s %s: %v", d.A, d.B, err)
		writeError(w, http.StatusInternalServerError, "cannot record the decision: %v", err)
		return DecisionAnswer{}, false
	}
	s.metrics.decided(string(d.Verdict))
	k := caselib.PairKey(d.A, d.B)
	out := DecisionAnswer{A: k[0], B: k[1], Verdict: string(d.Verdict), Date: d.Date}
	if d.Verdict == "" {
		out.Verdict = "undo"
	}
	return out, true
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

func (s *Server) apiFeedback(w http.ResponseWriter, r *http.Request) {
	var req FeedbackRequest
	if status, err := decodeBody(w, r, &req); err != nil {
		writeError(w, status, "%v", err)
		return
	}
	if s.feedback == nil {
		writeError(w, http.StatusConflict, "this library has no folder to keep feedback in: serve a library of files with --cases")
		return
	}
	switch {
	case strings.TrimSpace(req.Text) == "":
		writeError(w, http.StatusBadRequest, `"text" is empty: send the paste the hit answered`)
		return
	case req.Helpful == nil:
		writeError(w, http.StatusBadRequest, `"helpful" is missing: true or false`)
		return
	}
	if _, ok := s.cur.Load().ix.Lookup(req.ID); !ok {
		writeError(w, http.StatusNotFound, `"id": no case with id %q`, req.ID)
		return
	}
	f := caselib.Feedback{Paste: req.Text, ID: req.ID, Helpful: *req.Helpful, Rank: req.Rank, Score: req.Score,
		Date: time.Now().UTC().Format(time.DateOnly)}
	if err := s.feedback.Record(f); err != nil {
		s.log.Printf("feedback %s: %v", f.ID, err)
		writeError(w, http.StatusInternalServerError, "cannot record the feedback: %v", err)
		return
	}
	writeJSON(w, http.StatusOK, FeedbackAnswer{ID: f.ID, Helpful: f.Helpful, Date: f.Date})
}

func (s *Server) apiHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	h := s.health()
	status := http.StatusOK
	if !h.OK {
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, h)
}

// apiLive is GET /livez, the liveness probe: 200 while the process
// answers, with nothing about the library, so it needs no token.
func (s *Server) apiLive(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
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

// related returns the top cases most similar to the case at doc, titles
// in lang.
func (s *Server) related(ix *similarity.Index, doc, top int, lang string) []Hit {
	hs := ix.Related(doc, top, s.opts.RelateMinScore)
	out := make([]Hit, len(hs))
	for i, h := range hs {
		out[i] = NewHit(ix, i, h, ix.ExplainPair(doc, h.Doc), lang)
	}
	return out
}

// caseView gathers what the API and the case page show of the case at doc:
// each text in lang where the case has it, else in the other language.
func (s *Server) caseView(ix *similarity.Index, doc int, lang string) CaseView {
	c := ix.Case(doc)
	shown := "en"
	in := func(t caselib.Text) string {
		out := t.In(lang)
		if out != "" && out == t.KO && t.KO != t.EN {
			shown = "ko"
		}
		return out
	}
	v := CaseView{ID: c.ID, Org: c.Org, Date: c.Date, Severity: c.Severity, URL: c.URL, Title: in(c.Title),
		Summary: in(c.Summary), Symptoms: in(c.SymptomsText), Detection: in(c.Detection), Trigger: in(c.Trigger),
		Lessons: in(c.Lessons), Domain: nonNil(c.Domain), Tags: nonNil(similarity.CaseTags(c)),
		Links: nonNil(c.Related), Related: s.related(ix, doc, defaultTop, lang), Sources: []string{}, Remediation: []string{}}
	for _, src := range c.Sources {
		if src.URL != "" && src.URL != c.URL {
			v.Sources = append(v.Sources, src.URL)
		}
	}
	for _, t := range c.Remediation {
		if t := in(t); t != "" {
			v.Remediation = append(v.Remediation, t)
		}
	}
	v.Lang = shown
	return v
}

// decodeBody reads a JSON request body of at most MaxBodyBytes (more with
// a larger paste limit, see Server.bodyLimit) into v: one object, no
// unknown fields. It returns the status to answer on error.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) (int, error) {
	r.Body = http.MaxBytesReader(w, r.Body, bodyLimitOf(r))
	body, err := io.ReadAll(r.Body)
	if err == nil && !utf8.Valid(body) {
		// encoding/json would turn the bad bytes into U+FFFD and match
		// something else than was sent; the loader refuses such files too.
		at := 0
		for at < len(body) {
			r, n := utf8.DecodeRune(body[at:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			at += n
		}
		return http.StatusBadRequest, fmt.Errorf("request body is not UTF-8 (byte 0x%02X at offset %d)", body[at], at)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err == nil {
		err = dec.Decode(v)
	}
	if err == nil {
		// nothing but white space may follow the object
		if _, err2 := dec.Token(); err2 != io.EOF {
			err = errors.New("unexpected data after the JSON object")
			if err2 != nil && !isSyntaxError(err2) {
				err = err2
			}
		}
	}
	var tooBig *http.MaxBytesError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, fmt.Errorf("request body is larger than %d bytes", tooBig.Limit)
	case errors.Is(err, io.EOF):
		return http.StatusBadRequest, errors.New("empty request body: want a JSON object")
	case errors.As(err, &syn):
		return http.StatusBadRequest, fmt.Errorf("bad JSON at byte %d: %v", syn.Offset, err)
	case errors.As(err, &typ):
		if typ.Field != "" {
			return http.StatusBadRequest, fmt.Errorf("bad JSON: field %q: want %s, found %s", typ.Field, typ.Type, typ.Value)
		}
		return http.StatusBadRequest, fmt.Errorf("bad JSON: want an object, found %s", typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return http.StatusBadRequest, errors.New("bad JSON: unexpected end of the body")
	}
	return http.StatusBadRequest, fmt.Errorf("bad JSON: %v", strings.TrimPrefix(err.Error(), "json: "))
}

func isSyntaxError(err error) bool {
	var syn *json.SyntaxError
	return errors.As(err, &syn)
}

// intParam reads the integer query parameter name, def when absent.
// pageParams reads the paging parameters of a list, ?offset= (0 by default)
// and ?limit= (100 by default, at most max); on a bad one it answers 400
// and returns false.
func pageParams(w http.ResponseWriter, r *http.Request, max int) (offset, limit int, ok bool) {
	var err error
	if offset, err = intParam(r, "offset", 0, 0, math.MaxInt32); err == nil {
		limit, err = intParam(r, "limit", 100, 1, max)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return 0, 0, false
	}
	return offset, limit, true
}

func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s must be an integer between %d and %d, got %q", name, lo, hi, s)
	}
	return n, nil
}

// writeJSON writes v as the answer with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, "{\"error\":%q}\n", "cannot encode the answer")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// writeError writes {"error": message}.
func writeError(w http.ResponseWriter, status int, format string, a ...any) {
	writeJSON(w, status, errorBody{Error: fmt.Sprintf(format, a...)})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// nonEmpty drops blank entries of a filter list.
func nonEmpty(l []string) []string {
	var out []string
	for _, s := range l {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// ClusterDecisionAnswer is the answer of POST /api/dupes/decisions with
// "pairs": the decisions as recorded.
type ClusterDecisionAnswer struct {
	Decisions []DecisionAnswer `json:"decisions"`
}

// apiClusterDecision records verdict v for each of pairs (a cluster's),
// after checking them all: a bad pair records none.
func (s *Server) apiClusterDecision(w http.ResponseWriter, ix *similarity.Index, pairs [][2]string, v caselib.Verdict) {
	date := time.Now().UTC().Format(time.DateOnly)
	var ds []caselib.Decision
	for i, p := range pairs {
		for _, id := range p {
			if _, ok := ix.Lookup(id); !ok {
				writeError(w, http.StatusNotFound, "\"pairs\"[%d]: no case with id %q", i, id)
				return
			}
		}
		d := caselib.Decision{A: p[0], B: p[1], Verdict: v, Date: date}
		if err := d.Check(); err != nil {
			writeError(w, http.StatusBadRequest, "\"pairs\"[%d]: %v", i, err)
			return
		}
		ds = append(ds, d)
	}
	out := ClusterDecisionAnswer{Decisions: []DecisionAnswer{}}
	for _, d := range ds {
		a, ok := s.record(w, d)
		if !ok {
			return
		}
		out.Decisions = append(out.Decisions, a)
	}
	writeJSON(w, http.StatusOK, out)
}
