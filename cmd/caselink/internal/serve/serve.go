package serve

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/caselink/caselink/cmd/caselink/internal/api"
	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// Options configure a [Server].
type Options struct {
	// Paths name the library: case files, folders of case files or JSON
	// Lines files, as for caselib.Load. Empty means the embedded seed
	// cases, which are never reloaded. Standard input ("-") is refused: it
	// cannot be read again.
	Paths []string
	// Lenient skips bad cases with a warning on Log instead of refusing the
	// whole library.
	Lenient bool
	// MaxCaseBytes is caselib.LoadOptions.MaxCaseBytes: the per-case size
	// limit (0 for caselib's default, negative for none).
	MaxCaseBytes int64

	// MatchMinScore is the lowest score a match hit may have (the CLI's
	// match default). RelateMinScore is the lowest score of a related case
	// (relate's default). DupesThreshold is the score from which two cases
	// are listed as probable duplicates (dupes' default).
	MatchMinScore, RelateMinScore, DupesThreshold float64

	// Decisions keeps the curator's duplicate decisions, which /api/dupes
	// honours and POST /api/dupes/decisions records. Nil means the
	// decisions file beside the library (caselib.DecisionsPath); the
	// embedded seeds have none, and decisions about them are refused.
	Decisions caselib.DecisionStore

	// Engine is the configuration the index is built with; nil means
	// similarity.DefaultConfig (the CLI passes the library's tuned weights).
	Engine *similarity.Config
	// Build, when set, makes the first index instead of similarity.Build
	// (the CLI starts from its index cache); a reload reindexes what
	// changed.
	Build func(docs []similarity.Document, cfg similarity.Config) (*similarity.Index, error)
	// Stream, when set, indexes a library of files without holding its
	// cases (the CLI's streaming build through its cache): the index it
	// returns reads a case from its file when a handler shows it
	// (Index.HoldsCases is false), so that a server of a large library
	// does not keep the library's text. ok false means the library cannot
	// be streamed (a lenient load left out cases already read): it is
	// loaded whole. A reload of a library opened so streams it again,
	// given the index serving (prev, nil on the first load), whose
	// analysis of the cases that did not change it may reuse
	// (similarity.Builder.Reuse). It may return prev itself, when the
	// library's documents did not change (its related lists did): the
	// server then goes on with it rather than close it. An index it no
	// longer returns is closed (similarity.Index.Close) once the requests
	// reading it have answered.
	Stream func(prev *similarity.Index) (s Streamed, ok bool, err error)

	// PollInterval is how often the library's files are checked for
	// changes: 0 means one second, a negative value turns watching off.
	PollInterval time.Duration

	// Log receives one line per reload, per failed reload and per lenient
	// warning; nil discards them.
	Log io.Writer

	// Library, when set, reads the library instead of caselib.Load(Paths)
	// (a library kept in PostgreSQL); Paths then only names it in the log.
	// Stamp fingerprints that library for Watch: a change of its value
	// means the library changed. Both are called from one goroutine at a
	// time; warn reports lenient skips.
	Library func(warn func(error)) (*caselib.Library, error)
	Stamp   func() uint64

	// Service holds what a team running the server sets: tokens, host
	// names, limits, alert notifications, the log format (service.go).
	Service ServiceOptions
}

// Server answers the JSON API and the web page from an in-memory index of
// the library. It is safe for concurrent use: every request reads the index
// current when it started, and a reload swaps in a new one atomically.
type Server struct {
	opts    Options
	log     *log.Logger
	cur     atomic.Pointer[snapshot]
	handler http.Handler
	pages   *template.Template

	decisions caselib.DecisionStore // nil when there is nowhere to keep decisions
	feedback  *caselib.FeedbackFile // beside the decisions file; nil when the library has no folder

	reloadMu sync.Mutex // one load at a time

	errMu     sync.Mutex
	lastErr   string    // the last failed load's error; "" after a successful one
	lastErrAt time.Time // when it failed
	reloads   int       // successful reloads since New

	// Set up from Options.Service (service.go).
	tokens   *Tokens // nil: no tokens needed
	hosts    *hostGuard
	metrics  *metrics
	pastes   chan struct{} // slots of large pastes (limits.go)
	slog     *slog.Logger  // the request log
	notifier *notifier     // nil without Service.Notify
}

// Streamed is what Options.Stream gives: the index, the lines loading
// gave (what Log would get from a whole load, each ending in a newline),
// and how many cases' analysis was reused from the index before.
type Streamed struct {
	Index    *similarity.Index
	Warnings string
	Reused   int
}

// snapshot is one loaded library and its index; never changed once
// published.
type snapshot struct {
	ix       *similarity.Index
	loadedAt time.Time
	stamp    uint64 // fingerprint of the files it was loaded from (0 for the seeds)
	reused   int    // cases whose analysis a streamed reload took from the index before
	kept     bool   // a streamed reload kept the index before: no text or tags changed

	// users counts the requests reading it; once retired (replaced) its
	// index is closed when they are done (pin.go).
	users   atomic.Int64
	retired atomic.Bool

	// The probable duplicates at threshold dupesAt, computed on first use
	// and again only for a lower threshold (a higher one is a filter of
	// them, see curate.Page).
	dupesMu   sync.Mutex
	dupesDone bool
	dupesAt   float64
	dupes     []similarity.Pair
}

