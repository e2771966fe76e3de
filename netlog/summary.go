package netlog

import (
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"time"
)

// Format is the version string of a [Summary].
const Format = "waymark.netlog/1"

// Summary is what a NetLog says about the requests in it, with nothing
// secret: see the package comment.
type Summary struct {
	Format      string `json:"format"`
	Chromium    string `json:"chromium,omitempty"`
	CaptureMode string `json:"capture_mode,omitempty"`
	// Truncated is true when the log was cut short; the summary holds
	// what was read before the cut.
	Truncated bool `json:"truncated"`
	// Events is how many events were read.
	Events   int       `json:"events"`
	Requests []Request `json:"requests"`
	// Proxy and DNS are the proxy and name resolution events: which
	// proxy a request went through, a proxy that failed, a name that did
	// not resolve.
	Proxy []Note `json:"proxy,omitempty"`
	DNS   []Note `json:"dns,omitempty"`
	// ErrorsByHost counts the requests that died of a net error, by host.
	ErrorsByHost []HostErrors `json:"errors_by_host,omitempty"`
}

// Request is one request, or one hop of a redirected one.
type Request struct {
	// StartUnixMS is when it started, in Unix milliseconds.
	StartUnixMS int64  `json:"start_unix_ms"`
	Method      string `json:"method"`
	// URL has no user info, no fragment and no query values (the keys
	// stay); a path segment that looks like a credential is masked.
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"`
	// Protocol is h1, h2 or h3; empty when no request was sent (it died
	// first, or came from the cache).
	Protocol string `json:"protocol,omitempty"`
	// Error is the net error the request died of (ERR_CONNECTION_RESET),
	// and Stage where: dns, connect, tls, request (sent, no answer) or
	// response (after the status, in the body).
	Error string `json:"error,omitempty"`
	Stage string `json:"stage,omitempty"`
	// Background is true for Chromium's own requests, which no page
	// started (component updates, time checks, spell-check dictionaries).
	Background bool `json:"background,omitempty"`
	// Reused is true when the request went over a connection made before
	// it (keep-alive, HTTP/2): Timing then has no DNS, connect or TLS.
	Reused bool   `json:"reused,omitempty"`
	Timing Timing `json:"timing"`
	TLS    *TLS   `json:"tls,omitempty"`
	Proxy  string `json:"proxy,omitempty"`
	// Signals are the values of a few response headers that say who
	// answered and whether it was a challenge (cf-mitigated, server).
	Signals map[string]string `json:"signals,omitempty"`

	src       int64
	hop       int
	tick      int64 // start, in ticks
	end       int64
	firstByte int64
	code      int // the net error
	job       int64
	ctl       int64
}

// Timing is how long each part of a request took, in milliseconds; a part
// that did not happen (or happened on a reused connection) is nil.
type Timing struct {
	DNSMS       *int64 `json:"dns_ms,omitempty"`
	ConnectMS   *int64 `json:"connect_ms,omitempty"`
	TLSMS       *int64 `json:"tls_ms,omitempty"`
	FirstByteMS *int64 `json:"first_byte_ms,omitempty"`
	TotalMS     *int64 `json:"total_ms,omitempty"`
}

// TLS is the handshake of a request's connection.
type TLS struct {
	Version string `json:"version,omitempty"` // "TLS 1.3"
	Cipher  string `json:"cipher,omitempty"`  // "TLS_AES_128_GCM_SHA256"
	ALPN    string `json:"alpn,omitempty"`    // "h2"
	Error   string `json:"error,omitempty"`   // the handshake's net error
}

// Note is one proxy or DNS event.
type Note struct {
	UnixMS int64  `json:"unix_ms"`
	Host   string `json:"host,omitempty"`
	What   string `json:"what"`
	Error  string `json:"error,omitempty"`
	// Count is how many times the same event came, the first at UnixMS.
	Count int `json:"count"`
}

// HostErrors counts a host's failed requests by net error.
type HostErrors struct {
	Host   string       `json:"host"`
	Count  int          `json:"count"`
	Errors []ErrorCount `json:"errors"` // most frequent first
}

// ErrorCount is how many requests died of one net error.
type ErrorCount struct {
	Error string `json:"error"`
	Count int    `json:"count"`
}

