// Package netcap records a session's network while a capture runs: the
// Network events of every tab, bounded bodies, the page state and the
// application's own caches, into a [capture.File] (calls.MethodCaptureStart
// and Stop).
//
// It is one of the driver's feature rooms: it knows a tab only through
// [Tab], the part of the core it needs (the tab's CDP target, its document,
// a script in waymark's isolated world). Package driver owns the capture's
// life (start, stop, redaction through the session's typed secrets) and
// feeds [Capture.OnEvent] from each tab's listener.
//
// Off, a capture costs the driver one atomic load per event: no domain is
// enabled, no listener added, no body fetched. On, a response body is
// fetched (Network.getResponseBody) after its load finished, for JSON and
// text under the size limit, and the page state is read from the isolated
// world when a document loads and at stop. Everything is bounded; what is
// not kept is counted. The capture is redacted only when it is read
// (capture.Redactor), the whole file at once, so a secret found late is
// masked early too; the raw values never leave the daemon.
package netcap

import (
	"context"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/capture"
)

// Tab is the view of a driver tab a capture needs.
type Tab interface {
	// Target is the tab's own CDP session (not an out-of-process
	// frame's). It must not block: OnEvent calls it from the read loop.
	Target() *chromedp.Target
	// Doc returns the tab's main frame and its document's URL.
	Doc() (frame cdp.FrameID, url string)
	// EvalWorld evaluates expr in waymark's isolated world of frame (a
	// frame of the tab's own target) and decodes the result into out.
	EvalWorld(ctx context.Context, frame cdp.FrameID, expr string, out any) error
}

// Limits bound a capture; a zero field means its default.
type Limits struct {
	MaxExchanges, MaxBodyBytes, MaxTotalBytes int
}

// maxInflight bounds the requests waiting for their outcome, as the
// driver's page log bounds its own.
const maxInflight = 2000

// New starts a capture whose body fetches and state reads live until
// [Capture.Finish]; parent bounds them (the browser's life, not a call's).
func New(parent context.Context, lim Limits) *Capture {
	c := &Capture{key: capture.NewKey(), maxEx: cmpOr(lim.MaxExchanges, capMaxExchanges),
		maxBody: cmpOr(lim.MaxBodyBytes, capMaxBody), maxTotal: cmpOr(lim.MaxTotalBytes, capMaxTotal),
		started: time.Now(), sem: make(chan struct{}, capBodyFetches), live: map[capKey]*capEx{},
		extraReq: map[capKey][]capture.Header{}, extraResp: map[capKey][]capture.Header{}, state: map[string]capture.StateValue{}}
	c.ctx, c.cancel = context.WithCancel(parent)
	return c
}

// Key is the markers' key of the capture (capture.NewRedactor), never
// saved.
func (c *Capture) Key() []byte { return c.key }

// Started is when the capture began.
func (c *Capture) Started() time.Time { return c.started }

// Cancel ends a capture that never ran (it lost the race to start).
func (c *Capture) Cancel() { c.cancel() }

// StopWait is how long a stop waits for the pages' state and the body
// fetches under way.
const StopWait = capStopWait

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
