package netguard

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"sync"
	"time"
)

// forwardedHeaders are the headers ReverseProxy strips before Rewrite. The
// page may have set them itself (fetch allows it), and the proxy changes
// nothing the page sent, so Rewrite puts them back.
var forwardedHeaders = []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto"}

// newReverseProxy forwards absolute-form http requests as the browser sent
// them, each through the pool of the browser's connection it came on.
func (p *Proxy) newReverseProxy() *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Rewrite:   rewrite,
		Transport: watchResets{p.poolOf},
		// -1 flushes after every write, so server-sent events and other
		// streamed bodies reach the page as they arrive.
		FlushInterval: -1,
		ErrorHandler:  p.forwardError,
		ErrorLog:      slog.NewLogLogger(p.log.Handler(), slog.LevelDebug),
	}
}

// rewrite leaves the request as the browser sent it, minus the headers meant
// for the proxy. It deliberately does not call SetXForwarded: the proxy adds
// no header, so the site sees what it would see without it.
func rewrite(pr *httputil.ProxyRequest) {
	// pr.Out is a clone of pr.In, but ReverseProxy has already dropped query
	// parameters it cannot parse (";" separators, say); send the URL the
	// browser asked for.
	u := *pr.In.URL
	pr.Out.URL = &u
	pr.Out.Host = pr.In.Host
	for _, h := range forwardedHeaders {
		if v, ok := pr.In.Header[h]; ok {
			pr.Out.Header[h] = append([]string(nil), v...)
		}
	}
	// ReverseProxy drops both as hop-by-hop headers already; say so here
	// too, since leaking a proxy credential upstream would be the worst
	// thing this function could do.
	pr.Out.Header.Del("Proxy-Connection")
	pr.Out.Header.Del("Proxy-Authorization")
}

// serveForward forwards one absolute-form request. A site that resets the
// connection in the middle of the body gets the browser's connection
// reset too (failures.go): ReverseProxy would end it as if the body were
// whole (a close, which Chromium reads as a body cut short, not a reset).
func (p *Proxy) serveForward(w http.ResponseWriter, r *http.Request) {
	st := &forwardState{}
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler {
			if err := st.reset(); err != nil {
				if client, _, herr := http.NewResponseController(w).Hijack(); herr == nil {
					p.failures.add(Failure{Host: hostKey(r.URL.Hostname()), Kind: FailReset, Err: err, At: time.Now()})
					resetConn(client)
					return
				}
			}
		}
		panic(v) // net/http aborts the connection
	}()
	p.forward.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), forwardKey{}, st)))
}

// forwardState is what a forwarded request's body reader saw of the site.
type forwardState struct {
	mu  sync.Mutex
	err error // a reset while the body was read
}

func (s *forwardState) reset() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

type forwardKey struct{}

// watchResets is the forward Transport: it sends each request through the
// pool pool gives it, and notes a site's reset while the response body is
// read, for serveForward.
type watchResets struct {
	pool func(*http.Request) http.RoundTripper
}

func (t watchResets) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.pool(r).RoundTrip(r)
	if st, ok := r.Context().Value(forwardKey{}).(*forwardState); ok && err == nil {
		resp.Body = &watchedBody{ReadCloser: resp.Body, st: st}
	}
	return resp, err
}

type watchedBody struct {
	io.ReadCloser
	st *forwardState
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && failKind(err) == FailReset {
		b.st.mu.Lock()
		b.st.err = err
		b.st.mu.Unlock()
	}
	return n, err
}

// newTransport is the Transport for the forwarded requests of one of the
// browser's connections (pools.go). It dials only checked addresses, never
// uses an environment proxy, follows no redirect (a Transport never does;
// the browser follows them), and leaves Accept-Encoding to the browser.
func (p *Proxy) newTransport() *http.Transport {
	return &http.Transport{
		Proxy:              nil,
		DialContext:        p.dialForTransport,
		DisableCompression: true,
		// One browser connection sends one request at a time, so one idle
		// connection a site is what it reuses; it may send to several
		// sites, each kept. (One pool for all of the browser's connections,
		// with net/http's two idle a host, dialed the site again for most
		// of a page's requests: 104 new connections for 11 loads of a page
		// of 50 resources, against 6.)
		MaxIdleConns:          16,
		MaxIdleConnsPerHost:   1,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// dialForTransport is the Transport's DialContext: addr is "host:port" from
// the request's URL.
func (p *Proxy) dialForTransport(ctx context.Context, _, addr string) (net.Conn, error) {
	// net/http detaches a dial from the request that started it (a later
	// request may use the connection), so tie it to the proxy's lifetime
	// instead, or Close would wait for a dial nobody needs.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(p.life, cancel)
	defer stop()
	host, port, err := splitHostPort(addr)
	if err != nil {
		return nil, err
	}
	return p.dialChecked(ctx, host, port)
}

// forwardError answers a forwarded request that got no response: 403 with a
// page for a refused host; for a site that failed, a reset of the
// browser's connection (failures.go).
func (p *Proxy) forwardError(w http.ResponseWriter, r *http.Request, err error) {
	var refused *refusedError
	if errors.As(err, &refused) {
		writeRefusalPage(w, refused)
		return
	}
	host := hostKey(r.URL.Host)
	if errors.Is(err, context.Canceled) {
		// The browser gave up on the request or the proxy is closing;
		// nobody reads this answer.
		p.log.Debug("netguard: forward canceled", "host", host, "err", err)
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	p.fail(w, r.URL.Hostname(), err)
}

const refusalPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>waymark refused this address</title></head>
<body><h1>waymark refused this address</h1>
<p>waymark's browser did not connect to <code>%s</code>: %s</p>
</body></html>
`

// writeRefusalPage answers 403 with a page the browser shows in place of the
// site. The reason is waymark's own error text, escaped; nothing of the
// request is echoed back.
func writeRefusalPage(w http.ResponseWriter, refused *refusedError) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store") // the next check may allow it
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprintf(w, refusalPage, html.EscapeString(refused.host), html.EscapeString(refused.err.Error()))
}
