package netguard

import (
	"slices"
	"sync"
	"time"
)

// maxRefusals is how many refusals a Proxy remembers; older ones are dropped.
const maxRefusals = 100

// Refusal is one host the proxy refused to connect to.
type Refusal struct {
	Host string    // lower-cased, without port
	Err  error     // the error Options.Resolve returned, as it returned it
	At   time.Time // when the proxy refused it
}

// refusalLog keeps the most recent refusals, oldest first.
type refusalLog struct {
	// mu guards list.
	mu   sync.Mutex
	list []Refusal
}

func (l *refusalLog) add(r Refusal) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.list) == maxRefusals {
		// Shift rather than keep a ring: a hundred small structs, and
		// refusals are rare next to the page loads around them.
		l.list = slices.Delete(l.list, 0, 1)
	}
	l.list = append(l.list, r)
}

func (l *refusalLog) all() []Refusal {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.list)
}
