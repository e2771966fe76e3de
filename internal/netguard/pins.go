package netguard

import (
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"
)

// pinTable holds the addresses the navigation check pinned for each host.
type pinTable struct {
	ttl time.Duration
	now func() time.Time

	// mu guards m.
	mu sync.Mutex
	m  map[string]pin // by hostKey
}

type pin struct {
	addrs   []netip.Addr
	expires time.Time
}

func newPinTable(ttl time.Duration, now func() time.Time) *pinTable {
	return &pinTable{ttl: ttl, now: now, m: make(map[string]pin)}
}

// set pins host to addrs for the table's TTL; empty addrs removes the pin.
// It also drops every expired pin, so hosts never asked for again do not
// pile up in a long-running daemon.
func (t *pinTable) set(host string, addrs []netip.Addr) {
	key := hostKey(host)
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for k, p := range t.m {
		if !now.Before(p.expires) {
			delete(t.m, k)
		}
	}
	if len(addrs) == 0 {
		delete(t.m, key)
		return
	}
	t.m[key] = pin{addrs: slices.Clone(addrs), expires: now.Add(t.ttl)}
}

// get returns host's pinned addresses, or false if it has no live pin.
// An expired pin is dropped here.
func (t *pinTable) get(host string) ([]netip.Addr, bool) {
	key := hostKey(host)
	t.mu.Lock()
	defer t.mu.Unlock()
	p, ok := t.m[key]
	if !ok {
		return nil, false
	}
	if !t.now().Before(p.expires) {
		delete(t.m, key)
		return nil, false
	}
	return slices.Clone(p.addrs), true
}

// hostKey is how pins are keyed: the host lower-cased, without a port or
// IPv6 brackets, so that "Example.COM:443", "example.com" and the host of a
// CONNECT line all meet.
func hostKey(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.ToLower(host)
}
