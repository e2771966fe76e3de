package netlog

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/waymark-dev/waymark/secret"
)

// request reads an event of a URL_REQUEST source. Each
// URL_REQUEST_START_JOB begins a hop: a redirected request is one hop per
// URL, each with its own status.
func (b *builder) request(id int64, ev Event, p *params, dep int64) {
	hops := b.reqs[id]
	var cur *Request
	if len(hops) > 0 {
		cur = hops[len(hops)-1]
	}
	switch ev.Type {
	case "URL_REQUEST_START_JOB":
		if ev.Phase == PhaseBegin {
			if cur != nil && cur.end == 0 {
				cur.end = ev.Time
			}
			if len(hops) == 0 {
				b.order = append(b.order, id)
			}
			b.reqs[id] = append(hops, &Request{Method: p.Method, URL: RedactURL(p.URL), src: id, hop: len(hops), tick: ev.Time,
				// No page started it: Chromium's own traffic (updates,
				// time checks, dictionaries) has no initiating origin and
				// is not a frame's document.
				Background: p.Initiator == "not an origin" && p.RequestType == "other"})
			return
		}
		if cur != nil && ev.Phase == PhaseEnd && p.NetError != 0 && cur.code == 0 {
			cur.code = p.NetError
		}
	case "REQUEST_ALIVE":
		if cur != nil && ev.Phase == PhaseEnd {
			cur.end = ev.Time
			if p.NetError != 0 && cur.code == 0 {
				cur.code = p.NetError
			}
		}
	}
	if cur == nil {
		return
	}
	switch ev.Type {
	case "HTTP_STREAM_JOB_CONTROLLER_BOUND":
		cur.ctl = dep
	case "HTTP_STREAM_REQUEST_BOUND_TO_JOB":
		cur.job = dep
	case "HTTP_TRANSACTION_SEND_REQUEST_HEADERS":
		cur.Protocol = "h1"
	case "HTTP_TRANSACTION_HTTP2_SEND_REQUEST_HEADERS":
		cur.Protocol = "h2"
	case "HTTP_TRANSACTION_QUIC_SEND_REQUEST_HEADERS":
		cur.Protocol = "h3"
	case "HTTP_TRANSACTION_READ_RESPONSE_HEADERS":
		cur.Status, cur.Signals = responseHeaders(p.Headers)
		if cur.firstByte == 0 {
			cur.firstByte = ev.Time
		}
	}
}

// responseHeaders reads the status and the signal headers of a response;
// every other value is left unread. Chromium writes the status line of
// every protocol as HTTP/1.1 ("HTTP/1.1 200").
func responseHeaders(raw json.RawMessage) (int, map[string]string) {
	var lines []string
	if json.Unmarshal(raw, &lines) != nil || len(lines) == 0 {
		return 0, nil
	}
	status := 0
	if f := strings.Fields(lines[0]); len(f) >= 2 && strings.HasPrefix(f[0], "HTTP/") {
		status, _ = strconv.Atoi(f[1])
	}
	var sig map[string]string
	for _, l := range lines[1:] {
		name, val, ok := strings.Cut(l, ":")
		name = strings.ToLower(strings.TrimSpace(name))
		if !ok || !signals[name] {
			continue
		}
		if sig == nil {
			sig = map[string]string{}
		}
		val = strings.TrimSpace(val)
		if len(val) > 64 {
			val = val[:64]
		}
		sig[name] = secret.Redact(val)
	}
	return status, sig
}
