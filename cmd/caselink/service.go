package main

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/cmd/caselink/internal/serve"
	"github.com/caselink/caselink/similarity/caselib"
)

// minPoll is the shortest --poll: polling a library's files more often
// costs CPU and finds nothing sooner that a person would notice.
const minPoll = 100 * time.Millisecond

// serviceFlags are serve's flags for running it as a team's service.
var serviceFlags = []cli.Flag{
	&cli.StringFlag{Name: "tokens", Usage: "accept only requests with a bearer token of `FILE` (one \"ROLE TOKEN\" a line, role read or curate; mode 600)"},
	&cli.BoolFlag{Name: "insecure-no-auth", Usage: "allow listening on a non-loopback --addr without --tokens: anyone who reaches the port can record decisions"},
	&cli.StringSliceFlag{Name: "host", Usage: "also answer requests for the host `NAME` (repeatable; the listen address and localhost always are)"},
	&cli.StringFlag{Name: "max-paste", Value: "64KiB", Usage: "refuse a paste larger than `SIZE` in POST /api/match (413)"},
	&cli.StringFlag{Name: "notify", Usage: "post each firing alert group received on /api/alerts, with its similar past cases, to the Slack incoming-webhook `URL`"},
	&cli.StringFlag{Name: "public-url", Usage: "the `URL` notifications link case pages by (default: the address Alertmanager posted to)"},
	&cli.StringFlag{Name: "log-format", Value: "text", Usage: "request log and messages on standard error as `FORMAT` text or json"},
}

// serviceOptions reads serviceFlags.
func serviceOptions(c *cli.Context) (serve.ServiceOptions, error) {
	var so serve.ServiceOptions
	if f := c.String("tokens"); f != "" {
		t, err := serve.LoadTokens(f)
		if err != nil {
			return so, usagef("--tokens: %v", err)
		}
		so.Tokens = t
	}
	so.Hosts = c.StringSlice("host")
	n, err := parseSize(c.String("max-paste"))
	if err != nil || n < 1 || n > 64<<20 {
		return so, usagef("--max-paste: want a size from 1 to 64MiB, such as 256KiB, got %q", c.String("max-paste"))
	}
	so.MaxPaste = int(n)
	so.Notify, so.PublicURL = c.String("notify"), c.String("public-url")
	if so.Notify != "" {
		if err := checkURL("--notify", so.Notify); err != nil {
			return so, err
		}
	}
	if so.PublicURL != "" {
		if err := checkURL("--public-url", so.PublicURL); err != nil {
			return so, err
		}
	}
	switch so.LogFormat = c.String("log-format"); so.LogFormat {
	case "text", "json":
	default:
		return so, usagef("--log-format: want text or json, got %q", so.LogFormat)
	}
	return so, nil
}

func checkURL(flag, s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("%s: want an http:// or https:// URL, got %q", flag, s)
	}
	return nil
}

// checkExposure refuses to serve a non-loopback address without tokens:
// anyone who could reach it could read the library and record decisions.
func checkExposure(addr string, tokens, insecure bool) error {
	if tokens || insecure || serve.IsLoopback(addr) {
		return nil
	}
	return usagef("--addr %s is reachable from other machines: give --tokens FILE (or, on a network you trust, --insecure-no-auth)", addr)
}

// interrupted is set once Ctrl-C or SIGTERM stops a write: from then on the
// process exits 130, whatever the write returns (see run).
var interrupted atomic.Bool

// interruptHook, set by tests only, is called at the steps of an
// interrupted write ("write": the write is about to start; "removed": the
// signal's handler has removed the temporary files), to make the race
// between the handler and the failing write happen every time.
var interruptHook func(step string)

// cleanUpOnSignal makes Ctrl-C (SIGINT) and SIGTERM, until stop is
// called, remove the writer's temporary files before the process exits
// (status 130): the case files are each whole, as they were or rewritten,
// and nothing is left behind. (Files of a run killed harder are swept by
// the next run that reads the library, see env.sweepTemps.)
func (env *env) cleanUpOnSignal() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			// Marked before the temporary files go: the write they break
			// then fails in the main goroutine, which must not exit 1
			// while this one is still on its way to 130 (run waits).
			interrupted.Store(true)
			n := caselib.RemoveTemps()
			if interruptHook != nil {
				interruptHook("removed")
			}
			fmt.Fprintf(env.stderr, "caselink: interrupted: removed %d temporary file(s); every case file is whole, as it was or rewritten\n", n)
			os.Exit(130)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// ErrPasteTooLarge is the error of a paste larger than match's --max-paste.
var ErrPasteTooLarge = errors.New("paste too large")

// maxPasteBytes reads match's --max-paste.
func maxPasteBytes(c *cli.Context) (int64, error) {
	n, err := parseSize(c.String("max-paste"))
	if err != nil || n < 1 {
		return 0, usagef("--max-paste: want a size such as 4MiB, got %q", c.String("max-paste"))
	}
	return n, nil
}

// pasteTooLarge says that a paste of n bytes is over max; exact is false
// for standard input, which is read no further than one byte past max.
func pasteTooLarge(n, max int64, exact bool) error {
	size := humanSize(n)
	if !exact {
		size = "more than " + humanSize(max)
	}
	return usageError{fmt.Errorf("%w: the paste is %s, the limit is %s: paste the alert and the first error lines, or raise --max-paste",
		ErrPasteTooLarge, size, humanSize(max))}
}

// humanSize writes n bytes as 64KiB, 1MiB, 1.5MiB, 300B, 1GiB.
func humanSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1fKiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}
