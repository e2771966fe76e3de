package netguard

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestForwardReusesConnections: a browser sends a page's requests to one
// site over several connections at once; the proxy keeps its connections to
// the site for the next page rather than dialing them again. Counted at the
// site: each round holds n requests open together (so it needs n
// connections), and the second round finds them idle. With net/http's
// default of two idle connections a host, it dialed n−2 again.
func TestForwardReusesConnections(t *testing.T) {
	const n = 12
	var conns atomic.Int64
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	up := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrived++
		together := all
		if arrived == n {
			close(together)
		}
		mu.Unlock()
		select {
		case <-together:
		case <-time.After(10 * time.Second):
			t.Errorf("the %d requests of a round never reached the site together", n)
		}
		io.WriteString(w, "ok")
	}))
	up.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	up.Start()
	t.Cleanup(up.Close)
	fn := newFakeNet()
	fn.route(publicAddr, 80, up.Listener.Addr().String())
	p := startProxy(t, publicDNS(), fn, 0)
	client := proxied(t, p, &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: n})

	round := func(name string) int64 {
		t.Helper()
		before := conns.Load()
		mu.Lock()
		arrived, all = 0, make(chan struct{})
		mu.Unlock()
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				resp, err := client.Get(fmt.Sprintf("http://example.com/r%d", i))
				if err != nil {
					t.Errorf("%s, request %d: %v", name, i, err)
					return
				}
				defer resp.Body.Close()
				if b, _ := io.ReadAll(resp.Body); string(b) != "ok" {
					t.Errorf("%s, request %d: %q", name, i, b)
				}
			})
		}
		wg.Wait()
		return conns.Load() - before
	}
	if got := round("first page"); got != n {
		t.Fatalf("the first page's %d requests opened %d connections to the site, want %d", n, got, n)
	}
	// A connection goes back to the proxy's pool a moment after its answer
	// reached the browser, so the second round may race one or two; the
	// default pool dialed n−2 = 10.
	if got := round("second page"); got > 3 {
		t.Errorf("the second page's %d requests opened %d new connections to the site, want the first page's reused", n, got)
	}
}
