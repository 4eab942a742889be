//go:build linux

package similarity

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// threadCPU is the CPU time the calling OS thread has used (the whole
// process's, the garbage collector's included, is processCPUTime).
func threadCPU() time.Duration { return clock(3) } // CLOCK_THREAD_CPUTIME_ID

func clock(id uintptr) time.Duration {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// TestCPUTimes is a timing tool, not a check: with CASELINK_CPU_TIMES set to
// a library file it times, in thread CPU time on one core (the search not
// split), Match for the titles of 200 cases spread over the library (best of
// 5 per paste), and Related for 200 cases, and prints mean, p50 and p99; with
// CASELINK_CPU_PASTES set to a JSON Lines file of pastes (a judged set's
// queries.jsonl) also Match for each of those. On a shared machine wall
// clock moves with the load; a thread's CPU time much less. Run it with two
// builds one after the other to compare them.
func TestCPUTimes(t *testing.T) {
	path := os.Getenv("CASELINK_CPU_TIMES")
	if path == "" {
		t.Skip("CASELINK_CPU_TIMES not set")
	}
	ix := indexOfFile(t, path)
	ix.opts.parallelMin = 1 << 30
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var docs []int
	for i := 0; i < ix.Len(); i += max(1, ix.Len()/200) {
		docs = append(docs, i)
	}
	report := func(name string, one func(d int)) {
		p0 := processCPUTime()
		times := make([]time.Duration, len(docs))
		for i := range times {
			times[i] = time.Hour
		}
		for range 5 {
			for i, d := range docs {
				t0 := threadCPU()
				one(d)
				times[i] = min(times[i], threadCPU()-t0)
			}
		}
		var sum time.Duration
		for _, x := range times {
			sum += x
		}
		slices.Sort(times)
		q := func(f float64) time.Duration { return times[min(len(times)-1, int(f*float64(len(times))))] }
		per := (processCPUTime() - p0) / time.Duration(5*len(docs))
		fmt.Printf("%s: thread CPU, best of 5: mean %v p50 %v p99 %v; process CPU (GC included) per call %v (%d)\n",
			name, sum/time.Duration(len(times)), q(0.5), q(0.99), per, len(times))
	}
	report("match", func(d int) { ix.Match(Query{Text: strings.TrimSpace(ix.Case(d).Title.EN), K: 10}) })
	report("related", func(d int) { ix.Related(d, 10, 0) })
	if f := os.Getenv("CASELINK_CPU_PASTES"); f != "" {
		texts := pasteTexts(t, f)
		docs = docs[:0]
		for i := range texts {
			docs = append(docs, i)
		}
		report("match pastes", func(i int) { ix.Match(Query{Text: texts[i], K: 10}) })
	}
}
