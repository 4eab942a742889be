package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/caselink/caselink/similarity"
)

// ServiceOptions are what a team running caselink as a service sets: who
// may do what, which names the server answers to, how much a request may
// cost, where alerts' similar cases are posted and how requests are
// logged. The zero value is a server for one person on loopback: no
// tokens, the default limits, a request log in text.
type ServiceOptions struct {
	// Tokens, when not nil, are the bearer tokens the server accepts:
	// every request but the sign-in page and its style sheet needs one
	// (see [Role]).
	Tokens *Tokens
	// Hosts are the names, besides the listen address and localhost,
	// that a request's Host may carry (the names a load balancer or
	// users reach the server by).
	Hosts []string
	// MaxPaste is the largest paste POST /api/match and an alert take, in
	// bytes: 0 means DefaultMaxPaste.
	MaxPaste int
	// Notify, when set, is a Slack incoming-webhook URL: every firing
	// group of alerts posted to /api/alerts is posted there with its
	// similar past cases. PublicURL is the address the message links the
	// cases' pages by ("" means the address the alert was posted to).
	Notify    string
	PublicURL string
	// LogFormat is "text" (the default) or "json": the format of the
	// request log and of the server's own messages on Options.Log.
	LogFormat string
}

// DefaultMaxPaste is the default largest paste of the API: ten times a long
// alert with its logs, and small enough that 32 at once stay within a few
// hundred megabytes.
const DefaultMaxPaste = 64 << 10

// ReloadTokens reads the tokens file path again (as LoadTokens) and puts
// its tokens in force from the next request on; a file that cannot be read
// or has a bad line leaves the tokens in force as they were. The log says
// which. It is for SIGHUP: a token is revoked or added without a restart.
func (s *Server) ReloadTokens(path string) error {
	if s.tokens == nil {
		return errors.New("tokens: the server was started without --tokens")
	}
	t, err := LoadTokens(path)
	if err != nil {
		s.log.Printf("tokens not reloaded, the old ones stay in force: %v", err)
		return err
	}
	s.tokens.Replace(t)
	s.log.Printf("tokens reloaded from %s: %d token(s)", path, t.Len())
	return nil
}

// service sets up what ServiceOptions ask for; called by New.
func (s *Server) service(w io.Writer) {
	so := s.opts.Service
	if so.MaxPaste <= 0 {
		s.opts.Service.MaxPaste = DefaultMaxPaste
	}
	s.tokens = so.Tokens
	s.hosts = newHostGuard(so.Hosts)
	s.metrics = newMetrics(s)
	s.pastes = make(chan struct{}, largePastesAtOnce)
	var h slog.Handler
	if so.LogFormat == "json" {
		h = slog.NewJSONHandler(w, nil)
		// The server's own messages (reloads, warnings) go out as JSON too.
		s.log = slog.NewLogLogger(h, slog.LevelInfo)
	} else {
		h = slog.NewTextHandler(w, nil)
	}
	s.slog = slog.New(h)
	if so.Notify != "" {
		s.notifier = newNotifier(so.Notify, s)
	}
}

// reqInfo is what the middleware learns of a request as it goes: set by
// the guard, read by the log line.
type reqInfo struct {
	id    string
	role  Role
	limit int64 // the largest body the API reads (Server.bodyLimit)
}

type infoKey struct{}

func setRole(r *http.Request, role Role) {
	if in, ok := r.Context().Value(infoKey{}).(*reqInfo); ok {
		in.role = role
	}
}

// requestID returns the id of the request r (as its log line and its
// X-Request-Id answer header show it), "" outside a server's handler.
func requestID(ctx context.Context) string {
	if in, ok := ctx.Value(infoKey{}).(*reqInfo); ok {
		return in.id
	}
	return ""
}

// bodyLimitOf returns the largest request body the API reads for r.
func bodyLimitOf(r *http.Request) int64 {
	if in, ok := r.Context().Value(infoKey{}).(*reqInfo); ok && in.limit > 0 {
		return in.limit
	}
	return MaxBodyBytes
}

// statusWriter remembers the status and size of an answer.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observed is the outermost middleware: it gives the request an id (the
// client's X-Request-Id when it is a sane one, so that a load balancer's id
// carries through), answers it in X-Request-Id, and once the answer is
// written counts it in the metrics and logs one line: id, method, path
// (never the query, which may hold a paste), route, status, size, time and
// the token's role.
func (s *Server) observed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		in := &reqInfo{id: clientID(r.Header.Get("X-Request-Id")), limit: s.bodyLimit()}
		if in.id == "" {
			in.id = newID()
		}
		w.Header().Set("X-Request-Id", in.id)
		r = r.WithContext(context.WithValue(r.Context(), infoKey{}, in))
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		took := time.Since(start)
		route := r.Pattern
		if route == "" {
			route = "refused" // answered by the guard, before routing
		}
		s.metrics.observe(route, sw.status, took)
		attrs := []slog.Attr{slog.String("id", in.id), slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.String("route", route), slog.Int("status", sw.status), slog.Int64("bytes", sw.bytes),
			slog.Float64("ms", float64(took.Microseconds())/1000), slog.String("remote", r.RemoteAddr)}
		if s.tokens != nil {
			attrs = append(attrs, slog.String("role", in.role.String()))
		}
		s.slog.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
	})
}

// clientID returns a client's request id when it is short and plain
// (letters, digits, -_.:), else "".
func clientID(id string) string {
	if id == "" || len(id) > 64 {
		return ""
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_.:", c)) {
			return ""
		}
	}
	return id
}

func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// serviceRoutes adds the routes of ServiceOptions: /metrics, the sign-in
// page and /api/alerts.
func (s *Server) serviceRoutes(mux *http.ServeMux, api func(method, path string, h http.HandlerFunc)) {
	mux.Handle("GET /metrics", s.metrics.handler())
	mux.HandleFunc("GET "+signInPath, func(w http.ResponseWriter, r *http.Request) {
		if s.tokens == nil {
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		s.pageSignIn(w, r, http.StatusOK, "")
	})
	mux.HandleFunc("POST "+signInPath, func(w http.ResponseWriter, r *http.Request) {
		if s.tokens == nil {
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		s.signIn(w, r)
	})
	api(http.MethodPost, "/api/alerts", s.apiAlerts)
}

// middleware wraps the routes: observed (id, log, metrics) outside, then
// the guard (host, origin, content type, tokens), then unread.
func (s *Server) middleware(h http.Handler) http.Handler {
	return s.pinned(s.observed(s.guard(unread(h))))
}

// unread answers 500 with the reason when a handler reads a case that a
// streamed index (Options.Stream) cannot read again from its file (it
// changed since it was indexed, until the reload that follows): the index
// panics with a *similarity.CaseError where a caller could not read first
// (similarity.Index.Case). Any other panic goes on, as before.
func unread(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := similarity.CatchCaseError(func() { h.ServeHTTP(w, r) }); err != nil {
			writeError(w, http.StatusInternalServerError, "%v", err)
		}
	})
}
