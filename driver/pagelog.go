package driver

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

// A session keeps what its pages logged to the console and the requests
// they made, for people and agents asking why a page misbehaves (waymark
// console, waymark network), for evidence (waymark test, traces) and for
// Problems. It is read from the events of the domains chromedp enables on
// every tab (Runtime, Log, Network): nothing is added to the page. It
// lives as long as the session and is bounded: older entries go first.

// Bounds of a session's page log.
const (
	maxConsole  = 500
	maxRequests = 1000
	maxInflight = 2000 // requests waiting for their outcome
	// maxLogText bounds one message's text and one request's URL: a page
	// that logged megabyte strings or asked for megabyte URLs (Chromium
	// takes 2 MB) grew the daemon by gigabytes within the entry bounds.
	maxLogText = 4 << 10
)

// clip cuts a text over maxLogText, saying how much was cut. The
// session's secrets are masked first, so that none is cut in two where
// the mask at output could no longer find it.
func (l *pageLog) clip(s string) string {
	if len(s) <= maxLogText {
		return s
	}
	s = l.typed.Mask(s)
	if len(s) <= maxLogText {
		return s
	}
	cut := maxLogText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes more)", len(s)-cut)
}

// pageLog is a session's console messages and requests, shared by its
// tabs. It has its own lock: the tabs' listeners write it from chromedp's
// read loop while holding their tab's mu, and pageLog never takes a tab's.
type pageLog struct {
	mu       sync.Mutex
	seq      int64
	console  kept[calls.ConsoleMessage]
	requests kept[*calls.Request]
	// inflight are the requests waiting for their outcome, by tab and id.
	inflight map[reqKey]*calls.Request
	// typed is the session's secret registry (registry.go): every value
	// typed as a secret, to mask in what the pages echo (a console.log
	// of a form, a query) and in every other output.
	typed *secret.Set
	// typedAll holds every value typed into the session's fields, secret
	// or not, for the send gate (entered.go).
	typedAll secret.Set
	// capture is the network capture running, or nil (netcapture.go).
	capture captureHook
}

// typedValues returns the values typed as secrets in the session.
func (l *pageLog) typedValues() []string {
	var out []string
	for _, v := range l.typed.Values() {
		out = append(out, v.Reveal())
	}
	return out
}

type reqKey struct {
	t  *tab
	id network.RequestID
}

func newPageLog() *pageLog {
	return &pageLog{inflight: map[reqKey]*calls.Request{}, typed: new(secret.Set),
		console: kept[calls.ConsoleMessage]{max: maxConsole}, requests: kept[*calls.Request]{max: maxRequests}}
}

func nowMS() int64 { return time.Now().UnixMilli() }

// addConsole records one console message; mu is held.
func (l *pageLog) addConsole(m calls.ConsoleMessage) {
	m.Text, m.URL = l.clip(m.Text), l.clip(m.URL)
	l.seq++
	m.Seq, m.UnixMS = l.seq, nowMS()
	l.console.add(m)
}

// dropConsole counts a console message not kept.
func (l *pageLog) dropConsole() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.console.gone++
}

// addRequest records one request; mu is held.
func (l *pageLog) addRequest(r *calls.Request) {
	r.URL = l.clip(r.URL)
	l.seq++
	r.Seq = l.seq
	l.requests.add(r)
}

