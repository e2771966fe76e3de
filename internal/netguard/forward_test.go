package netguard

import (
	"bufio"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// seen is what the upstream server saw of one request.
type seen struct {
	host, uri string
	header    http.Header
}

func TestForwardPlainHTTP(t *testing.T) {
	var (
		mu  sync.Mutex
		got []seen
	)
	// Each streamed body's second chunk waits for its gate, which the test
	// opens after reading the first chunk (or at cleanup, on failure).
	gates := map[string]*gate{"/stream/events": newGate(), "/stream/sized": newGate()}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, seen{r.Host, r.RequestURI, r.Header.Clone()})
		mu.Unlock()
		if strings.HasPrefix(r.URL.Path, "/stream") {
			// ReverseProxy flushes event streams and bodies of unknown
			// length on its own; a body with a Content-Length flows only
			// with FlushInterval -1.
			if r.URL.Path == "/stream/events" {
				w.Header().Set("Content-Type", "text/event-stream")
			} else {
				w.Header().Set("Content-Type", "application/octet-stream")
				w.Header().Set("Content-Length", fmt.Sprint(2*len("data: one\n\n")))
			}
			io.WriteString(w, "data: one\n\n")
			http.NewResponseController(w).Flush()
			select {
			case <-gates[r.URL.Path].c:
			case <-r.Context().Done():
				return
			}
			io.WriteString(w, "data: two\n\n")
			return
		}
		w.Header().Set("X-Upstream", "yes")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "hello from upstream")
	}))
	t.Cleanup(up.Close)
	fn := newFakeNet()
	fn.route(publicAddr, 80, up.Listener.Addr().String())
	p := startProxy(t, publicDNS(), fn, 0)
	client := proxied(t, p, nil)
	t.Cleanup(func() { // first of the cleanups, so a failed stream test unwinds
		for _, g := range gates {
			g.open()
		}
	})

	t.Run("request and response", func(t *testing.T) {
		// The ";" query would be dropped by ReverseProxy's own cleaning; the
		// proxy must send the URL the browser asked for.
		req, _ := http.NewRequest("GET", "http://public.test/x?q=1;r=2", nil)
		req.Header.Set("User-Agent", "waymark-test")
		req.Header.Set("X-Page", "1")
		req.Header.Set("X-Forwarded-For", "page-set")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if body := readBody(t, resp); resp.StatusCode != http.StatusCreated || body != "hello from upstream" {
			t.Errorf("got %d %q, want 201 %q", resp.StatusCode, body, "hello from upstream")
		}
		if resp.Header.Get("X-Upstream") != "yes" {
			t.Errorf("response header X-Upstream = %q, want yes", resp.Header.Get("X-Upstream"))
		}
		mu.Lock()
		s := got[len(got)-1]
		mu.Unlock()
		if s.host != "public.test" || s.uri != "/x?q=1;r=2" {
			t.Errorf("upstream saw Host %q URI %q, want public.test /x?q=1;r=2", s.host, s.uri)
		}
		// Exactly what the client sent: nothing added (no Via, Forwarded,
		// X-Forwarded-*, Accept-Encoding), and the page's own
		// X-Forwarded-For kept as it was.
		want := http.Header{
			"User-Agent":      {"waymark-test"},
			"X-Page":          {"1"},
			"X-Forwarded-For": {"page-set"},
		}
		if !reflect.DeepEqual(s.header, want) {
			t.Errorf("upstream saw headers %v, want %v", s.header, want)
		}
	})

	t.Run("no forwarding headers added", func(t *testing.T) {
		resp, err := client.Get("http://public.test/plain")
		if err != nil {
			t.Fatal(err)
		}
		readBody(t, resp)
		mu.Lock()
		s := got[len(got)-1]
		mu.Unlock()
		for _, h := range []string{"X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "Forwarded", "Via"} {
			if v, ok := s.header[h]; ok {
				t.Errorf("upstream saw %s: %q; the proxy must add no header", h, v)
			}
		}
	})

	for _, path := range []string{"/stream/events", "/stream/sized"} { // each run once: gates open once
		t.Run("streamed body flows "+path, func(t *testing.T) {
			type result struct {
				resp  *http.Response
				first string
				err   error
			}
			first := make(chan result, 1)
			go func() { // ends when the first chunk arrives, or the request fails
				resp, err := client.Get("http://public.test" + path)
				if err != nil {
					first <- result{err: err}
					return
				}
				b := make([]byte, len("data: one\n\n"))
				n, err := io.ReadFull(resp.Body, b)
				first <- result{resp, string(b[:n]), err}
			}()
			var r result
			select {
			case r = <-first:
			case <-time.After(10 * time.Second):
				// The server is still holding the second chunk, so the
				// only way to be here is a proxy that buffers.
				t.Fatal("first chunk did not arrive before the server wrote the second; the proxy buffers")
			}
			if r.err != nil {
				t.Fatal(r.err)
			}
			defer r.resp.Body.Close()
			if r.first != "data: one\n\n" {
				t.Fatalf("first chunk %q", r.first)
			}
			gates[path].open()
			rest, err := io.ReadAll(r.resp.Body)
			if err != nil || string(rest) != "data: two\n\n" {
				t.Errorf("rest = %q, %v; want the second chunk", rest, err)
			}
		})
	}

	for _, d := range fn.Dials() {
		if d != "93.184.216.34:80" {
			t.Errorf("dialed %s, want only the checked 93.184.216.34:80", d)
		}
	}
}

