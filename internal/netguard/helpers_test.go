package netguard

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// Addresses of the fake internet. They are never dialed: fakeNet maps them to
// loopback listeners.
var (
	publicAddr  = netip.MustParseAddr("93.184.216.34")
	privateAddr = netip.MustParseAddr("10.0.0.5")
	deadAddr    = netip.MustParseAddr("198.51.100.1") // no route in fakeNet
)

// errPrivate stands for the policy's refusal of a private address.
var errPrivate = errors.New("private address")

// fakeNet is the Dial seam: it sends every dial for a known address to a
// loopback listener and records what was asked for. Anything else fails
// without touching the network.
type fakeNet struct {
	mu     sync.Mutex
	routes map[string]string // "93.184.216.34:80" → "127.0.0.1:PORT"
	dials  []string
}

func newFakeNet() *fakeNet { return &fakeNet{routes: make(map[string]string)} }

// route sends dials for addr:port to the loopback listener at to.
func (n *fakeNet) route(addr netip.Addr, port uint16, to string) {
	if ap := netip.MustParseAddrPort(to); !ap.Addr().IsLoopback() {
		panic("fakeNet routes only to loopback, not " + to)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.routes[netip.AddrPortFrom(addr, port).String()] = to
}

func (n *fakeNet) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	n.mu.Lock()
	n.dials = append(n.dials, addr)
	to, ok := n.routes[addr]
	n.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("test network has no route to %s", addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, to)
}

func (n *fakeNet) Dials() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.dials...)
}

// fakeDNS is the Resolve seam: answer decides each host's reply from how
// many times it was asked before.
type fakeDNS struct {
	answer func(host string, call int) ([]netip.Addr, error)

	mu    sync.Mutex
	calls map[string]int
}

func newFakeDNS(answer func(host string, call int) ([]netip.Addr, error)) *fakeDNS {
	return &fakeDNS{answer: answer, calls: make(map[string]int)}
}

func (d *fakeDNS) Resolve(_ context.Context, host string) ([]netip.Addr, error) {
	d.mu.Lock()
	n := d.calls[host]
	d.calls[host]++
	d.mu.Unlock()
	return d.answer(host, n)
}

func (d *fakeDNS) Calls(host string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.calls[host]
}

func (d *fakeDNS) Total() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, c := range d.calls {
		n += c
	}
	return n
}

// publicDNS answers every host with publicAddr, except that it refuses
// private literals and names under refused.test.
func publicDNS() *fakeDNS {
	return newFakeDNS(func(host string, _ int) ([]netip.Addr, error) {
		if host == privateAddr.String() || strings.HasSuffix(host, "refused.test") {
			return nil, fmt.Errorf("%s is a <private> address & not allowed: %w", host, errPrivate)
		}
		return []netip.Addr{publicAddr}, nil
	})
}

// startProxy starts a proxy on the fake network and closes it when the test
// ends.
func startProxy(t *testing.T, dns *fakeDNS, fn *fakeNet, ttl time.Duration) *Proxy {
	t.Helper()
	p, err := Start(Options{Resolve: dns.Resolve, Dial: fn.Dial, PinTTL: ttl})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return p
}

// proxied returns tr (or a new Transport) set to use p, closing its idle
// connections when the test ends.
func proxied(t *testing.T, p *Proxy, tr *http.Transport) *http.Client {
	t.Helper()
	u, err := url.Parse(p.URL())
	if err != nil {
		t.Fatal(err)
	}
	if tr == nil {
		tr = &http.Transport{DisableCompression: true}
	}
	tr.Proxy = http.ProxyURL(u)
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
}

// dialProxy opens a raw connection to the proxy, closed when the test ends
// and bounded by a deadline so a hang fails the test.
func dialProxy(t *testing.T, p *Proxy) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(p.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	return conn
}

// connect sends a raw CONNECT for target, followed at once by early (in the
// same write, so net/http is likely to buffer it), and reads the answer.
func connect(t *testing.T, p *Proxy, target string, early string) (net.Conn, *bufio.Reader, *http.Response) {
	t.Helper()
	conn := dialProxy(t, p)
	if _, err := fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n%s", target, target, early); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		t.Fatalf("read CONNECT answer: %v", err)
	}
	return conn, br, resp
}

func readBody(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return string(b)
}

// rawRequest writes raw to the proxy and reads one response.
func rawRequest(t *testing.T, p *Proxy, raw string) *http.Response {
	t.Helper()
	conn := dialProxy(t, p)
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read answer: %v", err)
	}
	return resp
}
