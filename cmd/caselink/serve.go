package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/curate"
	"github.com/caselink/caselink/cmd/caselink/internal/serve"
	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

func serveCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve a JSON API and a paste-your-symptoms web page",
		Description: `Serves the library from memory: a web page at / to paste what you see into, a readable
page per case at /cases/ID, and a JSON API (POST /api/match, GET /api/cases, GET /api/cases/ID,
GET /api/cases/ID/related, GET /api/dupes, POST /api/dupes/decisions, GET /healthz) and a
review page for probable duplicates at /dupes. Decisions go where those of caselink dupes go
(` + caselib.DecisionsName + ` beside the library, a table beside a postgres:// library, or
--decisions FILE). A link to /?q=TEXT opens the page with that paste and matches it. When the
library's files change, they are reloaded in the background (a postgres:// library: when its
rows change, seen by polling a fingerprint of the row versions); a library that fails to load
leaves the previous one serving and the error is logged here and shown by /healthz. A library of
files is indexed as a stream (or opened from its index file): the server keeps the index, not
the cases, and reads each case it shows from its file; a reload tokenizes only the cases whose
text or tags changed. Ctrl-C stops the server.
As a team's service: --tokens FILE (one "ROLE TOKEN" a line, roles read and curate, mode
600) makes every request carry Authorization: Bearer TOKEN (a browser is asked for it once);
SIGHUP reads the file again (a bad file keeps the tokens in force; the log says which); without --tokens, an --addr other machines can reach is refused unless --insecure-no-auth.
Requests must name the server by its listen address, localhost or a --host NAME (421
otherwise), writes must be same-origin JSON, and a paste over --max-paste is refused (413).
GET /metrics is for Prometheus; POST /api/alerts takes Alertmanager's webhook, and with
--notify URL each firing group is posted to that Slack incoming webhook with its similar past
cases. Settings can come from caselink.toml ([serve] addr, tokens, host, notify, max-paste …;
see caselink config). A request log goes to standard error (--log-format json for JSON).
Add ?lang=ko to a page or API address (or prefer Korean in the browser) to read the
cases' Korean text where they have it, and every label of the page in Korean.

Examples:
   caselink serve                                 (the embedded seed cases)
   caselink serve --cases ./library --addr 127.0.0.1:8080
   caselink serve --cases 'postgres://db.internal/incidents?table=cases'
   curl -s localhost:8080/api/match -d '{"text":"pods OOMKilled after rollout","top":3}'
   curl -s 'localhost:8080/api/cases/IL-0100?lang=ko'`,
		Flags: append([]cli.Flag{
			casesFlag, lenientFlag, noCacheFlag,
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Usage: "listen on `HOST:PORT` (port 0 picks a free one)"},
			&cli.StringFlag{Name: "decisions", Usage: "the duplicate decisions `FILE`, or a postgres://…?table=T library whose decisions table to use (e.g. the primary, when --cases reads a standby; default: " + caselib.DecisionsName + " beside the library)"},
			&cli.DurationFlag{Name: "poll", Value: time.Second, Usage: "how often to check the library's files for changes (at least 100ms; 0 turns reloading off)"},
		}, serviceFlags...),
		Action: func(c *cli.Context) error { return env.serve(c) },
	}
}

func (env *env) serve(c *cli.Context) error {
	if c.Args().Present() {
		return usagef("unexpected arguments %q: serve takes only flags", c.Args().Slice())
	}
	poll := c.Duration("poll")
	switch {
	case poll < 0:
		return usagef("--poll must not be negative")
	case poll == 0:
		poll = -1 // serve.Options: negative turns watching off
	case poll < minPoll:
		return usagef("--poll %v is too often: give at least %v, or 0 to turn reloading off", poll, minPoll)
	}
	maxCase, err := maxCaseBytes(c)
	if err != nil {
		return err
	}
	// Without --decisions the server keeps decisions beside the library:
	// a file beside a library of files, a table beside one in PostgreSQL
	// (serveTable), none for the embedded seeds.
	var decisions caselib.DecisionStore
	if f := c.String("decisions"); f != "" {
		if decisions, _, err = decisionStore(f, nil); err != nil {
			return err
		}
	}
	cfg, _, err := engineConfig(c)
	if err != nil {
		return err
	}
	opts := serve.Options{
		Engine:         &cfg,
		Decisions:      decisions,
		Paths:          c.StringSlice("cases"),
		Lenient:        c.Bool("lenient"),
		MaxCaseBytes:   maxCase,
		MatchMinScore:  curate.MatchMinScore,
		RelateMinScore: curate.RelateMinScore,
		DupesThreshold: curate.DupesThreshold,
		PollInterval:   poll,
		Log:            env.stderr,
	}
	if opts.Service, err = serviceOptions(c); err != nil {
		return err
	}
	if isTableLibrary(opts.Paths) {
		if err := serveTable(ctxOf(c), &opts); err != nil {
			return err
		}
	}
	opts.Build = cachedBuild(opts.Paths, c.Bool("no-cache")) // cache.go
	if streamable(opts.Paths) {
		opts.Stream = env.serveStream(c, cfg)
	}
	addr := c.String("addr")
	if err := checkExposure(addr, opts.Service.Tokens != nil, c.Bool("insecure-no-auth")); err != nil {
		return err
	}
	if serveOpened != nil {
		return serveOpened(opts)
	}
	srv, err := serve.New(opts)
	if err != nil {
		return usageError{err}
	}
	ctx := c.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if f := c.String("tokens"); f != "" {
		defer reloadTokensOnHUP(srv, f)()
	}
	return srv.ListenAndServe(ctx, addr)
}

