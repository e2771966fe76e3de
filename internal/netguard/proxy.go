package netguard

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"sync"
	"time"
)

// Options configure a Proxy.
type Options struct {
	// Resolve returns the addresses a connection to host (a name or an IP
	// literal without brackets or port) may use, every one already checked,
	// or an error that refuses the host (a policy refusal, or a lookup
	// failure). Required. Called for hosts with no live pin, IP literals
	// included, so that Resolve judges a literal private address too.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// Dial connects to one checked address ("1.2.3.4:443", "[::1]:80").
	// Nil means a net.Dialer with a 30 s timeout. Tests route it to loopback.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// PinTTL is how long Pin's addresses serve their host; zero means 60 s.
	PinTTL time.Duration
	// Log receives refusals (Info) and failures (Debug); nil discards.
	Log *slog.Logger
}

const (
	defaultPinTTL      = 60 * time.Second
	defaultDialTimeout = 30 * time.Second
	// readHeaderTimeout only guards against a client that opens a
	// connection and never finishes a request line; Chromium does not.
	readHeaderTimeout = 30 * time.Second
)

// Proxy is an HTTP proxy on 127.0.0.1 that connects only to checked
// addresses. Build one with [Start]; the caller owns it and must Close it.
type Proxy struct {
	url      string
	resolve  func(ctx context.Context, host string) ([]netip.Addr, error)
	dial     func(ctx context.Context, network, addr string) (net.Conn, error)
	log      *slog.Logger
	pins     *pinTable
	refusals recent[Refusal]
	failures recent[Failure]
	srv      *http.Server
	forward  *httputil.ReverseProxy
	// pools are the upstream connection pools, one for each connection of
	// the browser's (pools.go): a site's connection is never shared by two
	// of the browser's, so never by two sessions.
	pools connPools

	// life is the proxy's lifetime, not a request's: it is every request's
	// BaseContext and is canceled by Close, which is how Close ends open
	// tunnels (the server forgets hijacked connections) and the Transport's
	// dials (which net/http detaches from the request that started them).
	life    context.Context
	endLife context.CancelFunc
	served  chan struct{} // closed when Serve returns

	// mu guards closed and every handlers.Add, so that no handler starts after
	// Close began waiting.
	mu       sync.Mutex
	closed   bool
	handlers sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

// Start listens on 127.0.0.1 on a free port and serves until Close.
func Start(opts Options) (*Proxy, error) {
	if opts.Resolve == nil {
		return nil, errors.New("netguard: Options.Resolve is required; pass the policy's checked resolver")
	}
	p := &Proxy{
		resolve: opts.Resolve,
		dial:    opts.Dial,
		log:     opts.Log,
		served:  make(chan struct{}),
	}
	if p.dial == nil {
		p.dial = (&net.Dialer{Timeout: defaultDialTimeout}).DialContext
	}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	ttl := opts.PinTTL
	if ttl <= 0 {
		ttl = defaultPinTTL
	}
	p.pins = newPinTable(ttl, time.Now)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("netguard: listen on 127.0.0.1 for the browser's proxy: %w", err)
	}
	p.url = "http://" + ln.Addr().String()
	p.life, p.endLife = context.WithCancel(context.Background())
	p.forward = p.newReverseProxy()
	p.srv = &http.Server{
		Handler:           http.HandlerFunc(p.serveHTTP),
		ReadHeaderTimeout: readHeaderTimeout,
		BaseContext:       func(net.Listener) context.Context { return p.life },
		ConnContext:       p.pools.connContext,
		ConnState:         p.pools.connState,
		ErrorLog:          slog.NewLogLogger(p.log.Handler(), slog.LevelDebug),
	}
	go func() { // ends when Close closes the server
		defer close(p.served)
		if err := p.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			p.log.Error("netguard: proxy stopped serving; the browser can reach no site", "err", err)
		}
	}()
	return p, nil
}

// URL is the proxy's address, "http://127.0.0.1:PORT", for a browser
// context's proxyServer.
func (p *Proxy) URL() string { return p.url }

// Pin makes host's connections use addrs (already checked) until PinTTL
// passes, instead of resolving again. A later Pin replaces an earlier one;
// empty addrs removes the pin. host is a name or IP literal; case, brackets
// and a port are ignored.
func (p *Proxy) Pin(host string, addrs []netip.Addr) { p.pins.set(host, addrs) }

// Pinned reports whether host has a live pin, so that a caller that just
// pinned it need not resolve and check it again. Like Pin, it ignores case,
// brackets and a port.
func (p *Proxy) Pinned(host string) bool {
	_, ok := p.pins.get(host)
	return ok
}

// Refusals returns the hosts refused so far, most recent last; only the last
// 100 are kept.
func (p *Proxy) Refusals() []Refusal { return p.refusals.all() }

// Close stops listening and closes every connection and tunnel it holds,
// then waits for their goroutines to end. It is safe to call more than once;
// later calls return the first call's error.
func (p *Proxy) Close() error {
	p.closeOnce.Do(func() {
		p.mu.Lock()
		p.closed = true
		p.mu.Unlock()
		p.endLife()
		p.closeErr = p.srv.Close()
		<-p.served
		p.handlers.Wait()
		// After the handlers: a connection they hand back to a pool now
		// is closed instead of kept, because CloseIdleConnections marks
		// the pool closing until the next request, and none will come.
		p.pools.closeAll()
	})
	return p.closeErr
}

// serveHTTP sorts what the browser sent: a tunnel, a request to forward, or
// something no browser configured with this proxy sends.
func (p *Proxy) serveHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		http.Error(w, "waymark's proxy is shutting down", http.StatusServiceUnavailable)
		return
	}
	p.handlers.Add(1)
	p.mu.Unlock()
	defer p.handlers.Done()

	switch {
	case r.Method == http.MethodConnect:
		p.serveConnect(w, r)
	case r.URL.IsAbs() && r.URL.Scheme == "http" && r.URL.Host != "":
		p.serveForward(w, r)
	default:
		http.Error(w, "this is waymark's proxy for its browser; it forwards only CONNECT and absolute http:// requests", http.StatusBadRequest)
	}
}
