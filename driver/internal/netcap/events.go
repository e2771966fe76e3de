package netcap

import (
	"context"
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"

	"github.com/waymark-dev/waymark/capture"
)

// onEvent copies a Network event of a tab's target (sess: the tab's or an
// out-of-process frame's) into the capture. It runs in chromedp's read
// loop with t.mu held: it sends no command itself. docURL is the tab's
// document URL, main its main frame.
func (c *Capture) OnEvent(t Tab, sess cdp.Session, docURL string, main cdp.FrameID, ev any) {
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		c.request(sess, docURL, main, ev)
	case *network.EventRequestWillBeSentExtraInfo:
		c.mu.Lock()
		k := capKey{sess, ev.RequestID}
		if x := c.live[k]; x != nil && x.ex.Status == 0 {
			x.ex.RequestHeaders = c.keepHeaders(x.ex.RequestHeaders, ev.Headers)
		} else if len(c.extraReq) < maxInflight {
			c.extraReq[k] = c.keepHeaders(c.extraReq[k], ev.Headers)
		}
		c.mu.Unlock()
	case *network.EventResponseReceived:
		c.mu.Lock()
		k := capKey{sess, ev.RequestID}
		if x := c.live[k]; x != nil && ev.Response != nil {
			r := ev.Response
			x.ex.Status, x.ex.StatusText, x.ex.MimeType = int(r.Status), r.StatusText, r.MimeType
			if h, ok := c.extraResp[k]; ok {
				c.total -= headersSize(x.ex.ResponseHeaders)
				x.ex.ResponseHeaders = h // counted already
				delete(c.extraResp, k)
			} else {
				x.ex.ResponseHeaders = c.keepHeaders(x.ex.ResponseHeaders, r.Headers)
			}
		}
		c.mu.Unlock()
	case *network.EventResponseReceivedExtraInfo:
		c.mu.Lock()
		k := capKey{sess, ev.RequestID}
		if x := c.live[k]; x != nil && x.ex.Status != 0 {
			x.ex.ResponseHeaders = c.keepHeaders(x.ex.ResponseHeaders, ev.Headers)
		} else if len(c.extraResp) < maxInflight {
			c.extraResp[k] = c.keepHeaders(c.extraResp[k], ev.Headers)
		}
		c.mu.Unlock()
	case *network.EventDataReceived:
		c.mu.Lock()
		if x := c.live[capKey{sess, ev.RequestID}]; x != nil {
			x.decoded += ev.DataLength
		}
		c.mu.Unlock()
	case *network.EventLoadingFinished:
		c.finished(sess, ev)
	case *network.EventLoadingFailed:
		c.mu.Lock()
		k := capKey{sess, ev.RequestID}
		if x := c.live[k]; x != nil {
			switch {
			case ev.BlockedReason != "":
				x.ex.Failed = "blocked: " + string(ev.BlockedReason)
			case ev.Canceled:
				x.ex.Failed = "canceled"
			default:
				x.ex.Failed = ev.ErrorText
			}
			x.ex.DurationMS = msSince(x.start)
			c.forget(k)
		}
		c.mu.Unlock()
	case *network.EventWebSocketCreated:
		c.mu.Lock()
		c.add(capKey{sess, ev.RequestID}, &capture.Exchange{Kind: "websocket", Method: "GET", URL: ev.URL, Page: docURL, Initiator: initiatorOf(ev.Initiator), Sent: time.Now()})
		c.mu.Unlock()
	case *network.EventWebSocketWillSendHandshakeRequest:
		c.mu.Lock()
		if x := c.live[capKey{sess, ev.RequestID}]; x != nil && ev.Request != nil {
			x.ex.RequestHeaders = c.keepHeaders(x.ex.RequestHeaders, ev.Request.Headers)
		}
		c.mu.Unlock()
	case *network.EventWebSocketHandshakeResponseReceived:
		c.mu.Lock()
		if x := c.live[capKey{sess, ev.RequestID}]; x != nil && ev.Response != nil {
			r := ev.Response
			x.ex.Status, x.ex.StatusText = int(r.Status), r.StatusText
			x.ex.ResponseHeaders = c.keepHeaders(x.ex.ResponseHeaders, r.Headers)
			if len(r.RequestHeaders) > 0 {
				x.ex.RequestHeaders = c.keepHeaders(x.ex.RequestHeaders, r.RequestHeaders)
			}
		}
		c.mu.Unlock()
	case *network.EventWebSocketFrameSent:
		c.frame(sess, ev.RequestID, "sent", ev.Response)
	case *network.EventWebSocketFrameReceived:
		c.frame(sess, ev.RequestID, "received", ev.Response)
	case *network.EventWebSocketClosed:
		c.mu.Lock()
		k := capKey{sess, ev.RequestID}
		if x := c.live[k]; x != nil {
			x.ex.DurationMS = msSince(x.start)
			c.forget(k)
		}
		c.mu.Unlock()
	case *network.EventEventSourceMessageReceived:
		c.mu.Lock()
		if x := c.live[capKey{sess, ev.RequestID}]; x != nil {
			c.message(capture.Message{Exchange: x.ex.ID, Direction: "received", Event: ev.EventName, Data: ev.Data, Time: time.Now()})
		}
		c.mu.Unlock()
	case *page.EventLoadEventFired:
		c.mu.Lock()
		ok := sess == t.Target() && c.stopped == 0
		if ok {
			c.wg.Add(1)
		}
		c.mu.Unlock()
		if ok {
			go func() {
				defer c.wg.Done()
				ctx, cancel := context.WithTimeout(c.ctx, capStopWait)
				defer cancel()
				c.ReadState(ctx, t)
			}()
		}
	}
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// request records a request, or the next hop of a redirected one.
func (c *Capture) request(sess cdp.Session, page string, main cdp.FrameID, ev *network.EventRequestWillBeSent) {
	if ev.Request == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := capKey{sess, ev.RequestID}
	id, hops := "", 0
	if prev := c.live[k]; prev != nil && ev.RedirectResponse != nil {
		r := ev.RedirectResponse
		prev.ex.Status, prev.ex.StatusText, prev.ex.MimeType = int(r.Status), r.StatusText, r.MimeType
		if h, ok := c.extraResp[k]; ok {
			c.total -= headersSize(prev.ex.ResponseHeaders)
			prev.ex.ResponseHeaders = h // counted already
			delete(c.extraResp, k)
		} else {
			prev.ex.ResponseHeaders = c.keepHeaders(prev.ex.ResponseHeaders, r.Headers)
		}
		prev.ex.RedirectedTo = ev.Request.URL
		prev.ex.DurationMS = msSince(prev.start)
		hops = prev.hops + 1
		id = prev.ex.ID
		if i := strings.IndexByte(id, '.'); i >= 0 {
			id = id[:i]
		}
		id += "." + strconv.Itoa(hops)
		c.forget(k)
	}
	r := ev.Request
	e := &capture.Exchange{ID: id, Kind: strings.ToLower(string(ev.Type)), Method: r.Method, URL: r.URL + r.URLFragment,
		Page: page, Initiator: initiatorOf(ev.Initiator), Sent: time.Now()}
	if e.Kind == "" {
		e.Kind = "other"
	}
	if ev.FrameID != "" && ev.FrameID != main {
		// Sent in a frame, or loading one: the frame's document.
		e.Frame = ev.DocumentURL
		if e.Kind == "document" {
			e.Frame = r.URL
		}
	}
	if len(e.URL) > capMaxURL {
		e.URL = e.URL[:capMaxURL] + "…" // a data: URL, an image inlined
	}
	// Kept first, so that a dropped exchange counts no bytes.
	x := c.add(k, e)
	if x == nil {
		return
	}
	x.hops = hops
	var body strings.Builder
	for _, p := range r.PostDataEntries {
		body.Write(p.Bytes)
	}
	if n := body.Len(); n > c.maxBody || c.total+n > c.maxTotal {
		e.BodyOmitted = "request body too large"
		c.dropped++
	} else {
		e.RequestBody = body.String()
		c.total += n
	}
	if h, ok := c.extraReq[k]; ok {
		e.RequestHeaders = h // counted already
		delete(c.extraReq, k)
	} else {
		e.RequestHeaders = c.keepHeaders(nil, r.Headers)
	}
}

