package netguard

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// established is the whole answer to a CONNECT that got through; Chromium
// then starts TLS (or a WebSocket handshake) on the same connection.
const established = "HTTP/1.1 200 Connection Established\r\n\r\n"

// serveConnect dials a checked address for the CONNECT target and splices the
// browser's connection to it.
func (p *Proxy) serveConnect(w http.ResponseWriter, r *http.Request) {
	host, port, err := splitHostPort(r.Host)
	if err != nil {
		http.Error(w, "waymark's proxy: CONNECT needs host:port: "+oneLine(err.Error()), http.StatusBadRequest)
		return
	}
	upstream, err := p.dialChecked(r.Context(), host, port)
	if err != nil {
		var refused *refusedError
		if errors.As(err, &refused) {
			// Chromium shows its own tunnel error page and ignores this
			// body; it is for people reading curl output and logs.
			http.Error(w, oneLine(refused.Error()), http.StatusForbidden)
			return
		}
		if r.Context().Err() != nil {
			return // the browser gave up, or the proxy is closing
		}
		p.fail(w, host, err)
		return
	}
	client, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Only an HTTP/2 or test ResponseWriter cannot hijack, and this
		// server speaks HTTP/1 only.
		upstream.Close()
		p.log.Debug("netguard: CONNECT hijack failed", "host", hostKey(host), "err", err)
		http.Error(w, "waymark's proxy cannot tunnel on this connection", http.StatusInternalServerError)
		return
	}
	if _, err := io.WriteString(client, established); err != nil {
		client.Close()
		upstream.Close()
		return
	}
	// Bytes the browser sent right after the CONNECT header (a TLS
	// ClientHello, say) may already sit in net/http's reader; they would be
	// lost if the tunnel read only from the raw connection.
	var pending []byte
	if n := brw.Reader.Buffered(); n > 0 {
		pending, _ = brw.Reader.Peek(n) // cannot fail: n bytes are buffered
	}
	splice(r.Context(), client, pending, upstream, func(err error) {
		p.failures.add(Failure{Host: hostKey(host), Kind: FailReset, Err: err, At: time.Now()})
	})
}

// splice copies both ways between client and upstream, after first sending
// pending to upstream. When either side ends, or ctx is done (the proxy is
// closing), both connections are closed, which ends both copies; splice
// returns once both have. A site that resets the connection gets the
// browser's connection reset too, as it would be without the proxy
// (failures.go), after onSiteReset (if not nil) has been told the site's
// error.
func splice(ctx context.Context, client net.Conn, pending []byte, upstream net.Conn, onSiteReset func(error)) {
	var once sync.Once
	closeBoth := func() {
		once.Do(func() {
			client.Close()
			upstream.Close()
		})
	}
	// resetBoth passes a site's reset on to the browser. A reset shows on
	// whichever side touches the socket first: a read going down, or a
	// write going up (which then leaves the read an EOF).
	resetBoth := func(err error) {
		once.Do(func() {
			if onSiteReset != nil {
				onSiteReset(err)
			}
			resetConn(client)
			upstream.Close()
		})
	}
	stop := context.AfterFunc(ctx, closeBoth)
	defer stop()

	down := make(chan struct{})
	go func() { // ends when upstream or client is closed
		defer close(down)
		if _, err := io.Copy(client, upstream); err != nil && failKind(err) == FailReset && ctx.Err() == nil {
			resetBoth(err)
		}
		closeBoth()
	}()
	if err := copyUp(upstream, client, pending); err != nil && failKind(err) == FailReset && ctx.Err() == nil {
		resetBoth(err)
	}
	closeBoth()
	<-down
}

// copyUp sends pending, then what the browser sends, to the site. Its
// error is the site's (a failed write); the browser's end of its
// connection, or a failed read of it, ends the copy with nil.
func copyUp(upstream, client net.Conn, pending []byte) error {
	if _, err := upstream.Write(pending); err != nil {
		return err
	}
	buf := make([]byte, 32<<10)
	for {
		n, rerr := client.Read(buf)
		if n > 0 {
			if _, err := upstream.Write(buf[:n]); err != nil {
				return err
			}
		}
		if rerr != nil {
			return nil
		}
	}
}
