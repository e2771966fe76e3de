package netguard

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"testing"
)

// TestSiteFailuresReachTheBrowserAsResets: a site that refuses the
// connection, or resets it in the middle of a tunnel, gets the browser's
// connection reset (never an answer the proxy made up), and the proxy
// keeps what the site did.
func TestSiteFailuresReachTheBrowserAsResets(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
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
			// The site's bytes, then (once the browser read them and
			// said so: a reset discards what the peer has not read) a
			// reset.
			io.WriteString(c, "hello")
			io.ReadFull(c, make([]byte, 3))
			resetConn(c)
		}
	}()

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
				_, _ = c.Read(make([]byte, 4096))
				io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\npartial")
				resetConn(c)
			}()
		}
	}()

	fn := newFakeNet()
	fn.route(publicAddr, 8080, cutter.Addr().String())
	fn.route(publicAddr, 443, closedAddr)
	fn.route(publicAddr, 8443, resetter.Addr().String())
	dns := newFakeDNS(func(string, int) ([]netip.Addr, error) { return []netip.Addr{publicAddr}, nil })
	p := startProxy(t, dns, fn, 0)

	t.Run("refused", func(t *testing.T) {
		conn := dialProxy(t, p)
		fmt.Fprintf(conn, "CONNECT down.test:443 HTTP/1.1\r\nHost: down.test:443\r\n\r\n")
		_, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: http.MethodConnect})
		if !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("reading the CONNECT answer: %v, want a reset", err)
		}
		if f := last(p.Failures()); f.Host != "down.test" || f.Kind != FailRefused {
			t.Errorf("failure %+v, want down.test refused", f)
		}
	})
	t.Run("reset in the tunnel", func(t *testing.T) {
		conn, br, resp := connect(t, p, "flaky.test:8443", "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("CONNECT: %d", resp.StatusCode)
		}
		got := make([]byte, 5)
		if _, err := io.ReadFull(br, got); err != nil || string(got) != "hello" {
			t.Fatalf("read %q, %v; want the site's bytes", got, err)
		}
		io.WriteString(conn, "ack")
		if _, err := br.ReadByte(); !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("after the site's reset: %v, want a reset", err)
		}
		conn.Close()
		if f := last(p.Failures()); f.Host != "flaky.test" || f.Kind != FailReset {
			t.Errorf("failure %+v, want flaky.test reset", f)
		}
	})
	t.Run("reset in a plain http body", func(t *testing.T) {
		conn := dialProxy(t, p)
		fmt.Fprintf(conn, "GET http://cut.test:8080/page HTTP/1.1\r\nHost: cut.test:8080\r\n\r\n")
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodGet})
		if err == nil {
			_, err = io.ReadAll(resp.Body)
		}
		if !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("reading the answer: %v, want a reset (not a body that looks whole)", err)
		}
		if f := last(p.Failures()); f.Host != "cut.test" || f.Kind != FailReset {
			t.Errorf("failure %+v, want cut.test reset", f)
		}
	})
	if rs := p.Refusals(); len(rs) != 0 {
		t.Errorf("Refusals() = %v; a site's failure is not the proxy's refusal", rs)
	}
}

func last(fs []Failure) Failure {
	if len(fs) == 0 {
		return Failure{}
	}
	return fs[len(fs)-1]
}