// add keeps a new exchange and follows it; mu is held. It returns nil
// when the count limit is reached (the exchange is counted as dropped).
func (c *Capture) add(k capKey, e *capture.Exchange) *capEx {
	if c.stopped != 0 || len(c.exchanges) >= c.maxEx || len(c.live) >= maxInflight || c.total+len(e.URL) > c.maxTotal {
		c.dropped++
		return nil
	}
	c.total += len(e.URL)
	c.seq++
	if e.ID == "" {
		e.ID = "e" + strconv.Itoa(c.seq)
	}
	c.exchanges = append(c.exchanges, e)
	x := &capEx{ex: e, start: time.Now()}
	c.live[k] = x
	return x
}

// forget stops following an exchange; mu is held.
func (c *Capture) forget(k capKey) {
	c.total -= headersSize(c.extraReq[k]) + headersSize(c.extraResp[k])
	delete(c.live, k)
	delete(c.extraReq, k)
	delete(c.extraResp, k)
}

// finished ends an exchange and fetches its body when it is kept.
func (c *Capture) finished(sess cdp.Session, ev *network.EventLoadingFinished) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := capKey{sess, ev.RequestID}
	x := c.live[k]
	if x == nil {
		return
	}
	c.forget(k)
	e := x.ex
	e.DurationMS = msSince(x.start)
	if c.stopped != 0 {
		return
	}
	if e.Kind == "eventsource" || e.Kind == "websocket" {
		return // its messages are kept, not its body
	}
	if !textual(e.MimeType) {
		switch {
		case strings.HasPrefix(e.MimeType, "text/"):
			e.BodyOmitted = "script or style"
		case e.MimeType != "":
			e.BodyOmitted = "binary"
		}
		return
	}
	size := max(x.decoded, int64(ev.EncodedDataLength))
	switch {
	case size > int64(c.maxBody):
		e.BodyOmitted = "too large"
		c.dropped++
		return
	case c.total+int(size) > c.maxTotal:
		e.BodyOmitted = "capture byte limit"
		c.dropped++
		return
	}
	c.total += int(size) // reserved; corrected when the body is in
	c.wg.Add(1)
	// One goroutine a kept exchange at most (maxEx bounds them), a few
	// fetching at once.
	go func() {
		defer c.wg.Done()
		var res network.GetResponseBodyResult
		err := c.ctx.Err()
		select {
		case c.sem <- struct{}{}:
			ctx, cancel := context.WithTimeout(c.ctx, capStopWait)
			res, err = cdp.Call(ctx, sess, network.GetResponseBody, network.GetResponseBodyParams{RequestID: ev.RequestID})
			cancel()
			<-c.sem
		case <-c.ctx.Done():
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.total -= int(size)
		switch {
		case err != nil:
			e.BodyOmitted = "not available"
		case res.Base64encoded && !textual(e.MimeType):
			e.BodyOmitted = "binary"
		case len(res.Body) > c.maxBody || c.total+len(res.Body) > c.maxTotal:
			e.BodyOmitted = "too large"
			c.dropped++
		default:
			e.ResponseBody = string(res.Body)
			c.total += len(res.Body)
		}
	}()
}

