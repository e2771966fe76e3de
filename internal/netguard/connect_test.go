package netguard

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

func TestConnectHTTPS(t *testing.T) {
	up := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "secure "+r.Host+r.URL.Path)
	}))
	defer up.Close()
	fn := newFakeNet()
	fn.route(publicAddr, 443, up.Listener.Addr().String())
	dns := publicDNS()
	p := startProxy(t, dns, fn, 0)

	tr := up.Client().Transport.(*http.Transport).Clone()
	// httptest's certificate names example.com and 127.0.0.1, not
	// public.test; the check that matters here is that TLS ran end to end.
	tr.TLSClientConfig.ServerName = "example.com"
	resp, err := proxied(t, p, tr).Get("https://public.test/page")
	if err != nil {
		t.Fatal(err)
	}
	if body := readBody(t, resp); resp.StatusCode != http.StatusOK || body != "secure public.test/page" {
		t.Errorf("got %d %q, want 200 %q", resp.StatusCode, body, "secure public.test/page")
	}
	if d, want := fn.Dials(), []string{"93.184.216.34:443"}; !reflect.DeepEqual(d, want) {
		t.Errorf("dials %v, want %v", d, want)
	}
	if n := dns.Calls("public.test"); n != 1 {
		t.Errorf("resolved public.test %d times, want 1", n)
	}
}

// TestConnectForwardsEarlyBytes checks that bytes sent in the same write as
// the CONNECT header reach the far side, even when net/http has already
// read them into its buffer.
func TestConnectForwardsEarlyBytes(t *testing.T) {
	echo := startEcho(t)
	fn := newFakeNet()
	fn.route(publicAddr, 443, echo.Addr().String())
	p := startProxy(t, publicDNS(), fn, 0)

	conn, br, resp := connect(t, p, "public.test:443", "early")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("CONNECT status %d, want 200", resp.StatusCode)
	}
	if _, err := io.WriteString(conn, "-late"); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len("early-late"))
	if _, err := io.ReadFull(br, got); err != nil || string(got) != "early-late" {
		t.Errorf("echo = %q, %v; want %q", got, err, "early-late")
	}
}

// startEcho starts a loopback TCP server that echoes what it reads, closed
// when the test ends; each connection's goroutine ends when its peer closes.
func startEcho(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	go func() { // ends when the listener closes
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { // ends when the peer closes
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return ln
}
