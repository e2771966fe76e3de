package netguard

import (
	"context"
	"net"
	"net/http"
	"sync"
)

// One pool of connections to sites for each connection of the browser's.
//
// Chromium keeps a separate set of connections for each browser context,
// and a waymark session is a browser context: without a proxy, two
// sessions never share a connection to a site. A proxy with one pool for
// all its clients would put two sessions' requests to a plain http site on
// the same connection, from the same source port: a site could link the
// two sessions (a person's two accounts) though their cookies are apart.
// So the requests of each of the browser's connections to the proxy go
// through a pool of their own, kept while that connection lives, as a
// CONNECT tunnel is; the browser's own pooling of its connections to the
// proxy, per context, is then the only pooling there is.

// connPools holds the pool of each open client connection.
type connPools struct {
	mu     sync.Mutex
	byConn map[net.Conn]*connPool
}

// connPool is one client connection's pool, made at its first request and
// closed with the connection.
type connPool struct {
	mu     sync.Mutex
	tr     *http.Transport
	closed bool
}

type poolKey struct{}

// connContext is the server's ConnContext: a new client connection gets
// its (empty) pool, found again by its requests' context.
func (c *connPools) connContext(ctx context.Context, conn net.Conn) context.Context {
	cp := &connPool{}
	c.mu.Lock()
	if c.byConn == nil {
		c.byConn = map[net.Conn]*connPool{}
	}
	c.byConn[conn] = cp
	c.mu.Unlock()
	return context.WithValue(ctx, poolKey{}, cp)
}

// connState is the server's ConnState: a client connection that closed (or
// became a tunnel) closes its pool's connections.
func (c *connPools) connState(conn net.Conn, s http.ConnState) {
	if s != http.StateClosed && s != http.StateHijacked {
		return
	}
	c.mu.Lock()
	cp := c.byConn[conn]
	delete(c.byConn, conn)
	c.mu.Unlock()
	if cp != nil {
		cp.close()
	}
}

// closeAll closes every pool's idle connections, for Close, after the
// handlers ended (a connection handed back later is closed, not kept).
func (c *connPools) closeAll() {
	c.mu.Lock()
	all := make([]*connPool, 0, len(c.byConn))
	for _, cp := range c.byConn {
		all = append(all, cp)
	}
	c.mu.Unlock()
	for _, cp := range all {
		cp.close()
	}
}

func (cp *connPool) close() {
	cp.mu.Lock()
	cp.closed = true
	tr := cp.tr
	cp.mu.Unlock()
	if tr != nil {
		tr.CloseIdleConnections()
	}
}

// poolOf is the pool of the client connection r came on. Every request
// the proxy forwards comes through its server, which gave the connection
// its pool (connContext).
func (p *Proxy) poolOf(r *http.Request) http.RoundTripper {
	cp, _ := r.Context().Value(poolKey{}).(*connPool)
	if cp == nil {
		return closedPool{}
	}
	cp.mu.Lock()
	defer cp.mu.Unlock()
	if cp.closed {
		return closedPool{} // the connection went while its request was read
	}
	if cp.tr == nil {
		cp.tr = p.newTransport()
	}
	return cp.tr
}

// closedPool answers a request with no pool to go through: its client
// connection's was closed, or it did not come through the proxy's server.
type closedPool struct{}

func (closedPool) RoundTrip(*http.Request) (*http.Response, error) { return nil, net.ErrClosed }
