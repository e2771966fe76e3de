package driver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
)

// Network capture (calls.MethodCaptureStart/Stop): the Network events
// chromedp already has the browser send on every tab (the page log reads
// the same stream, pagelog.go) are copied into a netCapture while one
// runs. Off, it costs one atomic load per event: no domain is enabled,
// no listener added, no body fetched. On, a response body is fetched
// (Network.getResponseBody) after its load finished, for JSON and text
// under the size limit, and the page state is read from our isolated
// world when a document loads and at stop. Everything is bounded; what is
// not kept is counted. The capture is redacted only when it is read
// (capture.Redactor), the whole file at once, so a secret found late is
// masked early too; the raw values never leave the daemon.

// Default bounds of a capture.
const (
	capMaxExchanges = 2000
	capMaxBody      = 1 << 20
	capMaxTotal     = 32 << 20
	capMaxMessages  = 2000
	capMaxState     = 256 << 10 // one state value
	capBodyFetches  = 4         // body fetches at once
	capStopWait     = 5 * time.Second
	capMaxURL       = 8 << 10
)

type netCapture struct {
	key                          []byte // the markers' key, never saved
	maxEx, maxBody, maxTotal     int
	started                      time.Time
	ctx                          context.Context // bounds the body fetches and state reads; ended at stop
	cancel                       context.CancelFunc
	wg                           sync.WaitGroup
	sem                          chan struct{}
	mu                           sync.Mutex
	exchanges                    []*capture.Exchange
	live                         map[capKey]*capEx // by CDP session and request id
	extraReq                     map[capKey][]capture.Header
	extraResp                    map[capKey][]capture.Header
	messages                     []capture.Message
	state                        map[string]capture.StateValue // by page and source
	cached                       map[string][]capture.Exchange // the application's own caches, by origin (netcapture_cached.go)
	cachedDropped                map[string]int                // what reading them left out, by origin
	dropped, total, seq, stopped int
}

type capKey struct {
	sess cdp.Session
	id   network.RequestID
}

// capEx is an exchange in flight.
type capEx struct {
	ex      *capture.Exchange
	hops    int
	decoded int64 // body bytes received so far
	start   time.Time
}

// capturing returns the running capture, or nil.
func (l *pageLog) capturing() *netCapture { return l.capture.Load() }

