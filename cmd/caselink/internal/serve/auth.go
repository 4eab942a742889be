package serve

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
)

// Role is what a token lets its bearer do.
type Role int

// The roles of a tokens file. Curate includes Read.
const (
	RoleNone   Role = iota // no token, or one the file does not hold
	RoleRead               // the page, every GET, /api/match, /api/alerts, /metrics
	RoleCurate             // also the curator's decisions and anything else that writes
)

// String returns the role's name as a tokens file spells it.
func (r Role) String() string {
	switch r {
	case RoleRead:
		return "read"
	case RoleCurate:
		return "curate"
	}
	return "none"
}

// Tokens are the bearer tokens a server accepts, each with its role. The
// zero value (and nil) accepts none.
type Tokens struct {
	// byHash is keyed by the SHA-256 of the token, so a lookup's time says
	// nothing about a token's bytes; swapped whole by Replace (SIGHUP).
	byHash atomic.Pointer[map[[32]byte]Role]
}

// Len returns the number of tokens.
func (t *Tokens) Len() int { return len(*t.byHash.Load()) }

// Replace puts the tokens of from in force instead of t's, at once: a
// request sees the old set or the new one.
func (t *Tokens) Replace(from *Tokens) { t.byHash.Store(from.byHash.Load()) }

// minTokenLen is the shortest token a tokens file may hold: a guessable
// token is no token.
const minTokenLen = 16

// LoadTokens reads a tokens file: one "ROLE TOKEN" per line, ROLE being
// read or curate; blank lines and lines starting with # are skipped. The
// file must not be readable or writable by group or others (as ssh treats
// a private key), and a bad line is an error naming the file and the line
// (never the token).
func LoadTokens(path string) (*Tokens, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s: tokens file is a folder", path)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("%s: tokens file is readable by group or others (mode %04o): run chmod 600 %s", path, perm, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := ParseTokens(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	return t, nil
}

// ParseTokens parses the text of a tokens file (see [LoadTokens]); an
// error starts with the line number.
func ParseTokens(data []byte) (*Tokens, error) {
	byHash := map[[32]byte]Role{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("%d: want ROLE TOKEN (role read or curate), got %d field(s)", n, len(f))
		}
		var role Role
		switch f[0] {
		case "read":
			role = RoleRead
		case "curate":
			role = RoleCurate
		default:
			return nil, fmt.Errorf("%d: role %q: want read or curate", n, f[0])
		}
		if len(f[1]) < minTokenLen {
			return nil, fmt.Errorf("%d: token is %d characters, want at least %d (e.g. openssl rand -hex 32)", n, len(f[1]), minTokenLen)
		}
		h := sha256.Sum256([]byte(f[1]))
		if old, ok := byHash[h]; ok && old != role {
			return nil, fmt.Errorf("%d: the same token is given two roles", n)
		}
		byHash[h] = role
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("0: %v", err)
	}
	if len(byHash) == 0 {
		return nil, errors.New("0: no tokens: want one ROLE TOKEN line or more")
	}
	t := &Tokens{}
	t.byHash.Store(&byHash)
	return t, nil
}

// Role returns the role of token, RoleNone for an unknown one.
func (t *Tokens) Role(token string) Role {
	if t == nil || token == "" {
		return RoleNone
	}
	return (*t.byHash.Load())[sha256.Sum256([]byte(token))]
}

// cookieName is the cookie the page's sign-in sets: it holds the token, so
// that a browser, which cannot add an Authorization header to a link it
// follows, is let in as the token's bearer would be.
const cookieName = "caselink_token"

// bearer returns the token a request carries: Authorization: Bearer, else
// the sign-in cookie.
func bearer(r *http.Request) string {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, ok := strings.Cut(h, " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(tok)
		}
		return ""
	}
	if c, err := r.Cookie(cookieName); err == nil {
		return c.Value
	}
	return ""
}

// needs returns the role a request needs: curate for anything that is not
// a read (a method other than GET and HEAD), except the reads sent as POST
// (match, alerts) and the sign-in; none for the page's static assets and the
// sign-in, which hold no library data.
func needs(r *http.Request) Role {
	p := r.URL.Path
	switch {
	case p == signInPath || p == livePath || strings.HasPrefix(p, "/static/"):
		return RoleNone
	case r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions:
		return RoleRead
	case p == "/api/match" || p == "/api/alerts":
		return RoleRead
	}
	return RoleCurate
}

// writes reports whether a request may change state: with a body, it
// needs a JSON one, which a cross-site form cannot send. (One without a
// body changes nothing here: it goes on to a 405 or a 400.)
func writes(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return r.URL.Path != signInPath && r.URL.Path != "/api/match" && r.URL.Path != "/api/alerts"
}

// hostGuard holds the names a request's Host may carry (see checkHost).
type hostGuard struct {
	names  map[string]bool // lower case, without port
	anyIP  atomic.Bool     // the server listens on every address: any IP literal is ours
	listen atomic.Pointer[string]
}

func newHostGuard(extra []string) *hostGuard {
	g := &hostGuard{names: map[string]bool{"localhost": true}}
	for _, h := range extra {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			if host, _, err := net.SplitHostPort(h); err == nil {
				h = host
			}
			g.names[strings.Trim(h, "[]")] = true
		}
	}
	return g
}

// listening tells the guard the address the server listens on.
func (g *hostGuard) listening(addr net.Addr) {
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return
	}
	host = strings.ToLower(host)
	g.listen.Store(&host)
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		g.anyIP.Store(true)
	}
}

