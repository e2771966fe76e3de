package netguard

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"
)

// A site's own failure (a refused connection, a reset, a timeout) is not
// answered with an HTTP 502: the browser would show it as the site's
// answer, and the page, the outline's notices and the NetLog would all
// see a status the site never sent. The proxy resets the browser's
// connection instead, which Chromium reports as ERR_CONNECTION_RESET
// (measured with Chromium 156, 2026-12: a reset gives ERR_CONNECTION_RESET
// for CONNECT and plain http alike, a close without an answer
// ERR_EMPTY_RESPONSE, a non-200 answer to CONNECT
// ERR_TUNNEL_CONNECTION_FAILED). No answer of a proxy makes Chromium say
// ERR_CONNECTION_REFUSED or ERR_CONNECTION_TIMED_OUT, so what the site
// did is kept in [Proxy.Failures], for the driver to name.

// Failure kinds.
const (
	FailRefused     = "refused"     // the site refused the connection (ECONNREFUSED)
	FailReset       = "reset"       // the site reset the connection
	FailTimeout     = "timeout"     // the connection or an answer timed out
	FailUnreachable = "unreachable" // no route to the site's address
	FailOther       = "failed"      // any other failure to connect
)

// Failure is one connection to a site that failed upstream, after the
// proxy had allowed it.
type Failure struct {
	Host string    // lower-cased, without port
	Kind string    // FailRefused, FailReset …
	Err  error     // the error as the proxy saw it
	At   time.Time // when
}

// Failures returns the sites' failures seen so far, most recent last;
// only the last 100 are kept.
func (p *Proxy) Failures() []Failure { return p.failures.all() }

// failKind names what went wrong with a connection to a site.
func failKind(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return FailRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return FailReset
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return FailTimeout
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return FailUnreachable
	}
	return FailOther
}

// fail records a site's failure and resets the browser's connection, so
// that the browser sees a network error and not an answer (see above).
func (p *Proxy) fail(w http.ResponseWriter, host string, err error) {
	kind := failKind(err)
	p.failures.add(Failure{Host: hostKey(host), Kind: kind, Err: err, At: time.Now()})
	p.log.Debug("netguard: site failed", "host", hostKey(host), "kind", kind, "err", err)
	client, _, herr := http.NewResponseController(w).Hijack()
	if herr != nil {
		// Only an HTTP/2 or test ResponseWriter cannot hijack.
		http.Error(w, "waymark's proxy could not reach "+hostKey(host)+": "+kind, http.StatusBadGateway)
		return
	}
	resetConn(client)
}

// resetConn closes c with a TCP reset rather than a FIN.
func resetConn(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = c.Close()
}
