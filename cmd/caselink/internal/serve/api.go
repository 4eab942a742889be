package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
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
	var req api.MatchRequest
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
	ix := s.snap(r).ix
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
	out, err := api.MatchAnswer(ix, q, lg, req.Explain, notes, curate.APIFields)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, out)
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
	ix := s.snap(r).ix
	n := ix.Len()
	out := api.CaseList{Total: n, Offset: offset, Cases: []api.CaseSummary{}}
	for d := min(offset, n); d < min(offset+limit, n); d++ {
		c := ix.Case(d)
		out.Cases = append(out.Cases, api.CaseSummary{ID: c.ID, Date: c.Date, Org: c.Org, Title: c.Title.In(lg)})
	}
	writeJSON(w, http.StatusOK, out)
}

// query checks a match request and turns it into an engine query.
func (s *Server) query(req api.MatchRequest) (similarity.Query, error) {
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
	ix = s.snap(r).ix
	if doc, ok = ix.Lookup(r.PathValue("id")); !ok {
		writeError(w, http.StatusNotFound, "no case with id %q", r.PathValue("id"))
	}
	return ix, doc, lg, ok
}

func (s *Server) apiCase(w http.ResponseWriter, r *http.Request) {
	if ix, doc, lg, ok := s.pathCase(w, r); ok {
		v, err := s.caseView(ix, doc, lg)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "%v", err)
			return
		}
		writeJSON(w, http.StatusOK, v)
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
	hits, err := s.related(ix, doc, top, lg)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, api.HitList{Hits: hits})
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
	snap := s.snap(r)
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
	out := api.DupesAnswer{Threshold: q.Threshold, Pending: q.Pending, Total: page.Total, Offset: q.Offset, Limit: q.Limit,
		Pairs: []api.DupePair{}, Clusters: []api.DupeCluster{}}
	seen := map[int]bool{}
	for _, p := range page.Pairs {
		n := clusterOf[[2]int{p.A, p.B}]
		out.Pairs = append(out.Pairs, api.NewDupePair(ix, p, n, lg))
		if n > 0 && !seen[n] {
			seen[n] = true
			c := clusters[n-1]
			dc := api.DupeCluster{N: n, Score: similarity.RoundScore(c.Score), Pairs: len(c.Pairs)}
			for _, x := range c.Cases {
				dc.Cases = append(dc.Cases, ix.ID(x))
			}
			for _, p := range c.Pairs {
				dc.PairIDs = append(dc.PairIDs, [2]string{ix.ID(p.A), ix.ID(p.B)})
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

func (s *Server) apiDecision(w http.ResponseWriter, r *http.Request) {
	var req api.DecisionRequest
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
	ix := s.snap(r).ix
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
func (s *Server) record(w http.ResponseWriter, d caselib.Decision) (api.DecisionAnswer, bool) {
	if err := s.decisions.Record(d); err != nil {
		s.log.Printf("decision %s %s: %v", d.A, d.B, err)
		writeError(w, http.StatusInternalServerError, "cannot record the decision: %v", err)
		return api.DecisionAnswer{}, false
	}
	s.metrics.decided(string(d.Verdict))
	k := caselib.PairKey(d.A, d.B)
	out := api.DecisionAnswer{A: k[0], B: k[1], Verdict: string(d.Verdict), Date: d.Date}
	if d.Verdict == "" {
		out.Verdict = "undo"
	}
	return out, true
}

func (s *Server) apiFeedback(w http.ResponseWriter, r *http.Request) {
	var req api.FeedbackRequest
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
	if _, ok := s.snap(r).ix.Lookup(req.ID); !ok {
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
	writeJSON(w, http.StatusOK, api.FeedbackAnswer{ID: f.ID, Helpful: f.Helpful, Date: f.Date})
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

// related returns the top cases most similar to the case at doc, titles
// in lang. It reads the cases first (Index.ReadCases), so that one a
// streamed index cannot read again is an error, not a panic.
func (s *Server) related(ix *similarity.Index, doc, top int, lang string) ([]api.Hit, error) {
	hs := ix.Related(doc, top, s.opts.RelateMinScore)
	docs := make([]int, 0, len(hs)+1)
	docs = append(docs, doc)
	for _, h := range hs {
		docs = append(docs, h.Doc)
	}
	if err := ix.ReadCases(docs...); err != nil {
		return nil, err
	}
	out := make([]api.Hit, len(hs))
	for i, h := range hs {
		out[i] = api.NewHit(ix, i, h, ix.ExplainPair(doc, h.Doc), lang)
	}
	return out, nil
}

// caseView gathers what the API and the case page show of the case at doc:
// each text in lang where the case has it, else in the other language.
// It fails only when a streamed index cannot read a case again.
func (s *Server) caseView(ix *similarity.Index, doc int, lang string) (api.CaseView, error) {
	related, err := s.related(ix, doc, defaultTop, lang)
	if err != nil {
		return api.CaseView{}, err
	}
	c := ix.Case(doc)
	shown := "en"
	in := func(t caselib.Text) string {
		out := t.In(lang)
		if out != "" && out == t.KO && t.KO != t.EN {
			shown = "ko"
		}
		return out
	}
	v := api.CaseView{ID: c.ID, Org: c.Org, Date: c.Date, Severity: c.Severity, URL: c.URL, Title: in(c.Title),
		Summary: in(c.Summary), Symptoms: in(c.SymptomsText), Detection: in(c.Detection), Trigger: in(c.Trigger),
		Lessons: in(c.Lessons), Domain: nonNil(c.Domain), Tags: nonNil(similarity.CaseTags(c)),
		Links: nonNil(c.Related), Related: related, Sources: []string{}, Remediation: []string{}}
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
	return v, nil
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
	writeJSON(w, status, api.ErrorBody{Error: fmt.Sprintf(format, a...)})
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
	out := api.ClusterDecisionAnswer{Decisions: []api.DecisionAnswer{}}
	for _, d := range ds {
		a, ok := s.record(w, d)
		if !ok {
			return
		}
		out.Decisions = append(out.Decisions, a)
	}
	writeJSON(w, http.StatusOK, out)
}
