//go:build race

package similarity

// raceEnabled says the tests run under the race detector, which makes
// sync.Pool drop some of what it is given: counts of allocations mean
// nothing there.
const raceEnabled = true
