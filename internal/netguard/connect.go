package netguard

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
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
		p.log.Debug("netguard: CONNECT failed", "host", hostKey(host), "err", err)
		http.Error(w, "waymark's proxy could not "+oneLine(err.Error()), http.StatusBadGateway)
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
	splice(r.Context(), client, pending, upstream)
}

// splice copies both ways between client and upstream, after first sending
// pending to upstream. When either side ends, or ctx is done (the proxy is
// closing), both connections are closed, which ends both copies; splice
// returns once both have.
func splice(ctx context.Context, client net.Conn, pending []byte, upstream net.Conn) {
	var once sync.Once
	closeBoth := func() {
		once.Do(func() {
			client.Close()
			upstream.Close()
		})
	}
	stop := context.AfterFunc(ctx, closeBoth)
	defer stop()

	down := make(chan struct{})
	go func() { // ends when upstream or client is closed
		defer close(down)
		_, _ = io.Copy(client, upstream)
		closeBoth()
	}()
	if _, err := upstream.Write(pending); err == nil {
		_, _ = io.Copy(upstream, client)
	}
	closeBoth()
	<-down
}