// serveOpened, when set by a test, takes the options the serve command
// made instead of serving them.
var serveOpened func(serve.Options) error

// reloadTokensOnHUP makes SIGHUP, until the returned stop is called, read
// the tokens file path again (a bad file keeps the tokens in force; the
// server's log says which), as daemons reread their configuration.
func reloadTokensOnHUP(srv *serve.Server, path string) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				srv.ReloadTokens(path)
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// serveStream is serve's Options.Stream for a library of files: its index
// opened from the cache without reading the library when its stamp says
// it is unchanged (openLazy), else read as a stream and indexed through
// the cache (streamIndexedFrom, which on a reload analyzes only the cases
// that changed since prev), so that the server holds no case. The
// warnings are those a whole load logs. A library that fails to load is
// left to the whole load (ok false), whose error the server has always
// given.
func (e *env) serveStream(c *cli.Context, cfg similarity.Config) func(prev *similarity.Index) (serve.Streamed, bool, error) {
	var last served // the index last given to the server (calls never overlap)
	return func(prev *similarity.Index) (serve.Streamed, bool, error) {
		o, err := stampOptionsOf(c)
		if err != nil {
			return serve.Streamed{}, false, nil
		}
		from := served{ix: prev}
		if prev != nil && prev == last.ix {
			from = last
		}
		if !c.Bool("no-cache") {
			if st, idx, ok := trustedStamp(o); ok {
				if ix, ok := from.keep(st, st.Sum); ok {
					touchCache(idx)
					return serve.Streamed{Index: ix, Warnings: serveWarnings(st.Notes)}, true, nil
				}
				if ix, ok := openStamped(st, idx, cfg); ok {
					last = served{ix: ix, sum: st.Sum, known: true}
					return serve.Streamed{Index: ix, Warnings: serveWarnings(st.Notes)}, true, nil
				}
			}
		}
		r, notes, ok, err := e.streamIndexedFrom(c, cfg, from) // stream.go
		if err != nil || !ok {
			return serve.Streamed{}, false, nil
		}
		if r.state == cacheSaved {
			// The index just built lives on the heap, where the build
			// also left garbage the runtime keeps, and points into prev's
			// file where it took prev's analysis: the file just saved
			// gives the same index mapped, as a restarted server has it,
			// read with the same reader. Not through the stamp, which a
			// library edited a moment before its load leaves untrusted
			// (racyWindow), as on nearly every reload. The heap goes back
			// first, so that the two are never held together.
			n, reused, key := r.ix.Len(), r.reused, similarity.CacheKeyOf(r.sum, cfg, cacheSalt)
			r.ix.Close() // lets go of prev's file, which the server gives back once prev is replaced
			r.ix = nil
			debug.FreeOSMemory()
			ix, err := similarity.OpenCacheLazy(r.path, key, cfg, r.read)
			if err == nil && ix.Len() == n {
				last = served{ix: ix, sum: r.sum, known: true}
				return serve.Streamed{Index: ix, Warnings: serveWarnings(notes), Reused: reused}, true, nil
			} else if err == nil {
				ix.Close()
			}
			if r, notes, ok, err = e.streamIndexedFrom(c, cfg, from); err != nil || !ok {
				return serve.Streamed{}, false, nil
			}
		}
		last = served{ix: r.ix, sum: r.sum, known: true}
		return serve.Streamed{Index: r.ix, Warnings: serveWarnings(notes), Reused: r.reused}, true, nil
	}
}

// serveWarnings returns the warnings of a streamed load as the server
// logs a whole one's: without the count of skipped cases, which the
// commands print and the server never did (it logs each skip).
func serveWarnings(notes string) string {
	var b strings.Builder
	for line := range strings.Lines(notes) {
		if !strings.HasPrefix(line, "caselink: skipped ") {
			b.WriteString(line)
		}
	}
	return b.String()
}
