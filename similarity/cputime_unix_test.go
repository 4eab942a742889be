//go:build unix

package similarity

import (
	"syscall"
	"time"
)

// processCPUTime returns the user+system CPU time of the process, so that
// benchmarks on a shared machine can report CPU seconds an operation,
// which other processes move far less than wall time.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
