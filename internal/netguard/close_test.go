package netguard

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestCloseEndsTunnelsAndGoroutines(t *testing.T) {
	echo := startEcho(t)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	defer up.Close()
	fn := newFakeNet()
	fn.route(publicAddr, 443, echo.Addr().String())
	fn.route(publicAddr, 80, up.Listener.Addr().String())

	before := runtime.NumGoroutine()
	p, err := Start(Options{Resolve: publicDNS().Resolve, Dial: fn.Dial})
	if err != nil {
		t.Fatal(err)
	}

	// A plain request leaves a kept-alive connection on each side of the
	// proxy; Close must end the upstream one.
	tr := &http.Transport{DisableCompression: true}
	resp, err := proxied(t, p, tr).Get("http://public.test/")
	if err != nil {
		t.Fatal(err)
	}
	readBody(t, resp)

	conn, br, cresp := connect(t, p, "public.test:443", "")
	if cresp.StatusCode != http.StatusOK {
		t.Fatalf("CONNECT status %d", cresp.StatusCode)
	}
	if _, err := io.WriteString(conn, "ping"); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 4)
	if _, err := io.ReadFull(br, got); err != nil || string(got) != "ping" {
		t.Fatalf("echo = %q, %v", got, err)
	}

	ended := make(chan error, 1)
	go func() { // ends when the tunnel ends or the 10 s deadline set by connect passes
		_, err := br.ReadByte()
		ended <- err
	}()
	closed := make(chan error, 1)
	go func() { closed <- p.Close() }() // ends when Close returns
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		buf := make([]byte, 1<<20)
		t.Fatalf("Close did not return with a tunnel open:\n%s", buf[:runtime.Stack(buf, true)])
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	err = <-ended
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("tunnel still open after Close: read timed out")
	}
	conn.Close()
	tr.CloseIdleConnections()

	// Goroutines end shortly after their connections close (the echo and
	// httptest servers notice EOF on their own time), so wait, bounded.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Errorf("%d goroutines after Close, %d before Start:\n%s", n, before, buf)
	}

	// A closed proxy answers nothing.
	if c, err := net.Dial("tcp", strings.TrimPrefix(p.URL(), "http://")); err == nil {
		c.Close()
		t.Errorf("proxy still accepts connections after Close")
	}
}

// TestCanceledLookupIsNoRefusal checks that a browser giving up while the
// host is being resolved is not recorded as a refusal.
func TestCanceledLookupIsNoRefusal(t *testing.T) {
	entered := make(chan struct{}, 1)
	resolve := func(ctx context.Context, host string) ([]netip.Addr, error) {
		entered <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	fn := newFakeNet()
	p, err := Start(Options{Resolve: resolve, Dial: fn.Dial})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(p.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(conn, "CONNECT slow.test:443 HTTP/1.1\r\nHost: slow.test:443\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	<-entered
	// The browser gives up; net/http cancels the request. Close then
	// waits for the handler, so Refusals is final below.
	conn.Close()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if rs := p.Refusals(); len(rs) != 0 {
		t.Errorf("Refusals() = %v, want none for a canceled lookup", rs)
	}
	if d := fn.Dials(); len(d) != 0 {
		t.Errorf("dialed %v", d)
	}
}
