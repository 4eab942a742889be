//go:build !unix

package similarity

import "time"

// processCPUTime is unavailable here; benchmarks then skip the CPU metric.
func processCPUTime() time.Duration { return 0 }