func TestRefusedHost(t *testing.T) {
	tests := []struct {
		name, host string
	}{
		{"name", "refused.test"},
		{"private literal", privateAddr.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn := newFakeNet()
			dns := publicDNS()
			p := startProxy(t, dns, fn, 0)
			reason := tt.host + " is a <private> address & not allowed: private address"

			resp, err := proxied(t, p, nil).Get("http://" + tt.host + "/secret")
			if err != nil {
				t.Fatal(err)
			}
			body := readBody(t, resp)
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("plain http: status %d, want 403", resp.StatusCode)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Errorf("plain http: Content-Type %q, want text/html", ct)
			}
			if !strings.Contains(body, html.EscapeString(reason)) || strings.Contains(body, "<private>") {
				t.Errorf("plain http: page does not hold the escaped reason %q:\n%s", reason, body)
			}

			_, _, cresp := connect(t, p, tt.host+":443", "")
			if cresp.StatusCode != http.StatusForbidden {
				t.Errorf("CONNECT: status %d, want 403", cresp.StatusCode)
			}
			if line := readBody(t, cresp); strings.Count(strings.TrimSpace(line), "\n") != 0 || !strings.Contains(line, "private address") {
				t.Errorf("CONNECT: body %q, want one line with the reason", line)
			}

			if d := fn.Dials(); len(d) != 0 {
				t.Errorf("dialed %v for a refused host", d)
			}
			rs := p.Refusals()
			if len(rs) != 2 {
				t.Fatalf("Refusals() = %v, want 2", rs)
			}
			for _, r := range rs {
				if r.Host != tt.host || !errors.Is(r.Err, errPrivate) || r.At.IsZero() {
					t.Errorf("refusal %+v, want host %s and the resolver's error", r, tt.host)
				}
			}
		})
	}
}

func TestDialFallsThroughAndFails(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	defer up.Close()
	fn := newFakeNet()
	fn.route(publicAddr, 80, up.Listener.Addr().String())
	dns := newFakeDNS(func(host string, _ int) ([]netip.Addr, error) {
		if host == "dead.test" {
			return []netip.Addr{deadAddr}, nil
		}
		return []netip.Addr{deadAddr, publicAddr}, nil
	})
	p := startProxy(t, dns, fn, 0)
	client := proxied(t, p, nil)

	resp, err := client.Get("http://second.test/")
	if err != nil {
		t.Fatal(err)
	}
	if body := readBody(t, resp); body != "ok" {
		t.Errorf("second address: got %d %q, want the upstream's ok", resp.StatusCode, body)
	}
	if d, want := fn.Dials(), []string{"198.51.100.1:80", "93.184.216.34:80"}; !reflect.DeepEqual(d, want) {
		t.Errorf("dials %v, want %v (in the resolver's order)", d, want)
	}

	// A site that cannot be reached gets no answer made up by the proxy
	// (a 502 would read as the site's own): the browser's connection is
	// reset, and the failure is kept for the driver to name.
	if resp, err := client.Get("http://dead.test/"); err == nil {
		t.Errorf("plain http to an unreachable address: status %d, want the connection reset", resp.StatusCode)
		resp.Body.Close()
	}
	conn := dialProxy(t, p)
	fmt.Fprintf(conn, "CONNECT dead.test:443 HTTP/1.1\r\nHost: dead.test:443\r\n\r\n")
	if cresp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: http.MethodConnect}); err == nil {
		t.Errorf("CONNECT to an unreachable address: status %d, want the connection reset", cresp.StatusCode)
	}
	// (Go's client may try the GET twice on a reset.)
	fs := p.Failures()
	if len(fs) < 2 {
		t.Errorf("Failures() = %v, want dead.test for each try", fs)
	}
	for _, f := range fs {
		if f.Host != "dead.test" || f.Kind != FailOther {
			t.Errorf("failure %+v, want dead.test, %s", f, FailOther)
		}
	}
	if rs := p.Refusals(); len(rs) != 0 {
		t.Errorf("Refusals() = %v; an unreachable address is not a refusal", rs)
	}
}

func TestNotAProxyRequest(t *testing.T) {
	tests := []struct {
		name, raw string
	}{
		{"origin-form GET", "GET /x HTTP/1.1\r\nHost: public.test\r\n\r\n"},
		{"origin-form POST", "POST /x HTTP/1.1\r\nHost: public.test\r\nContent-Length: 0\r\n\r\n"},
		{"absolute https", "GET https://public.test/ HTTP/1.1\r\nHost: public.test\r\n\r\n"},
		{"CONNECT without port", "CONNECT public.test HTTP/1.1\r\nHost: public.test\r\n\r\n"},
	}
	fn := newFakeNet()
	dns := publicDNS()
	p := startProxy(t, dns, fn, 0)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := rawRequest(t, p, tt.raw)
			body := readBody(t, resp)
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "waymark's proxy") {
				t.Errorf("got %d %q, want 400 naming waymark's proxy", resp.StatusCode, body)
			}
		})
	}
	t.Run("http.Get of the proxy URL", func(t *testing.T) {
		direct := &http.Client{Transport: &http.Transport{}} // no environment proxy
		defer direct.CloseIdleConnections()
		resp, err := direct.Get(p.URL() + "/x")
		if err != nil {
			t.Fatal(err)
		}
		if body := readBody(t, resp); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "waymark's proxy for its browser") {
			t.Errorf("got %d %q, want 400 saying this is waymark's proxy", resp.StatusCode, body)
		}
	})
	if d := fn.Dials(); len(d) != 0 || dns.Total() != 0 {
		t.Errorf("dials %v, %d lookups; want none", d, dns.Total())
	}
}

// gate is a channel closed at most once.
type gate struct {
	c    chan struct{}
	once sync.Once
}

func newGate() *gate { return &gate{c: make(chan struct{})} }

func (g *gate) open() { g.once.Do(func() { close(g.c) }) }