// Options narrow a summary. The zero value keeps everything.
type Options struct {
	// Since and Until keep the requests that started in [Since, Until]
	// and the notes of that time; zero means no bound.
	Since, Until time.Time
}

// signals are the response headers whose values a summary keeps: they say
// who answered and whether it was a bot check, and carry no secret.
var signals = map[string]bool{"cf-mitigated": true, "server": true}

// Summarize reads a NetLog and sums it up. A log cut short is summed up as
// far as it goes, with Truncated set; a file that is not a NetLog is an
// error. opts may be nil.
func Summarize(r io.Reader, opts *Options) (*Summary, error) {
	if opts == nil {
		opts = &Options{}
	}
	rd := NewReader(r)
	b := newBuilder()
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) || errors.Is(err, ErrTruncated) {
			break
		}
		if err != nil {
			return nil, err
		}
		b.add(ev)
	}
	s := &Summary{Format: Format, Truncated: rd.Truncated(), Events: b.n, Requests: []Request{}}
	c := rd.consts
	if c == nil {
		// Cut inside the constants: nothing can be named.
		return s, nil
	}
	s.Chromium, s.CaptureMode = c.Version, c.CaptureMode
	b.finish(s, c, opts)
	return s, nil
}

// conn is what the log says about one socket or connect job.
type conn struct {
	dnsB, dnsE int64
	dnsErr     int
	tcpB, tcpE int64
	tcpErr     int
	tlsB, tlsE int64
	tlsErr     int
	tls        *TLS
	sockets    []int64 // a connect job's sockets
	job        int64   // a socket's connect job
	h2sock     int64   // an HTTP/2 session's socket
}

// streamJob is an HTTP_STREAM_JOB: what it connected with.
type streamJob struct {
	socket, connectJob, session int64
}

type builder struct {
	n     int
	reqs  map[int64][]*Request
	order []int64
	conns map[int64]*conn
	jobs  map[int64]*streamJob
	ctls  map[int64]string // controller → proxy chain
	notes []note
	hosts map[int64]string // a resolver's source → the host it looks up
}

// note is a [Note] before its error is named and its time made wall time.
type note struct {
	tick       int64
	host, what string
	code       int
}

func newBuilder() *builder {
	return &builder{reqs: map[int64][]*Request{}, conns: map[int64]*conn{}, jobs: map[int64]*streamJob{}, ctls: map[int64]string{}, hosts: map[int64]string{}}
}

func (b *builder) conn(id int64) *conn {
	c := b.conns[id]
	if c == nil {
		c = &conn{}
		b.conns[id] = c
	}
	return c
}

func (b *builder) job(id int64) *streamJob {
	j := b.jobs[id]
	if j == nil {
		j = &streamJob{}
		b.jobs[id] = j
	}
	return j
}

// params are the event parameters a summary reads. Only these are
// decoded: header values, cookies and certificates never leave the raw
// bytes.
type params struct {
	URL         string              `json:"url"`
	Method      string              `json:"method"`
	NetError    int                 `json:"net_error"`
	Dep         *struct{ ID int64 } `json:"source_dependency"`
	Headers     json.RawMessage     `json:"headers"`
	Version     string              `json:"version"`
	Cipher      int                 `json:"cipher_suite"`
	NextProto   string              `json:"next_proto"`
	ProxyChain  string              `json:"proxy_chain"`
	ProxyInfo   string              `json:"proxy_info"`
	BadProxy    string              `json:"bad_proxy_chain"`
	Host        string              `json:"host"`
	Proto       string              `json:"proto"`
	Initiator   string              `json:"initiator"`
	RequestType string              `json:"request_type"`
}

func (b *builder) note(tick int64, host, what string, code int) {
	b.notes = append(b.notes, note{tick: tick, host: host, what: what, code: code})
}

// pendingHost remembers the host a resolver source looks up, for its end
// event; the host is written "https://name:port".
func (b *builder) pendingHost(id int64, h string) {
	if h != "" {
		b.hosts[id] = hostOf(h)
	}
}

