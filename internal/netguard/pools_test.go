package netguard

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// TestSessionsShareNoConnection: two clients of the proxy (two browser
// contexts, two sessions) asking one plain http site never reach it on the
// same connection, so the site cannot link them by it; each client's own
// requests reuse its connection. Counted at the site by the source address
// of each request. With one pool for all clients the second client rode
// the first one's connection.
func TestSessionsShareNoConnection(t *testing.T) {
	var mu sync.Mutex
	from := map[string][]string{} // client → the source addresses its requests came from
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		from[r.URL.Query().Get("who")] = append(from[r.URL.Query().Get("who")], r.RemoteAddr)
		mu.Unlock()
		io.WriteString(w, "ok")
	}))
	t.Cleanup(up.Close)
	fn := newFakeNet()
	fn.route(publicAddr, 80, up.Listener.Addr().String())
	p := startProxy(t, publicDNS(), fn, 0)
	alice := proxied(t, p, nil)
	bob := proxied(t, p, nil)
	for i := range 3 {
		for who, c := range map[string]*http.Client{"alice": alice, "bob": bob} {
			resp, err := c.Get(fmt.Sprintf("http://example.com/?who=%s&i=%d", who, i))
			if err != nil {
				t.Fatalf("%s, request %d: %v", who, i, err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	mu.Lock()
	defer mu.Unlock()
	seen := map[string]string{} // source address → client
	for who, addrs := range from {
		for _, a := range addrs {
			if other, ok := seen[a]; ok && other != who {
				t.Errorf("%s and %s reached the site on one connection (%s): it can link them", other, who, a)
			}
			seen[a] = who
		}
		if len(addrs) != 3 {
			t.Errorf("%s: %d requests reached the site, want 3", who, len(addrs))
		}
	}
	if len(seen) != 2 {
		t.Errorf("the site saw %d connections for two clients asking one after another, want 2 (one each, kept): %v", len(seen), from)
	}
}
