package serve

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/similarity/caselib"
)

// webFS holds the page templates (web/*.html) and the static assets
// (web/static: CSS and JavaScript), so the page works offline.
//
//go:embed web
var webFS embed.FS

// parsePages parses the page templates.
func parsePages() (*template.Template, error) {
	return template.New("").Funcs(template.FuncMap{
		"paras": paragraphs,
		"score": func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) },
		"pct":   barStep,
		"level": scoreLevel,
		"html":  func(s string) template.HTML { return template.HTML(s) }, // for the labels of labels.go only
		"web":   WebURL,
	}).ParseFS(webFS, "web/*.html")
}

// WebURL reports whether u, a URL from a case, may become a link: an
// absolute http or https URL with a host. A case is data anyone who writes
// to the library controls; a javascript: or data: URL in it is shown as
// text, never made a link (on the page, in review, in Slack messages).
func WebURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (strings.EqualFold(p.Scheme, "http") || strings.EqualFold(p.Scheme, "https")) && p.Host != ""
}

// pageRoutes adds the web page, the case pages and the static assets.
func (s *Server) pageRoutes(mux *http.ServeMux) {
	static, err := fs.Sub(webFS, "web/static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	files := http.StripPrefix("/static/", http.FileServerFS(static))
	mux.HandleFunc("GET /static/", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") { // no folder listings
			s.pageNotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
	mux.HandleFunc("GET /{$}", s.pageIndex)
	mux.HandleFunc("GET /cases/{id}", s.pageCase)
	mux.HandleFunc("GET /dupes", s.pageDupes)
	mux.HandleFunc("/", s.pageNotFound)
}

// pageHeader is what the header of every page shows about the library.
type pageHeader struct {
	Title     string // the document title
	Cases     int
	LoadedAt  string            // local time of the last load
	Library   string            // the library's name: folder base names or the table, never the server's paths
	LastError string            // the last failed reload, if any
	Lang      string            // the page's language, "en" or "ko"
	T         map[string]string // the page's labels in Lang
}

func (s *Server) header(title string) pageHeader {
	h := s.health()
	p := pageHeader{Title: title, Cases: h.Cases, Library: libraryName(s.opts.Paths), Lang: "en", T: pageLabels["en"]}
	if t, err := time.Parse(time.RFC3339, h.LoadedAt); err == nil {
		p.LoadedAt = t.Local().Format("2006-01-02 15:04")
	}
	if h.LastError != nil {
		p.LastError = *h.LastError
	}
	return p
}

// headerIn is header with the labels of language lg ("en" or "ko").
func (s *Server) headerIn(title, lg string) pageHeader {
	h := s.header(title)
	if t, ok := pageLabels[lg]; ok {
		h.Lang, h.T = lg, t
	}
	return h
}

func (s *Server) pageIndex(w http.ResponseWriter, r *http.Request) {
	// /?q=… opens the page with that paste, and the page matches it at
	// once: a search can be shared as a link.
	w.Header().Add("Vary", "Accept-Language")
	lg, err := Lang(r)
	if err != nil {
		lg = "en"
	}
	h := s.headerIn("caselink: find similar past incidents", lg)
	if lg == "ko" {
		h.Title = "caselink: 비슷한 과거 장애 찾기"
	}
	s.render(w, http.StatusOK, "index.html", struct {
		pageHeader
		MinScore float64
		Query    string
	}{h, s.opts.MatchMinScore, r.URL.Query().Get("q")})
}

// caseLink is one id of a case's own "related" list.
type caseLink struct {
	ID, Title string
	Known     bool // the id is in the library
}

func (s *Server) pageCase(w http.ResponseWriter, r *http.Request) {
	w.Header().Add("Vary", "Accept-Language")
	lg, err := Lang(r)
	if err != nil {
		lg = "en" // a page shows itself in English rather than an error
	}
	ix := s.snap(r).ix
	id := r.PathValue("id")
	doc, ok := ix.Lookup(id)
	if !ok {
		h := s.headerIn("", lg)
		h.Title = h.T["noCaseTitle"]
		s.render(w, http.StatusNotFound, "notfound.html", struct {
			pageHeader
			What string
		}{h, fmt.Sprintf(h.T["noCase"], id)})
		return
	}
	v, err := s.caseView(ix, doc, lg)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	links := make([]caseLink, len(v.Links))
	for i, l := range v.Links {
		links[i].ID = l
		if d, ok := ix.Lookup(l); ok {
			c, err := ix.ReadCase(d)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			links[i].Title, links[i].Known = c.Title.In(lg), true
		}
	}
	s.render(w, http.StatusOK, "case.html", struct {
		pageHeader
		Case      api.CaseView
		LinkCases []caseLink
		MinScore  float64
		Lang      string // the language asked for: links keep it
	}{s.headerIn(v.ID+" "+v.Title+" · caselink", lg), v, links, s.opts.RelateMinScore, lg})
}

// pageDupes is the review page of probable duplicates: one pair at a time,
// confirmed, dismissed or skipped from the keyboard (web/static/review.js).
func (s *Server) pageDupes(w http.ResponseWriter, r *http.Request) {
	h := s.headerFor(w, r)
	h.Title = h.T["dupesTitle"]
	file := h.T["noFolder"]
	if fs, ok := s.decisions.(*caselib.DecisionFile); ok {
		file = fs.Path()
	} else if s.decisions != nil {
		file = h.T["decisionStore"]
	}
	s.render(w, http.StatusOK, "dupes.html", struct {
		pageHeader
		Threshold     float64
		CanDecide     bool
		DecisionsFile string
	}{h, s.opts.DupesThreshold, s.decisions != nil, file})
}

func (s *Server) pageNotFound(w http.ResponseWriter, r *http.Request) {
	h := s.headerFor(w, r)
	h.Title = h.T["notFoundTitle"]
	s.render(w, http.StatusNotFound, "notfound.html", struct {
		pageHeader
		What string
	}{h, fmt.Sprintf(h.T["noPage"], r.URL.Path)})
}

// headerFor is the header in the language the request asks for (English
// for a bad lang parameter: a page shows itself rather than an error); the
// answer varies by Accept-Language.
func (s *Server) headerFor(w http.ResponseWriter, r *http.Request) pageHeader {
	w.Header().Add("Vary", "Accept-Language")
	lg, err := Lang(r)
	if err != nil {
		lg = "en"
	}
	return s.headerIn("", lg)
}

// render executes a page template into a buffer, so that a template error
// becomes a clean 500 instead of half a page.
func (s *Server) render(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := s.pages.ExecuteTemplate(&buf, name, data); err != nil {
		s.log.Printf("page %s: %v", name, err)
		http.Error(w, "internal error rendering the page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// paragraphs splits text into paragraphs at blank lines, joining the lines
// of each.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// scoreLevel names the strength of a score for the page's colours. The
// bounds are for display only: ranking and filtering are the engine's.
func scoreLevel(x float64) string {
	switch {
	case x >= 0.3:
		return "strong"
	case x >= 0.15:
		return "fair"
	}
	return "weak"
}

// barStep is the width class of a score bar: the score in percent, rounded
// to a multiple of 5 (the style sheet has a class per step, as the content
// security policy forbids inline styles).
func barStep(x float64) int {
	return int(min(max(x, 0), 1)*20+0.5) * 5
}
