package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/caselink/caselink/similarity"
	"github.com/caselink/caselink/similarity/caselib"
)

// benchTitles is how many case titles bench answers without a query file.
const benchTitles = 200

func benchCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "time loading, indexing, match and relate on a library",
		Description: `Loads and indexes the library, answers every paste of a query file (or, without one, the
titles of 200 cases spread over the library) one at a time, --repeat times, and with --relate
computes the top 10 of every case. Prints each phase's time, the number of pastes times the
repeats, match latency percentiles over every answer and the
process's peak memory, so caselink can be compared with other engines on the same machine.
A library of files is read as a stream and indexed as it is read, never held whole: "load"
is then the reading and analysis of every case, "index" the weighing that follows.

Example:
   caselink bench --cases cases-100k.jsonl --queries pastes.jsonl --relate`,
		Flags: []cli.Flag{
			casesFlag, lenientFlag,
			&cli.StringFlag{Name: "queries", Usage: "JSON Lines `FILE` of {\"id\",\"text\"} pastes to time"},
			&cli.IntFlag{Name: "repeat", Value: 5, Usage: "answer every paste this many times"},
			&cli.BoolFlag{Name: "relate", Usage: "also time the top 10 of every case"},
		},
		Action: func(c *cli.Context) error { return env.bench(c) },
	}
}

func (env *env) bench(c *cli.Context) error {
	w := bufio.NewWriter(env.stdout)
	defer w.Flush()
	start := time.Now()
	ix, loaded, err := env.benchIndex(c)
	if err != nil {
		return err
	}
	built := time.Now()
	// Time the queries in steady state, as a server would answer them, not
	// while the garbage of indexing is still being collected.
	runtime.GC()
	fmt.Fprintf(w, "cases            %d\n", ix.Len())
	fmt.Fprintf(w, "terms            %d\n", ix.Terms())
	fmt.Fprintf(w, "postings         %d\n", ix.Postings())
	fmt.Fprintf(w, "load             %.3f s\n", loaded.Sub(start).Seconds())
	fmt.Fprintf(w, "index            %.3f s\n", built.Sub(loaded).Seconds())
	var texts []string
	if f := c.String("queries"); f != "" {
		qs, err := readBatch(f)
		if err != nil {
			return err
		}
		for _, q := range qs {
			texts = append(texts, q.Text)
		}
	} else {
		// Exactly benchTitles (or every case of a smaller library), spread
		// evenly: a step of n/200 rounded down gave 202 of 6,854.
		m := min(benchTitles, ix.Len())
		for k := range m {
			texts = append(texts, ix.Case(k*ix.Len()/m).Title.EN)
		}
	}
	repeat := max(1, c.Int("repeat"))
	var lat []time.Duration
	for range repeat {
		for _, t := range texts {
			t0 := time.Now()
			ix.Match(similarity.Query{Text: t, K: 10})
			lat = append(lat, time.Since(t0))
		}
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	if len(lat) > 0 {
		fmt.Fprintf(w, "match            %d pastes × %d: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", len(texts), repeat, pct(0.5), pct(0.99), pct(1))
	}
	if c.Bool("relate") {
		t0 := time.Now()
		ix.AllRelated(10, 0, nil)
		fmt.Fprintf(w, "relate top-10    %.3f s\n", time.Since(t0).Seconds())
	}
	fmt.Fprintf(w, "whole process    %.3f s\n", time.Since(start).Seconds())
	if rss := peakRSS(); rss > 0 {
		fmt.Fprintf(w, "peak RSS         %d MB\n", rss>>20)
	}
	return nil
}

// benchIndex loads and indexes the library of c, and says when loading
// ended. A library of files is read as a stream and indexed as it is read
// (stream.go): loading then ends when the last case is read, analyzed, and
// only the weighing is left; the index reads the cases it is asked for from
// their files.
func (env *env) benchIndex(c *cli.Context) (*similarity.Index, time.Time, error) {
	cfg := similarity.DefaultConfig()
	if o, err := stampOptionsOf(c); err == nil && streamable(o.paths) {
		b, err := similarity.NewBuilder(cfg, nil)
		if err != nil {
			return nil, time.Time{}, usageError{err}
		}
		var notes strings.Builder
		env.notes, env.hold = &notes, true
		lib, _, err := env.streamLibrary(c, o, b.Add)
		env.notes, env.hold = nil, false
		if !errors.Is(err, caselib.ErrRetracted) {
			fmt.Fprint(env.stderr, notes.String())
		}
		if err == nil {
			loaded := time.Now()
			files, spans, ok := lib.Spans()
			if !ok {
				return nil, loaded, errors.New("bench: the library's cases cannot be read again")
			}
			rd := &caseReader{st: &libStamp{Paths: o.paths, Files: caselib.FileStamps(o.paths), Sources: files, Spans: spans}}
			restore := limitHeap(b) // stream.go
			ix, _, err := b.Index(rd.read)
			restore()
			if err != nil {
				return nil, loaded, usageError{err}
			}
			return ix, loaded, nil
		}
		if !errors.Is(err, caselib.ErrRetracted) {
			return nil, time.Time{}, err
		}
	}
	lib, err := env.loadLibrary(c)
	if err != nil {
		return nil, time.Time{}, err
	}
	loaded := time.Now()
	ix, err := similarity.BuildCases(lib.Cases, cfg)
	if err != nil {
		return nil, loaded, usageError{err}
	}
	return ix, loaded, nil
}

// peakRSS returns the process's peak resident set size in bytes, read from
// /proc/self/status (Linux); 0 where that is not available.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