// textual reports whether a body of this MIME type is kept: JSON and
// text, not scripts or style sheets.
func textual(mime string) bool {
	m := strings.ToLower(mime)
	switch {
	case strings.Contains(m, "json"), strings.HasSuffix(m, "+xml"), m == "application/xml",
		m == "application/x-www-form-urlencoded":
		return true
	case strings.HasPrefix(m, "text/"):
		return m != "text/css" && m != "text/javascript" && m != "text/event-stream"
	}
	return false
}

// frame keeps one WebSocket frame.
func (c *Capture) frame(sess cdp.Session, id network.RequestID, dir string, f *network.WebSocketFrame) {
	if f == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	x := c.live[capKey{sess, id}]
	if x == nil {
		return
	}
	data := string(f.PayloadData)
	if f.Opcode != 1 {
		data = "binary:" + base64.StdEncoding.EncodeToString(f.PayloadData)
	}
	c.message(capture.Message{Exchange: x.ex.ID, Direction: dir, Data: data, Time: time.Now()})
}

// message keeps a frame within the bounds; mu is held.
func (c *Capture) message(m capture.Message) {
	if c.stopped != 0 || len(c.messages) >= capMaxMessages || len(m.Data) > c.maxBody || c.total+len(m.Data) > c.maxTotal {
		c.dropped++
		return
	}
	c.total += len(m.Data)
	c.messages = append(c.messages, m)
}

// keepHeaders returns h as headers in place of old, counting them in the
// capture's bytes (a site can answer with 250 KiB of headers every
// time); nil, counted as dropped, past the limit. mu is held.
func (c *Capture) keepHeaders(old []capture.Header, h network.Headers) []capture.Header {
	c.total -= headersSize(old)
	hs := capHeaders(h)
	n := headersSize(hs)
	if c.total+n > c.maxTotal {
		c.dropped++
		return nil
	}
	c.total += n
	return hs
}

func headersSize(hs []capture.Header) int {
	n := 0
	for _, h := range hs {
		n += len(h.Name) + len(h.Value)
	}
	return n
}

// capHeaders turns CDP's header map into headers, sorted by name.
func capHeaders(h network.Headers) []capture.Header {
	out := make([]capture.Header, 0, len(h))
	for k, v := range h {
		s, ok := v.(string)
		if !ok {
			s = fmt.Sprint(v)
		}
		out = append(out, capture.Header{Name: k, Value: s})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// initiatorOf names who sent a request: the first script frame on the
// initiator's stack ("URL:line:column", 1-based), else "parser" (with the
// document's place when known), else the initiator's type.
func initiatorOf(in *network.Initiator) string {
	if in == nil {
		return "other"
	}
	for st := in.Stack; st != nil; st = st.Parent {
		for _, f := range st.CallFrames {
			if f.URL != "" {
				return fmt.Sprintf("%s:%d:%d", f.URL, f.LineNumber+1, f.ColumnNumber+1)
			}
		}
	}
	if in.Type == network.InitiatorTypeScript && in.URL != "" {
		return fmt.Sprintf("%s:%d:%d", in.URL, int64(in.LineNumber)+1, int64(in.ColumnNumber)+1)
	}
	if in.Type == network.InitiatorTypeParser {
		return "parser"
	}
	if in.Type == "" {
		return "other"
	}
	return string(in.Type)
}

// jsPageState reads, in our isolated world, what a request may be built
// from: meta tags with content, local and session storage, and the JSON a
// page embeds in script elements (__NEXT_DATA__, application/json,
// ld+json). Globals the page's scripts set (window.__INITIAL_STATE__) are
// not visible from the isolated world and are not read.
