package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/urfave/cli/v2"
)

// Progress is our own small printer rather than schollz/progressbar or
// vbauerster/mpb (measured in eval/notes/progress-line.md):
// each phase is one line, updates come from callbacks that already report
// only now and then, and neither library did that line better. progressbar
// writes every update when stderr is not a terminal unless throttled and adds
// 2.5 MB to a binary; mpb adds 0.8 MB and six modules and costs three times
// our CPU per update, for bars we do not draw.

// progressEnv names the variable that overrides when progress is shown:
// "always" shows it even when stderr is not a terminal and the work is short
// (for logs, and for the tests that check the lines), "never" hides it.
// --quiet hides it whatever the variable says.
const progressEnv = "CASELINK_PROGRESS"

// progressDelay is how long work runs silently before progress appears:
// what ends within it needs no progress. A variable for the terminal test.
var progressDelay = time.Second

// quietFlag is --quiet, added to every command that reads a library.
var quietFlag = &cli.BoolFlag{
	Name:  "quiet",
	Usage: "print no progress on standard error (it is shown only on a terminal, for work that takes over a second)",
}

// progressOn says whether progress may be shown at all, and whether it is
// forced (no terminal needed, no delay).
func (e *env) progressOn() (on, forced bool) {
	if e.quiet {
		return false, false
	}
	switch os.Getenv(progressEnv) {
	case "always":
		return true, true
	case "never":
		return false, false
	}
	return e.stderrIsTerminal(), false
}

// progress prints "label: done/total unit (rate/s, ETA)" on stderr, at most
// five times a second, once the work has run for progressDelay, and only
// when progressOn allows. done finishes the line. total 0 means unknown.
// update and done may be called from any goroutine.
type progress struct {
	mu     sync.Mutex
	w      io.Writer
	label  string
	unit   string
	total  int
	start  time.Time
	last   time.Time
	delay  time.Duration
	on     bool
	forced bool // CASELINK_PROGRESS=always: no delay, and a last line even for no update
	shown  bool
	n      int
	stop   chan struct{} // closes the ticker of busy
}

func (e *env) newProgress(label string, total int) *progress {
	return e.newProgressOf(label, total, "cases")
}

// newProgressOf is newProgress counting some other unit.
func (e *env) newProgressOf(label string, total int, unit string) *progress {
	on, forced := e.progressOn()
	p := &progress{w: e.stderr, label: label, unit: unit, total: total, start: time.Now(), on: on, forced: forced,
		delay: progressDelay}
	if forced {
		p.delay = 0
	}
	return p
}

// update reports that done units are finished.
func (p *progress) update(done int) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n = done
	now := time.Now()
	if now.Sub(p.start) < p.delay || (p.shown && now.Sub(p.last) < 200*time.Millisecond) {
		return
	}
	p.last, p.shown = now, true
	p.line(now)
}

func (p *progress) line(now time.Time) {
	el := now.Sub(p.start).Seconds()
	if p.total <= 0 {
		fmt.Fprintf(p.w, "\r%s: %d %s (%.0fs)  ", p.label, p.n, p.unit, el)
		return
	}
	eta := "ETA –"
	if p.n > 0 && el > 0 {
		eta = fmt.Sprintf("ETA %.0fs", float64(p.total-p.n)*el/float64(p.n))
	}
	fmt.Fprintf(p.w, "\r%s: %d/%d %s (%.0f/s, %s)  ", p.label, p.n, p.total, p.unit, float64(p.n)/el, eta)
}

// busy shows the line, with the time spent, now and then until done, for
// work that reports no counts (one database copy).
func (p *progress) busy() {
	if !p.on {
		return
	}
	p.stop = make(chan struct{})
	go func(stop chan struct{}) {
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				p.mu.Lock()
				if now.Sub(p.start) >= p.delay {
					p.shown = true
					p.line(now)
				}
				p.mu.Unlock()
			}
		}
	}(p.stop)
}

// done finishes the line, if one was shown.
func (p *progress) done() {
	if !p.on {
		return
	}
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown || p.forced {
		n := p.n
		if p.total > 0 {
			n = p.total
		}
		if p.total > 0 {
			fmt.Fprintf(p.w, "\r%s: %d/%d %s in %.1fs          \n", p.label, n, p.total, p.unit, time.Since(p.start).Seconds())
		} else {
			fmt.Fprintf(p.w, "\r%s: %d %s in %.1fs          \n", p.label, n, p.unit, time.Since(p.start).Seconds())
		}
	}
}

// clear blanks a line shown, so that a warning starts at the left margin;
// the next update draws it again.
func (p *progress) clear() {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprintf(p.w, "\r%*s\r", 79, "")
		p.last = time.Time{}
	}
}
