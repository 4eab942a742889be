package serve

import (
	"context"
	"net/http"
)

// pin.go keeps a replaced index open while requests still read it. A
// reload swaps in a new snapshot; the one it replaced is retired, and its
// index closed (similarity.Index.Close: the index file it was opened from
// is given back, disk space and pages) once the last request that started
// on it has answered. Without it, every reload of a streamed library would
// leave its replaced file mapped for the life of the process.

// snapKey is the context key of a request's pinned snapshot.
type snapKey struct{}

// pinned gives every request the snapshot current when it started, pinned
// until the request has answered (Server.snap reads it).
func (s *Server) pinned(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		snap := s.acquire()
		defer snap.release()
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), snapKey{}, snap)))
	})
}

// snap returns the snapshot pinned for request r: every handler is
// reached through pinned (routes).
func (s *Server) snap(r *http.Request) *snapshot {
	return r.Context().Value(snapKey{}).(*snapshot)
}

// acquire returns the current snapshot, pinned: its index stays open
// until release. A snapshot replaced between its load and the count is
// let go and the new one taken, so that none is pinned after its retire
// saw it unused.
func (s *Server) acquire() *snapshot {
	for {
		snap := s.cur.Load()
		snap.users.Add(1)
		if s.cur.Load() == snap {
			return snap
		}
		snap.release()
	}
}

// release unpins snap, closing its index if it was retired and this was
// its last user.
func (snap *snapshot) release() {
	if snap.users.Add(-1) == 0 && snap.retired.Load() {
		snap.ix.Close()
	}
}

// retire marks snap, just replaced, as done: its index is closed now if
// no request reads it, else by the last one's release. Closing twice (a
// release racing the retire) does nothing more.
func (snap *snapshot) retire() {
	snap.retired.Store(true)
	if snap.users.Load() == 0 {
		snap.ix.Close()
	}
}
