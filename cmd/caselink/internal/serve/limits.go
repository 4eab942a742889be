package serve

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
)

// A paste's cost (analyzer terms, query vector, scoring) grows with its
// length: a paste of largePaste bytes or more waits for one of
// largePastesAtOnce slots, so that many large pastes at once queue instead
// of each holding its memory at the same moment. Small pastes, the usual
// on-call paste, never wait.
const (
	largePaste        = 8 << 10
	largePastesAtOnce = 2
)

// admitPaste checks a paste against ServiceOptions.MaxPaste (413 when
// larger) and, for a large one, waits for a slot. It returns the function
// that gives the slot back, or ok false when it has answered the request
// (too large, or the client went away while waiting).
func (s *Server) admitPaste(w http.ResponseWriter, r *http.Request, text string) (release func(), ok bool) {
	if max := s.opts.Service.MaxPaste; len(text) > max {
		writeError(w, http.StatusRequestEntityTooLarge, "the paste is %s, more than the server's limit of %s (--max-paste): paste the alert and the first error lines",
			byteSize(int64(len(text))), byteSize(int64(max)))
		return nil, false
	}
	if len(text) < largePaste {
		return func() {}, true
	}
	select {
	case s.pastes <- struct{}{}:
	default:
		s.metrics.pasteWaits.Inc()
		select {
		case s.pastes <- struct{}{}:
		case <-r.Context().Done():
			writeError(w, http.StatusServiceUnavailable, "gave up waiting for other large pastes to finish")
			return nil, false
		}
	}
	return func() { <-s.pastes }, true
}

// bodyLimit is the largest request body the API reads: MaxBodyBytes, or
// more when --max-paste asks for pastes that, escaped in JSON, need it.
func (s *Server) bodyLimit() int64 {
	return max(MaxBodyBytes, 6*int64(s.opts.Service.MaxPaste)+64<<10)
}

// byteSize writes n bytes as 64 KiB, 1.5 MiB, 300 B.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// ParseNumber reads a number given as text (a query parameter, a flag),
// refusing NaN and ±Inf, which compare false with every bound and would
// otherwise slip past range checks.
func ParseNumber(name, v string) (float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s must be a number, got %q", name, v)
	}
	return f, nil
}