// New loads the library named by opts and returns a server for it. The
// error is the load's: a *caselib.Error for a bad case file.
func New(opts Options) (*Server, error) {
	for _, p := range opts.Paths {
		if p == "-" {
			return nil, errors.New("serve cannot read the library from standard input (it could not be reloaded): give a file or folder")
		}
	}
	if opts.PollInterval == 0 {
		opts.PollInterval = time.Second
	}
	w := opts.Log
	if w == nil {
		w = io.Discard
	}
	s := &Server{opts: opts, log: log.New(w, "caselink: ", 0), decisions: opts.Decisions}
	s.service(w)
	if s.decisions == nil && len(opts.Paths) > 0 {
		// A library with no folder (standard input, a table the caller
		// gave no store for) has nowhere to keep decisions: they are
		// refused, as for the embedded seeds.
		if path, err := caselib.DecisionsPath(opts.Paths); err == nil {
			s.decisions = caselib.NewDecisionFile(path)
		}
	}
	if opts.Library == nil && len(opts.Paths) > 0 {
		if path, err := caselib.FeedbackPath(opts.Paths); err == nil {
			s.feedback = caselib.NewFeedbackFile(path)
		}
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	s.pages = pages
	snap, err := s.load(s.stamp())
	if err != nil {
		return nil, err
	}
	s.cur.Store(snap)
	s.metrics.loaded(true, nil)
	s.handler = s.routes()
	return s, nil
}

// load reads and indexes the library: through Options.Stream first, when
// set, on the first load and whenever the current index holds no cases;
// else whole (on a reload, reindexing the current index, which gives the
// same index as a build). stamp is the fingerprint of its files
// taken before reading them, so that a change made while loading is seen by
// the next poll.
func (s *Server) load(stamp uint64) (*snapshot, error) {
	prev := s.cur.Load()
	if s.opts.Stream != nil && s.opts.Library == nil && len(s.opts.Paths) > 0 && (prev == nil || !prev.ix.HoldsCases()) {
		var before *similarity.Index
		if prev != nil {
			before = prev.ix
		}
		st, ok, err := s.opts.Stream(before)
		if err != nil {
			return nil, err
		}
		if ok {
			io.WriteString(s.log.Writer(), st.Warnings)
			return &snapshot{ix: st.Index, loadedAt: time.Now(), stamp: stamp, reused: st.Reused, kept: before != nil && st.Index == before}, nil
		}
	}
	var lib *caselib.Library
	var err error
	switch {
	case s.opts.Library != nil:
		lib, err = s.opts.Library(func(err error) { s.log.Printf("warning: skipped: %v", err) })
	case len(s.opts.Paths) == 0:
		lib, err = caselib.LoadSeeds()
	default:
		lib, err = caselib.Load(s.opts.Paths, caselib.LoadOptions{
			Lenient:      s.opts.Lenient,
			MaxCaseBytes: s.opts.MaxCaseBytes,
			Warn:         func(err error) { s.log.Printf("warning: skipped: %v", err) },
			Notice:       func(err error) { s.log.Printf("warning: %v", err) },
		})
	}
	if err != nil {
		return nil, err
	}
	if len(lib.Cases) == 0 {
		return nil, fmt.Errorf("no cases in %s", strings.Join(s.opts.Paths, ", "))
	}
	if w := curate.LinkWarning(curate.CheckLinks(lib.Cases, lib.ByID)); w != "" {
		s.log.Printf("warning: %s", w)
	}
	docs := similarity.Documents(lib.Cases)
	var ix *similarity.Index
	if prev != nil && prev.ix.HoldsCases() {
		// A reload tokenizes only the cases whose text or tags changed.
		ix, err = prev.ix.Reindex(docs)
	} else {
		cfg := similarity.DefaultConfig()
		if s.opts.Engine != nil {
			cfg = *s.opts.Engine
		}
		if s.opts.Build != nil {
			ix, err = s.opts.Build(docs, cfg)
		} else {
			ix, err = similarity.Build(docs, cfg)
		}
	}
	if err != nil {
		return nil, err
	}
	return &snapshot{ix: ix, loadedAt: time.Now(), stamp: stamp}, nil
}

// stamp fingerprints the library: Options.Stamp, or its files.
func (s *Server) stamp() uint64 {
	if s.opts.Stamp != nil {
		return s.opts.Stamp()
	}
	return caselib.Stamp(s.opts.Paths)
}

// Reload reads the library again and, when it loads, swaps in its index.
// When it does not, the old index keeps serving and the error is logged and
// shown by /healthz until a later load succeeds. Seeds are not reloaded.
func (s *Server) Reload() error {
	return s.reload(s.stamp())
}

func (s *Server) reload(stamp uint64) error {
	if len(s.opts.Paths) == 0 {
		return nil
	}
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	start := time.Now()
	snap, err := s.load(stamp)
	s.metrics.loaded(false, err)
	s.errMu.Lock()
	defer s.errMu.Unlock()
	if err != nil {
		old := s.cur.Load()
		s.lastErr, s.lastErrAt = err.Error(), time.Now()
		s.log.Printf("reload failed, still serving the %d cases loaded at %s: %v",
			old.ix.Len(), old.loadedAt.Format(time.TimeOnly), err)
		return err
	}
	if old := s.cur.Swap(snap); old.ix != snap.ix {
		old.retire() // closed once the requests reading it have answered (pin.go)
	}
	s.lastErr, s.lastErrAt = "", time.Time{}
	s.reloads++
	var analyzed string
	if snap.kept {
		analyzed = " (no text or tags changed)"
	} else if snap.reused > 0 {
		analyzed = fmt.Sprintf(" (%d analyzed, %d unchanged)", snap.ix.Len()-snap.reused, snap.reused)
	}
	s.log.Printf("reloaded %d cases from %s in %.2fs%s", snap.ix.Len(), strings.Join(s.opts.Paths, ", "),
		time.Since(start).Seconds(), analyzed)
	return nil
}

// Watch polls the library's files every Options.PollInterval until ctx is
// done and reloads them when their names, sizes or modification times
// changed and then held still across two polls, so that a library being
// written is not loaded half written. A load that fails is not retried
// until the files change again.
// It returns at once for the embedded seeds or when watching is off.
func (s *Server) Watch(ctx context.Context) {
	if len(s.opts.Paths) == 0 || s.opts.PollInterval < 0 {
		return
	}
	t := time.NewTicker(s.opts.PollInterval)
	defer t.Stop()
	last := s.cur.Load().stamp
	var moved uint64 // the changed fingerprint seen at the last poll, 0 for none
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		stamp := s.stamp()
		switch {
		case stamp == last:
			moved = 0
			continue
		case stamp != moved:
			// Changed since the last poll: a writer may still be at it
			// (one that rewrites a file in place is seen half done).
			// Wait until the fingerprint holds still for a poll.
			moved = stamp
			continue
		}
		last, moved = stamp, 0
		s.reload(stamp)
	}
}

