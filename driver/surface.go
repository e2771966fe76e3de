package driver

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// The core's surface for the feature rooms (driver/internal/*): the few
// exported methods of the core's unexported types that the feature
// packages' interfaces ask for (netcap.Tab, …). A feature package never
// imports driver; driver hands it a *tab as the narrow view it declares.
// Everything here is a one-line door onto the core's own code.

// Target is the tab's own CDP session (not an out-of-process frame's).
// Set once when the tab starts; it takes no lock, so a listener may call
// it.
func (t *tab) Target() *chromedp.Target { return t.sess }

// Doc returns the tab's main frame and its document's URL.
func (t *tab) Doc() (frame cdp.FrameID, url string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.frameID, t.docURL
}

// EvalWorld evaluates expr in our isolated world of frame, a frame of the
// tab's own target (world.go), into out.
func (t *tab) EvalWorld(ctx context.Context, frame cdp.FrameID, expr string, out any) error {
	return t.evalWorld(ctx, t.sess, frame, expr, out)
}

// Context is the tab's chromedp context (pagetool.Tab): a listener on it
// lasts as long as the tab. Never a request's.
func (t *tab) Context() context.Context { return t.ctx }