// onEvent records an event of tab t; it runs in chromedp's read loop.
func (l *pageLog) onEvent(t *tab, ev any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg = firstLine(d.Exception.Description)
		}
		m := calls.ConsoleMessage{Level: "error", Source: "exception", Text: "uncaught: " + msg, URL: d.URL}
		if d.URL != "" {
			m.Line = int(d.LineNumber) + 1
		}
		l.addConsole(m)
	case *runtime.EventConsoleAPICalled:
		var parts []string
		for _, a := range ev.Args {
			switch {
			case a.Description != "":
				parts = append(parts, a.Description)
			case len(a.Value) > 0:
				parts = append(parts, strings.Trim(string(a.Value), `"`))
			}
		}
		m := calls.ConsoleMessage{Level: consoleLevel(ev.Type), Source: "console", Text: strings.Join(parts, " ")}
		if ev.Type == runtime.ConsoleAPICalledTypeAssert {
			m.Text = "assertion failed: " + m.Text
		}
		if st := ev.StackTrace; st != nil && len(st.CallFrames) > 0 {
			m.URL, m.Line = st.CallFrames[0].URL, int(st.CallFrames[0].LineNumber)+1
		}
		l.addConsole(m)
	case *log.EventEntryAdded:
		// The browser's own messages; the page's console calls come as
		// Runtime events above.
		e := ev.Entry
		if e == nil || e.Source == log.EntrySourceJavascript || (e.Level != log.EntryLevelError && e.Level != log.EntryLevelWarning) {
			return
		}
		m := calls.ConsoleMessage{Level: string(e.Level), Source: string(e.Source), Text: e.Text, URL: e.URL}
		if e.URL != "" && e.LineNumber > 0 {
			m.Line = int(e.LineNumber) + 1
		}
		l.addConsole(m)
	case *network.EventRequestWillBeSent:
		if ev.Request == nil {
			return
		}
		k := reqKey{t, ev.RequestID}
		if prev := l.inflight[k]; prev != nil && ev.RedirectResponse != nil {
			// The same id goes on after a redirect: the hop before it
			// ended with the redirect's status.
			prev.Status, prev.Pending = int(ev.RedirectResponse.Status), false
			prev.DurationMS = nowMS() - prev.SentUnixMS
			delete(l.inflight, k)
		}
		r := &calls.Request{Method: ev.Request.Method, URL: ev.Request.URL, Type: strings.ToLower(string(ev.Type)), Pending: true, SentUnixMS: nowMS()}
		if r.Type == "" {
			r.Type = "other"
		}
		l.addRequest(r)
		if len(l.inflight) < maxInflight {
			l.inflight[k] = r
		} else {
			r.Pending = false // no longer followed; its outcome stays unknown
		}
	case *network.EventResponseReceived:
		if r := l.inflight[reqKey{t, ev.RequestID}]; r != nil && ev.Response != nil {
			r.Status = int(ev.Response.Status)
		}
	case *network.EventLoadingFinished:
		k := reqKey{t, ev.RequestID}
		if r := l.inflight[k]; r != nil {
			r.Pending, r.DurationMS = false, nowMS()-r.SentUnixMS
			delete(l.inflight, k)
		}
	case *network.EventLoadingFailed:
		k := reqKey{t, ev.RequestID}
		if r := l.inflight[k]; r != nil {
			switch {
			case ev.BlockedReason != "":
				r.Failed = "blocked: " + string(ev.BlockedReason)
			case ev.Canceled:
				r.Failed = "canceled"
			default:
				r.Failed = ev.ErrorText
			}
			r.Pending, r.DurationMS = false, nowMS()-r.SentUnixMS
			delete(l.inflight, k)
		}
	}
}

// consoleLevel maps a console call to the levels of calls.ConsoleMessage.
func consoleLevel(t runtime.ConsoleAPICalledType) string {
	switch t {
	case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeAssert:
		return "error"
	case runtime.ConsoleAPICalledTypeWarning:
		return "warning"
	case runtime.ConsoleAPICalledTypeInfo:
		return "info"
	case runtime.ConsoleAPICalledTypeDebug:
		return "debug"
	}
	return "log"
}

// forgetTab drops the requests of a closed tab from those followed.
func (l *pageLog) forgetTab(t *tab) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, r := range l.inflight {
		if k.t == t {
			r.Pending = false
			delete(l.inflight, k)
		}
	}
}

// mask masks what the heuristic takes for a secret and every value typed
// as one.
func (l *pageLog) mask(s string) string { return l.typed.Redact(s) }

// Console returns the console messages of the session's pages.
func (s *Session) Console(ctx context.Context, req calls.ConsoleRequest) (*calls.ConsoleLog, error) {
	if req.Last < 0 || req.Since < 0 {
		return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: "last and since must be 0 or more", Hint: "leave them out to read every message kept"}
	}
	s.settledLogs(ctx)
	l := s.log
	l.mu.Lock()
	out := &calls.ConsoleLog{Messages: []calls.ConsoleMessage{}, Dropped: l.console.dropped(), Next: l.seq}
	for _, m := range l.console.items() {
		if m.Seq > req.Since && (!req.Errors || m.Level == "error") {
			out.Messages = append(out.Messages, m)
		}
	}
	if req.Clear {
		l.console.reset()
	}
	l.mu.Unlock()
	if req.Last > 0 && len(out.Messages) > req.Last {
		out.Messages = out.Messages[len(out.Messages)-req.Last:]
	}
	for i := range out.Messages {
		m := &out.Messages[i]
		m.Text, m.URL = l.mask(m.Text), l.mask(m.URL)
		if m.Level == "error" {
			out.Errors++
		}
	}
	return out, nil
}

// Network returns the requests of the session's pages.
func (s *Session) Network(ctx context.Context, req calls.NetworkRequest) (*calls.NetworkLog, error) {
	if req.Last < 0 || req.Since < 0 {
		return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: "last and since must be 0 or more", Hint: "leave them out to read every request kept"}
	}
	s.settledLogs(ctx)
	typ := strings.ToLower(req.Type)
	l := s.log
	l.mu.Lock()
	out := &calls.NetworkLog{Requests: []calls.Request{}, Dropped: l.requests.dropped(), Next: l.seq}
	for _, r := range l.requests.items() {
		if r.Seq > req.Since && (!req.Failed || r.Bad()) && (typ == "" || r.Type == typ) {
			out.Requests = append(out.Requests, *r)
		}
	}
	if req.Clear {
		l.requests.reset()
	}
	l.mu.Unlock()
	if req.Last > 0 && len(out.Requests) > req.Last {
		out.Requests = out.Requests[len(out.Requests)-req.Last:]
	}
	for i := range out.Requests {
		r := &out.Requests[i]
		r.URL = l.mask(r.URL)
		if r.Bad() {
			out.Failed++
		}
	}
	return out, nil
}