// Handler returns the server's routes: the web page, the JSON API and
// /healthz.
func (s *Server) Handler() http.Handler { return s.handler }

// Len returns the number of cases in the index now serving.
func (s *Server) Len() int {
	snap := s.acquire()
	defer snap.release()
	return snap.ix.Len()
}

// Timeouts of the HTTP server. WriteTimeout is long enough for the first
// /api/dupes on a library of several thousand cases.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 2 * time.Minute
	shutdownTimeout   = 10 * time.Second
)

// ListenAndServe listens on the TCP address addr (such as "127.0.0.1:8080";
// port 0 picks a free one) and calls [Server.Serve].
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Serve answers requests on ln and watches the library until ctx is done,
// then shuts down gracefully: it stops accepting connections and waits (up
// to ten seconds) for the requests in flight. It returns nil after a
// graceful shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.hosts.listening(ln.Addr())
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          s.log,
	}
	watchCtx, stopWatch := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { s.Watch(watchCtx) })
	defer func() {
		stopWatch()
		wg.Wait()
	}()

	s.log.Printf("serving %d cases on http://%s/ (Ctrl-C to stop)", s.Len(), ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	err := hs.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err == nil {
		s.log.Printf("stopped")
	}
	return err
}

// health returns the numbers /healthz shows.
func (s *Server) health() api.Health {
	snap := s.acquire()
	defer snap.release()
	h := api.Health{OK: true, Status: "ok", Cases: snap.ix.Len(), LoadedAt: snap.loadedAt.UTC().Format(time.RFC3339), Library: "embedded seeds"}
	if len(s.opts.Paths) > 0 {
		h.Library = strings.Join(s.opts.Paths, ", ")
	}
	s.errMu.Lock()
	if s.lastErr != "" {
		e, at := s.lastErr, s.lastErrAt.UTC().Format(time.RFC3339)
		h.LastError, h.LastErrorAt = &e, &at
		h.OK, h.Status = false, "degraded"
	}
	h.Reloads = s.reloads
	s.errMu.Unlock()
	return h
}

// pairs returns the probable duplicates of the snapshot at threshold or a
// lower one (curate.Page cuts the list at threshold).
func (snap *snapshot) pairs(threshold float64) []similarity.Pair {
	snap.dupesMu.Lock()
	defer snap.dupesMu.Unlock()
	if !snap.dupesDone || threshold < snap.dupesAt {
		snap.dupes = snap.ix.Duplicates(threshold, curate.DupesPerCase, nil)
		snap.dupesAt, snap.dupesDone = threshold, true
	}
	return snap.dupes
}