// allowed reports whether host (a Host header) names this server: the
// listen address, a loopback address, localhost, or a name given with
// --host. Any other name may be an attacker's domain rebound to this
// server's address (DNS rebinding), and is refused. An IP literal cannot be
// rebound, so on a server listening on every address any IP literal is
// let through.
func (g *hostGuard) allowed(host string) bool {
	h := strings.ToLower(host)
	if hh, _, err := net.SplitHostPort(h); err == nil {
		h = hh
	}
	h = strings.TrimSuffix(strings.Trim(h, "[]"), ".")
	if g.names[h] {
		return true
	}
	if l := g.listen.Load(); l != nil && *l == h {
		return true
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.IsLoopback() || g.anyIP.Load()
	}
	return false
}

// IsLoopback reports whether a listen address (HOST:PORT) takes connections
// only from this machine: a loopback IP, or a name all of whose addresses
// are loopback ones (localhost). An empty host or 0.0.0.0 listens on every
// address and is not loopback.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ips, err := net.LookupIP(host)
	if err != nil || len(ips) == 0 {
		return false
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return false
		}
	}
	return true
}

// sameScheme reports whether an unsafe request's Origin, when the browser
// gave no Sec-Fetch-Site, has the scheme the request came by: Go's
// CrossOriginProtection then compares only the host, so a page at
// https://HOST could post to a plain-HTTP server at HOST. The scheme is
// https over TLS, or as a TLS-terminating proxy says in X-Forwarded-Proto
// (a header a cross-site page cannot add without a preflight, which this
// server never grants).
func sameScheme(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	origin := r.Header.Get("Origin")
	if r.Header.Get("Sec-Fetch-Site") != "" || origin == "" || origin == "null" {
		return true // Sec-Fetch-Site decided; without Origin, CrossOriginProtection did
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p != "" {
		scheme = strings.ToLower(strings.TrimSpace(strings.Split(p, ",")[0]))
	}
	return strings.EqualFold(u.Scheme, scheme)
}

// livePath is the liveness probe: it reveals nothing and changes nothing,
// so it needs no token and may be asked by any name (a load balancer asks
// by the replica's address).
const livePath = "/livez"

// guard is the first middleware: Host check (421), cross-origin check of
// unsafe methods (403), JSON bodies for writes (415), then tokens (401 without
// one, 403 with too weak a role). A browser asking for a page without a
// token gets the sign-in page instead of a bare 401.
func (s *Server) guard(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusForbidden, "cross-origin request refused: a request that changes anything must come from this server's own page")
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hosts.allowed(r.Host) && r.URL.Path != livePath {
			writeError(w, http.StatusMisdirectedRequest, "Host %q is not this server's: use its address or localhost, or start it with --host %s", r.Host, hostOnly(r.Host))
			return
		}
		if err := cop.Check(r); err != nil || !sameScheme(r) {
			writeError(w, http.StatusForbidden, "cross-origin request refused: a request that changes anything must come from this server's own page")
			return
		}
		if writes(r) && r.ContentLength != 0 && !isJSON(r.Header.Get("Content-Type")) {
			writeError(w, http.StatusUnsupportedMediaType, "Content-Type must be application/json, got %q", r.Header.Get("Content-Type"))
			return
		}
		if s.tokens != nil {
			need, have := needs(r), s.tokens.Role(bearer(r))
			setRole(r, have)
			switch {
			case need == RoleNone || have >= need:
			case have == RoleNone && wantsPage(r):
				s.pageSignIn(w, r, http.StatusUnauthorized, "")
				return
			case have == RoleNone:
				w.Header().Set("WWW-Authenticate", `Bearer realm="caselink"`)
				writeError(w, http.StatusUnauthorized, "this server needs a token: send Authorization: Bearer TOKEN")
				return
			case r.Header.Get("Authorization") == "":
				// Signed in on the page with a weaker token.
				writeError(w, http.StatusForbidden, "a %s token cannot do this: sign in with a %s token at %s", have, need, signInPath)
				return
			default:
				writeError(w, http.StatusForbidden, "a %s token cannot do this: it needs a %s token", have, need)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func hostOnly(h string) string {
	if hh, _, err := net.SplitHostPort(h); err == nil {
		return hh
	}
	return h
}

// isJSON reports whether a Content-Type is application/json (any
// parameters, such as charset, allowed).
func isJSON(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/json")
}

// wantsPage reports whether a request is a browser's for a page: a GET that
// is not for the API and accepts HTML.
func wantsPage(r *http.Request) bool {
	return r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/api/") &&
		r.URL.Path != "/metrics" && r.URL.Path != "/healthz" && strings.Contains(r.Header.Get("Accept"), "text/html")
}

// signInPath is where the sign-in form posts the token.
const signInPath = "/sign-in"

// signIn takes the sign-in form (a same-origin form post; the guard has
// checked its origin): a known token is set as an HttpOnly, SameSite=Strict
// cookie and the browser is sent back to the page it asked for; an unknown
// one gets the form again.
func (s *Server) signIn(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	if err := r.ParseForm(); err != nil {
		s.pageSignIn(w, r, http.StatusBadRequest, "could not read the form")
		return
	}
	next := r.PostForm.Get("next")
	if u, err := url.Parse(next); err != nil || next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || u.Host != "" {
		next = "/"
	}
	tok := strings.TrimSpace(r.PostForm.Get("token"))
	if s.tokens.Role(tok) == RoleNone {
		s.pageSignIn(w, r, http.StatusUnauthorized, "That token is not one this server knows.")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: tok, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// pageSignIn answers with the sign-in page: a form asking for a token.
func (s *Server) pageSignIn(w http.ResponseWriter, r *http.Request, status int, problem string) {
	next := r.URL.RequestURI()
	if r.URL.Path == signInPath {
		next = r.PostFormValue("next")
	}
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, status, "signin.html", struct {
		pageHeader
		Next, Problem, Action string
	}{pageHeader{Title: "Sign in · caselink"}, next, problem, signInPath})
}