// StartCapture starts capturing the session's network.
func (s *Session) StartCapture(ctx context.Context, req calls.CaptureStartRequest) (*calls.CaptureStarted, error) {
	if req.MaxExchanges < 0 || req.MaxBodyBytes < 0 || req.MaxTotalBytes < 0 {
		return nil, calls.Errorf(calls.ErrBadInput, "leave the limits out for the defaults", "capture limits must be 0 or more")
	}
	c := &netCapture{key: capture.NewKey(), maxEx: cmpOr(req.MaxExchanges, capMaxExchanges),
		maxBody: cmpOr(req.MaxBodyBytes, capMaxBody), maxTotal: cmpOr(req.MaxTotalBytes, capMaxTotal),
		started: time.Now(), sem: make(chan struct{}, capBodyFetches), live: map[capKey]*capEx{},
		extraReq: map[capKey][]capture.Header{}, extraResp: map[capKey][]capture.Header{}, state: map[string]capture.StateValue{}}
	c.ctx, c.cancel = context.WithCancel(context.WithoutCancel(s.browser.ctx))
	if !s.log.capture.CompareAndSwap(nil, c) {
		c.cancel()
		return nil, calls.Errorf(calls.ErrBadInput, "stop it first: "+calls.Cmd("capture stop FILE"), "session %q captures already", s.name)
	}
	return &calls.CaptureStarted{Session: s.name, StartedUnix: c.started.UnixMilli()}, nil
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// StopCapture ends the session's capture (or reads it so far, with Keep)
// and returns it redacted.
func (s *Session) StopCapture(ctx context.Context, req calls.CaptureStopRequest) (*calls.CaptureStopResult, error) {
	if err := s.captureGone(); err != nil {
		return nil, err
	}
	s.settledLogs(ctx) // the last action's requests answered (pending.go)
	c := s.log.capturing()
	if c == nil {
		return nil, calls.Errorf(calls.ErrBadInput, "start one first: "+calls.Cmd("capture start")+", then use the pages, then "+calls.Cmd("capture stop FILE"),
			"session %q does not capture", s.name)
	}
	// The state as the pages hold it now.
	s.mu.Lock()
	tabs := append([]*tab(nil), s.tabs...)
	s.mu.Unlock()
	rctx, cancel := context.WithTimeout(ctx, capStopWait)
	seen := map[string]bool{}
	for _, t := range tabs {
		if !t.closed() {
			c.readState(rctx, t)
			c.readCached(rctx, t, seen)
		}
	}
	cancel()
	if err := s.captureGone(); err != nil {
		return nil, err
	}
	if !req.Keep {
		if !s.log.capture.CompareAndSwap(c, nil) {
			return nil, calls.Errorf(calls.ErrBadInput, "", "session %q stopped capturing meanwhile", s.name)
		}
		c.finish()
	}
	f := c.file(s.name)
	r := capture.NewRedactor(c.key)
	for _, v := range s.typedValues() {
		r.Secret("secret", v)
	}
	red := r.File(f)
	js, err := indentJSON(red)
	if err != nil {
		return nil, err
	}
	out := &calls.CaptureStopResult{Capture: js, Exchanges: len(red.Exchanges), Messages: len(red.Messages), State: len(red.State), Dropped: red.Dropped}
	if req.HAR {
		if out.HAR, err = indentJSON(capture.ToHAR(red, "")); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// captureGone ends the capture of a session whose browser died, and says
// so: its bodies and state may be cut short anywhere, so nothing is given
// to write.
func (s *Session) captureGone() error {
	if s.browser.Alive() {
		return nil
	}
	s.stopCapture()
	return &calls.Error{Kind: calls.ErrBrowserGone, Msg: "the browser is gone (it crashed or was killed): a capture ends with it, unwritten",
		Hint: "capture again in a new browser: " + calls.Cmd("capture start") + ", then the pages, then " + calls.Cmd("capture stop FILE")}
}

// indentJSON marshals v for a person to read: indented, and the bodies'
// HTML as it is rather than \u003c-escaped.
func indentJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// stopCapture drops a running capture (the session closes).
func (s *Session) stopCapture() {
	if c := s.log.capture.Swap(nil); c != nil {
		c.finish()
	}
}

// finish ends the body fetches, waiting a little for those under way.
func (c *netCapture) finish() {
	// Stopped first, under mu: no fetch is started (wg.Add) after this,
	// so the Wait below cannot race an Add.
	c.mu.Lock()
	c.stopped = 1
	c.mu.Unlock()
	done := make(chan struct{})
	go func() { c.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(capStopWait):
	}
	c.cancel()
}

// file returns a copy of what was captured, not redacted.
func (c *netCapture) file(session string) *capture.File {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := &capture.File{Format: capture.Format, Session: session, Started: c.started, Stopped: time.Now(),
		Exchanges: make([]capture.Exchange, len(c.exchanges)), Messages: append([]capture.Message(nil), c.messages...), Dropped: c.dropped}
	for i, e := range c.exchanges {
		f.Exchanges[i] = *e
		f.Exchanges[i].RequestHeaders = append([]capture.Header(nil), e.RequestHeaders...)
		f.Exchanges[i].ResponseHeaders = append([]capture.Header(nil), e.ResponseHeaders...)
	}
	for _, o := range slices.Sorted(maps.Keys(c.cached)) {
		for _, e := range c.cached[o] {
			e.RequestHeaders = slices.Clone(e.RequestHeaders)
			e.ResponseHeaders = slices.Clone(e.ResponseHeaders)
			f.Cached = append(f.Cached, e)
		}
		f.Dropped += c.cachedDropped[o]
	}
	keys := make([]string, 0, len(c.state))
	for k := range c.state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f.State = append(f.State, c.state[k])
	}
	return f
}

// onEvent copies a Network event of a tab's target (sess: the tab's or an
// out-of-process frame's) into the capture. It runs in chromedp's read
// loop with t.mu held: it sends no command itself. docURL is the tab's
// document URL, main its main frame.
func (c *netCapture) onEvent(t *tab, sess cdp.Session, docURL string, main cdp.FrameID, ev any) {
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
		ok := sess == t.sess && c.stopped == 0
		if ok {
			c.wg.Add(1)
		}
		c.mu.Unlock()
		if ok {
			go func() {
				defer c.wg.Done()
				ctx, cancel := context.WithTimeout(c.ctx, capStopWait)
				defer cancel()
				c.readState(ctx, t)
			}()
		}
	}
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// request records a request, or the next hop of a redirected one.
func (c *netCapture) request(sess cdp.Session, page string, main cdp.FrameID, ev *network.EventRequestWillBeSent) {
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
func (c *netCapture) add(k capKey, e *capture.Exchange) *capEx {
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
func (c *netCapture) forget(k capKey) {
	c.total -= headersSize(c.extraReq[k]) + headersSize(c.extraResp[k])
	delete(c.live, k)
	delete(c.extraReq, k)
	delete(c.extraResp, k)
}

// finished ends an exchange and fetches its body when it is kept.
func (c *netCapture) finished(sess cdp.Session, ev *network.EventLoadingFinished) {
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
func (c *netCapture) frame(sess cdp.Session, id network.RequestID, dir string, f *network.WebSocketFrame) {
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
func (c *netCapture) message(m capture.Message) {
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
func (c *netCapture) keepHeaders(old []capture.Header, h network.Headers) []capture.Header {
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
const jsPageState = `(() => {
  const out = [];
  for (const m of document.querySelectorAll('meta[content]')) {
    const n = m.getAttribute('name') || m.getAttribute('property') || m.getAttribute('http-equiv') || m.getAttribute('itemprop');
    if (n) out.push(['meta:' + n, m.getAttribute('content')]);
  }
  for (const [name, st] of [['localStorage', () => localStorage], ['sessionStorage', () => sessionStorage]]) {
    try {
      const s = st();
      for (let i = 0; i < s.length; i++) { const k = s.key(i); out.push([name + ':' + k, s.getItem(k)]); }
    } catch (e) {}
  }
  let n = 0;
  for (const s of document.querySelectorAll('script[type="application/json"], script[type="application/ld+json"], script#__NEXT_DATA__, script#__NUXT_DATA__')) {
    out.push(['script:' + (s.id || s.type + '#' + (n++)), s.textContent]);
  }
  return out;
})()`

// readState reads the page state and cookies of t's main frame into the
// capture.
func (c *netCapture) readState(ctx context.Context, t *tab) {
	t.mu.Lock()
	frame, url := t.frameID, t.docURL
	t.mu.Unlock()
	if !strings.HasPrefix(url, "http") {
		return
	}
	var pairs [][2]string
	if err := t.evalWorld(ctx, t.sess, frame, jsPageState, &pairs); err != nil {
		return
	}
	if res, err := cdp.Call(ctx, t.sess, network.GetCookies, network.GetCookiesParams{URLs: []string{url}}); err == nil {
		for _, ck := range res.Cookies {
			pairs = append(pairs, [2]string{"cookie:" + ck.Name, ck.Value})
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range pairs {
		// The name and page count as the value does: thousands of
		// empty values under long names are not free.
		k := url + "\x00" + p[0]
		old, had := c.state[k]
		size, oldSize := len(k)+len(p[1]), 0
		if had {
			oldSize = len(k) + len(old.Value)
		}
		if len(p[1]) > capMaxState || c.total-oldSize+size > c.maxTotal {
			c.dropped++
			continue
		}
		c.total += size - oldSize
		c.state[k] = capture.StateValue{Source: p[0], Page: url, Value: p[1]}
	}
}

// captureHook is how the tab's listener reaches the capture; an atomic
// pointer so that capture off costs one load per event.
type captureHook = atomic.Pointer[netCapture]
