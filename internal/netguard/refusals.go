package netguard

import (
	"slices"
	"sync"
	"time"
)

// maxRecent is how many refusals, and how many failures, a Proxy
// remembers; older ones are dropped.
const maxRecent = 100

// Refusal is one host the proxy refused to connect to: its own refusal
// (the URL policy, a private address, a name that did not resolve), which
// the browser gets as a 403 (a page for plain http; Chromium shows
// ERR_TUNNEL_CONNECTION_FAILED for a refused CONNECT).
type Refusal struct {
	Host string    // lower-cased, without port
	Err  error     // the error Options.Resolve returned, as it returned it
	At   time.Time // when the proxy refused it
}

// recent keeps the most recent entries of a log, oldest first.
type recent[T any] struct {
	// mu guards list.
	mu   sync.Mutex
	list []T
}

func (l *recent[T]) add(e T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.list) == maxRecent {
		// Shift rather than keep a ring: a hundred small structs, and
		// refusals and failures are rare next to the page loads around
		// them.
		l.list = slices.Delete(l.list, 0, 1)
	}
	l.list = append(l.list, e)
}

func (l *recent[T]) all() []T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.list)
}
