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

// trimLoop gives memory back when the server has been quiet for trimAfter:
// the pages of its executable that start-up mapped (trimImage: ~45 of the
// daemon's ~55 MB; what it runs again comes back as minor faults) and the
// Go heap it freed (debug.FreeOSMemory). It runs until ctx is done; end
// wakes it through s.quiet.
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
			n := trimImage()
			s.log.Info("gave memory back", "image_bytes", n, "ms", time.Since(last).Milliseconds())
		}
	}
}

// busy reports whether a request is under way.
func (s *Server) busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active > 0
}
