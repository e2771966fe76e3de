package driver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/netlog"
	"github.com/waymark-dev/waymark/policy"
)

// TestProxyPassesSiteFailuresOn: through the daemon's address-pinning
// proxy, a site that refuses the connection or resets it before any
// answer reaches Chromium as a network error, not as an HTTP 502 the
// proxy made up: the open fails (naming what the site did), and the
// NetLog shows the reset and no status.
func TestProxyPassesSiteFailuresOn(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, downPort, _ := net.SplitHostPort(closed.Addr().String())
	closed.Close()
	resetter, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer resetter.Close()
	go func() {
		for {
			c, err := resetter.Accept()
			if err != nil {
				return // closed by the test
			}
			go func() {
				_, _ = c.Read(make([]byte, 4096)) // the request; no answer
				_ = c.(*net.TCPConn).SetLinger(0)
				c.Close()
			}()
		}
	}()
	_, resetPort, _ := net.SplitHostPort(resetter.Addr().String())
	// cut.test serves a page whose image is cut by a reset in its body.
	cutter, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer cutter.Close()
	go func() {
		for {
			c, err := cutter.Accept()
			if err != nil {
				return // closed by the test
			}
			go func() {
				buf := make([]byte, 4096)
				n, _ := c.Read(buf)
				if strings.HasPrefix(string(buf[:n]), "GET /img") {
					io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 100000\r\n\r\n\x89PNG\r\n\x1a\npartial")
					_ = c.(*net.TCPConn).SetLinger(0)
					c.Close()
					return
				}
				page := `<title>Cut</title><img src="/img">`
				fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(page), page)
				c.Close()
			}()
		}
	}()
	_, cutPort, _ := net.SplitHostPort(cutter.Addr().String())

	pol, err := policy.New(policy.Options{PrivateNetwork: policy.AccessLoopback})
	if err != nil {
		t.Fatal(err)
	}
	public := []netip.Addr{netip.MustParseAddr("93.184.216.34")}
	res := fakeResolver{"down.test": public, "reset.test": public, "cut.test": public}
	logPath := filepath.Join(t.TempDir(), "net.json")
	s, _ := guardedSession(t, ctx, path, driver.Options{
		// Chromium resolves no name itself: every request goes through
		// the proxy, which sends it to loopback (dialLog).
		Args:   []string{"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1"},
		Policy: pol, Resolver: res, NetLog: logPath,
	}, "proxyfail")

	since := time.Now()
	for _, tc := range []struct{ url, saw string }{
		{"http://down.test:" + downPort + "/", "the site refused the connection"},
		{"https://down.test:" + downPort + "/", "the site refused the connection"},
		{"http://reset.test:" + resetPort + "/", "the site reset the connection"},
	} {
		info, err := s.Open(ctx, calls.OpenRequest{URL: tc.url})
		if err == nil {
			t.Errorf("open %s: no error (status %d), want a network error", tc.url, info.Status)
			continue
		}
		if !errors.Is(err, calls.ErrNavigation) || !strings.Contains(err.Error(), "ERR_CONNECTION_RESET") || !strings.Contains(err.Error(), tc.saw) {
			t.Errorf("open %s: %v\nwant a navigation error with ERR_CONNECTION_RESET and %q", tc.url, err, tc.saw)
		}
	}
	// A reset in the middle of a body is a reset for the browser too
	// (ReverseProxy alone would close the connection as if it were whole).
	if _, err := s.Open(ctx, calls.OpenRequest{URL: "http://cut.test:" + cutPort + "/"}); err != nil {
		t.Fatalf("open the page with the cut image: %v", err)
	}
	// Until the image has failed (the load event may come first).
	if _, err := s.Eval(ctx, calls.EvalRequest{Expression: `new Promise(done => {
		const img = document.images[0];
		if (img.complete) return done(true);
		img.addEventListener('error', () => done(true));
		img.addEventListener('load', () => done(true));
	})`}); err != nil {
		t.Fatal(err)
	}
	nl, err := s.NetLog(ctx, calls.NetLogRequest{SinceUnixMS: since.UnixMilli()})
	if err != nil {
		t.Fatal(err)
	}
	var sum netlog.Summary
	if err := json.Unmarshal(nl.Summary, &sum); err != nil {
		t.Fatal(err)
	}
	seen, cut := 0, false
	for _, r := range sum.Requests {
		if !strings.Contains(r.URL, ".test:") || strings.HasSuffix(r.URL, "/favicon.ico") {
			continue
		}
		if strings.HasPrefix(r.URL, "http://cut.test:") {
			cut = cut || strings.HasSuffix(r.URL, "/img")
			if strings.HasSuffix(r.URL, "/img") && (r.Status != 200 || r.Error != "ERR_CONNECTION_RESET" || r.Stage != "response") {
				t.Errorf("NetLog: the cut image: status %d error %q stage %q, want 200 then ERR_CONNECTION_RESET in the response", r.Status, r.Error, r.Stage)
			}
			continue
		}
		seen++
		if r.Status != 0 || r.Error != "ERR_CONNECTION_RESET" {
			t.Errorf("NetLog: %s %s status %d error %q, want no status and ERR_CONNECTION_RESET", r.Method, r.URL, r.Status, r.Error)
		}
		if r.Proxy == "" {
			t.Errorf("NetLog: %s went through no proxy", r.URL)
		}
	}
	if !cut {
		t.Errorf("NetLog: no request for the cut image:\n%s", nl.Markdown)
	}
	if seen < 3 {
		t.Errorf("NetLog: %d requests to the sites, want 3:\n%s", seen, nl.Markdown)
	}
}
