package netlog

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// finish turns what the builder gathered into s.
func (b *builder) finish(s *Summary, c *Constants, o *Options) {
	in := func(tick int64) bool {
		w := c.Wall(tick)
		return (o.Since.IsZero() || w >= o.Since.UnixMilli()) && (o.Until.IsZero() || w <= o.Until.UnixMilli())
	}
	byHost := map[string]map[string]int{} // host → error → count
	for _, id := range b.order {
		for _, r := range b.reqs[id] {
			if !in(r.tick) {
				continue
			}
			b.fill(r, c)
			if r.Error != "" {
				h := urlHost(r.URL)
				if byHost[h] == nil {
					byHost[h] = map[string]int{}
				}
				byHost[h][r.Error]++
			}
			s.Requests = append(s.Requests, *r)
		}
	}
	slices.SortStableFunc(s.Requests, func(a, b Request) int {
		return cmp.Or(cmp.Compare(a.tick, b.tick), cmp.Compare(a.src, b.src), cmp.Compare(a.hop, b.hop))
	})
	for h, errs := range byHost {
		he := HostErrors{Host: h}
		for e, n := range errs {
			he.Count += n
			he.Errors = append(he.Errors, ErrorCount{Error: e, Count: n})
		}
		slices.SortFunc(he.Errors, func(a, b ErrorCount) int {
			return cmp.Or(-cmp.Compare(a.Count, b.Count), strings.Compare(a.Error, b.Error))
		})
		s.ErrorsByHost = append(s.ErrorsByHost, he)
	}
	slices.SortFunc(s.ErrorsByHost, func(a, b HostErrors) int {
		return cmp.Or(-cmp.Compare(a.Count, b.Count), strings.Compare(a.Host, b.Host))
	})
	seen := map[note]int{} // a note, its tick zeroed → its index
	for _, n := range b.notes {
		if !in(n.tick) {
			continue
		}
		key := n
		key.tick = 0
		list := &s.Proxy
		if strings.HasPrefix(n.what, "DNS") {
			list = &s.DNS
		}
		if i, ok := seen[key]; ok {
			(*list)[i].Count++
			continue
		}
		seen[key] = len(*list)
		*list = append(*list, Note{UnixMS: c.Wall(n.tick), Host: n.host, What: n.what, Error: c.NetError(n.code), Count: 1})
	}
}

// fill sets a request's error, proxy, connection and timing from what the
// log said about it and its connection.
func (b *builder) fill(r *Request, c *Constants) {
	r.StartUnixMS = c.Wall(r.tick)
	r.Error = c.NetError(r.code)
	if chain := b.ctls[r.ctl]; chain != "" && chain != "[direct://]" {
		r.Proxy = proxyName(chain)
	}
	if r.end > 0 {
		r.Timing.TotalMS = ms(r.end - r.tick)
	}
	if r.firstByte > 0 {
		r.Timing.FirstByteMS = ms(r.firstByte - r.tick)
	}
	sock, cj := b.connection(r)
	if sock != nil {
		// A connection that was ready before the request began was
		// reused; one still being made (a preconnect) was waited for.
		if ready := max(sock.tcpE, sock.tlsE); sock.tcpE != 0 && ready < r.tick {
			r.Reused = true
		} else {
			if sock.tcpE > 0 {
				r.Timing.ConnectMS = ms(sock.tcpE - sock.tcpB)
			}
			if sock.tlsE > 0 {
				r.Timing.TLSMS = ms(sock.tlsE - sock.tlsB)
			}
		}
		if sock.tls != nil {
			t := *sock.tls
			t.Error = c.NetError(sock.tlsErr)
			r.TLS = &t
		}
	}
	if cj != nil && cj.dnsE > 0 && cj.dnsB >= r.tick {
		r.Timing.DNSMS = ms(cj.dnsE - cj.dnsB)
	}
	if r.code == 0 {
		return
	}
	switch {
	case r.Status > 0:
		r.Stage = "response"
	case cj != nil && cj.dnsErr != 0, r.Error == "ERR_NAME_NOT_RESOLVED":
		r.Stage = "dns"
	case sock != nil && sock.tcpErr != 0:
		r.Stage = "connect"
	case sock != nil && sock.tlsErr != 0, strings.HasPrefix(r.Error, "ERR_CERT_"), strings.HasPrefix(r.Error, "ERR_SSL_"):
		r.Stage = "tls"
	case r.Protocol != "":
		r.Stage = "request"
	case r.Error == "ERR_CONNECTION_REFUSED", r.Error == "ERR_CONNECTION_TIMED_OUT", r.Error == "ERR_ADDRESS_UNREACHABLE", strings.HasPrefix(r.Error, "ERR_PROXY_"), r.Error == "ERR_TUNNEL_CONNECTION_FAILED":
		r.Stage = "connect"
	case sock != nil && sock.tcpE > 0:
		// Connected (and through TLS if any), then nothing came back.
		r.Stage = "request"
	}
}

// connection returns the socket a request went over (or tried to) and the
// connect job that made it; either may be nil.
func (b *builder) connection(r *Request) (sock, cj *conn) {
	j := b.jobs[r.job]
	if j == nil {
		return nil, nil
	}
	var sid int64
	switch {
	case j.session != 0 && b.conns[j.session] != nil:
		sid = b.conns[j.session].h2sock
	case j.socket != 0:
		sid = j.socket
	}
	if j.connectJob != 0 {
		cj = b.conns[j.connectJob]
		if sid == 0 && cj != nil && len(cj.sockets) > 0 {
			sid = cj.sockets[len(cj.sockets)-1]
		}
	}
	sock = b.conns[sid]
	if cj == nil && sock != nil && sock.job != 0 {
		cj = b.conns[sock.job]
	}
	return sock, cj
}

func ms(d int64) *int64 { return &d }

// urlHost is the host of a redacted URL.
func urlHost(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return "(none)"
	}
	return p.Host
}