func (b *builder) add(ev Event) {
	b.n++
	var p params
	if len(ev.Params) > 0 {
		_ = json.Unmarshal(ev.Params, &p) // a field of another shape stays zero
	}
	dep := int64(-1)
	if p.Dep != nil {
		dep = p.Dep.ID
	}
	id := ev.Source.ID
	switch ev.Source.Type {
	case "URL_REQUEST":
		b.request(id, ev, &p, dep)
		return
	case "HTTP_STREAM_JOB_CONTROLLER":
		switch ev.Type {
		case "HTTP_STREAM_JOB_CONTROLLER_PROXY_SERVER_RESOLVED":
			b.ctls[id] = p.ProxyChain
		case "PROXY_LIST_FALLBACK":
			b.note(ev.Time, "", "proxy failed, falling back: "+proxyName(p.BadProxy), 0)
		}
	case "HTTP_STREAM_JOB":
		j := b.job(id)
		switch ev.Type {
		case "SOCKET_POOL_BOUND_TO_SOCKET":
			j.socket = dep
		case "SOCKET_POOL_BOUND_TO_CONNECT_JOB":
			j.connectJob = dep
		case "HTTP2_SESSION_POOL_IMPORTED_SESSION_FROM_SOCKET", "HTTP_STREAM_JOB_HTTP2_SESSION_AVAILABLE", "HTTP2_SESSION_POOL_FOUND_EXISTING_SESSION", "HTTP2_SESSION_POOL_FOUND_EXISTING_SESSION_FROM_IP_POOL":
			j.session = dep
		}
	case "HTTP2_SESSION":
		if ev.Type == "HTTP2_SESSION_INITIALIZED" && dep >= 0 {
			b.conn(id).h2sock = dep
		}
	case "SOCKET":
		c := b.conn(id)
		switch ev.Type {
		case "SOCKET_ALIVE":
			if ev.Phase == PhaseBegin && dep >= 0 {
				c.job = dep
			}
		case "TCP_CONNECT":
			if ev.Phase == PhaseBegin {
				c.tcpB = ev.Time
			} else if ev.Phase == PhaseEnd {
				c.tcpE, c.tcpErr = ev.Time, p.NetError
			}
		case "SSL_CONNECT":
			if ev.Phase == PhaseBegin {
				c.tlsB = ev.Time
			} else if ev.Phase == PhaseEnd {
				c.tlsE, c.tlsErr = ev.Time, p.NetError
				c.tls = &TLS{Version: p.Version, ALPN: p.NextProto}
				if p.Cipher != 0 {
					c.tls.Cipher = tls.CipherSuiteName(uint16(p.Cipher))
				}
			}
		case "SOCKET_IN_USE":
			if ev.Phase == PhaseBegin && dep >= 0 {
				// An HTTP/1 socket handed to a stream job later than the
				// job's own connect (keep-alive reuse).
				if j, ok := b.jobs[dep]; ok && j.socket == 0 {
					j.socket = id
				}
			}
		}
	}
	// Connect jobs of every kind, and DNS anywhere.
	switch ev.Type {
	case "CONNECT_JOB_SET_SOCKET", "TCP_CONNECT_JOB_CONNECTOR_CONNECT_START":
		if dep >= 0 {
			c := b.conn(id)
			c.sockets = append(c.sockets, dep)
		}
	case "HOST_RESOLVER_MANAGER_REQUEST":
		c := b.conn(id)
		if ev.Phase == PhaseBegin {
			c.dnsB = ev.Time
			b.pendingHost(id, p.Host)
		} else if ev.Phase == PhaseEnd {
			c.dnsE, c.dnsErr = ev.Time, p.NetError
			if p.NetError != 0 {
				b.note(ev.Time, b.hosts[id], "DNS lookup failed", p.NetError)
			}
		}
	case "HOST_RESOLVER_MANAGER_JOB":
		if ev.Phase == PhaseBegin {
			b.pendingHost(id, p.Host)
		}
	case "PROXY_RESOLUTION_SERVICE_RESOLVED_PROXY_LIST":
		if p.ProxyInfo != "" && p.ProxyInfo != "DIRECT" {
			b.note(ev.Time, "", "proxy: "+proxyName(p.ProxyInfo), 0)
		}
	case "HTTP_PROXY_CONNECT_JOB_CONNECT":
		if ev.Phase == PhaseEnd && p.NetError != 0 {
			b.note(ev.Time, "", "proxy connect failed", p.NetError)
		}
	}
}
