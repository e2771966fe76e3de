package daemon

import (
	"context"
	"runtime/debug"
	"time"
)

// What a resident daemon gives back once it is quiet: trimAfter with no
// request under way (an agent thinks for seconds between commands; a burst
// of commands is never interrupted), at most once per trimEvery.
const (
	trimAfter = time.Second
	trimEvery = time.Minute
)

// trimLoop gives the Go heap the daemon freed back to the system
// (debug.FreeOSMemory) when the server has been quiet for trimAfter, rather
// than when the runtime's scavenger gets to it. It runs until ctx is done;
// end wakes it through s.quiet.
//
// Not done, on purpose: dropping the mappings of the daemon's own
// executable (madvise DONTNEED on its code, ~25 MB of tree PSS). Those are
// clean pages of the page cache that the kernel reclaims under pressure
// anyway; unmapping them lowers the figure a PSS count shows, not the
// memory the machine has.
func (s *Server) trimLoop(ctx context.Context) {
	t := time.NewTimer(trimAfter)
	defer t.Stop()
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.quiet:
			t.Reset(trimAfter)
		case <-t.C:
			if s.busy() || (!last.IsZero() && time.Since(last) < trimEvery) {
				continue
			}
			last = time.Now()
			debug.FreeOSMemory()
			s.log.Info("gave memory back", "ms", time.Since(last).Milliseconds())
		}
	}
}

// busy reports whether a request is under way.
func (s *Server) busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active > 0
}
