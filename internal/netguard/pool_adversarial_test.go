package netguard

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// closeTracker wraps the fake network's dials and records which of the
// proxy's upstream connections it has closed.
type closeTracker struct {
	fn    *fakeNet
	mu    sync.Mutex
	conns []*trackedConn
}

type trackedConn struct {
	net.Conn
	closed atomic.Bool
}

func (c *trackedConn) Close() error {
	c.closed.Store(true)
	return c.Conn.Close()
}

func (ct *closeTracker) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := ct.fn.Dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	tc := &trackedConn{Conn: c}
	ct.mu.Lock()
	ct.conns = append(ct.conns, tc)
	ct.mu.Unlock()
	return tc, nil
}

func (ct *closeTracker) open() (open, all int) {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	for _, c := range ct.conns {
		if !c.closed.Load() {
			open++
		}
	}
	return open, len(ct.conns)
}

// TestPooledConnectionsAfterRebinding is the adversary of the proxy's larger
// pool (32 idle connections a site): a name judged public while a page
// opened a dozen connections, which then turns to a private address. A
// request may ride a kept connection, but only to the address judged when
// it was dialed; every new connection is judged again and refused; the
// private server is never reached; and Close leaves none of the kept
// connections open.
func TestPooledConnectionsAfterRebinding(t *testing.T) {
	const n = 12
	var mu sync.Mutex
	arrived, held := 0, false
	all := make(chan struct{})
	public := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrived++
		together := all
		if arrived == n && !held {
			held = true
			close(together)
		}
		mu.Unlock()
		select { // hold the first round's requests together, so it needs n connections
		case <-together:
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
		io.WriteString(w, "public")
	}))
	defer public.Close()
	var privateHits atomic.Int64
	private := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		privateHits.Add(1)
		io.WriteString(w, "private")
	}))
	defer private.Close()

	fn := newFakeNet()
	fn.route(publicAddr, 80, public.Listener.Addr().String())
	fn.route(privateAddr, 80, private.Listener.Addr().String())
	ct := &closeTracker{fn: fn}
	var rebound atomic.Bool
	dns := newFakeDNS(func(host string, _ int) ([]netip.Addr, error) {
		if rebound.Load() {
			return nil, fmt.Errorf("%q resolves to %s: %w", host, privateAddr, errPrivate)
		}
		return []netip.Addr{publicAddr}, nil
	})
	p, err := Start(Options{Resolve: dns.Resolve, Dial: ct.Dial})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	client := proxied(t, p, &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: n})

	round := func(name string) (ok, refused int) {
		var wg sync.WaitGroup
		var rmu sync.Mutex
		for i := range n {
			wg.Go(func() {
				resp, err := client.Get(fmt.Sprintf("http://rebind.test/%s/%d", name, i))
				if err != nil {
					t.Errorf("%s %d: %v", name, i, err)
					return
				}
				body := readBody(t, resp)
				rmu.Lock()
				defer rmu.Unlock()
				switch {
				case resp.StatusCode == http.StatusOK && body == "public":
					ok++
				case resp.StatusCode == http.StatusForbidden && strings.Contains(body, privateAddr.String()):
					refused++
				default:
					t.Errorf("%s %d: %d %q, want the public server or a refusal", name, i, resp.StatusCode, body)
				}
			})
		}
		wg.Wait()
		return ok, refused
	}

	if ok, _ := round("before"); ok != n {
		t.Fatalf("before the rebinding %d of %d requests reached the public server", ok, n)
	}
	if _, dialed := ct.open(); dialed != n {
		t.Fatalf("the first round dialed %d connections, want %d", dialed, n)
	}
	rebound.Store(true)
	ok, refused := round("after")
	t.Logf("after the rebinding: %d on kept connections to %s, %d refused", ok, publicAddr, refused)

	if h := privateHits.Load(); h != 0 {
		t.Errorf("the private server answered %d requests", h)
	}
	for _, d := range fn.Dials() {
		if !strings.HasPrefix(d, publicAddr.String()+":") {
			t.Errorf("dialed %s", d)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if open, dialed := ct.open(); open != 0 {
		t.Errorf("after Close %d of the %d connections to the site are still open", open, dialed)
	}
}
