package driver

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/shot"
)

// Screenshot captures the viewport, the full page or one element as PNG,
// with the elements of req.Mask and every field a secret was typed into
// (secret.go) blacked out.
func (s *Session) Screenshot(ctx context.Context, req calls.ScreenshotRequest) (_ *calls.Image, err error) {
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	// The masks are measured after the capture. After a navigation in
	// between they would be measured on another document than the one
	// pictured, so the picture is taken again.
	for attempt := 1; ; attempt++ {
		nav := t.mark().navSeq
		img, err := s.screenshot(ctx, t, req)
		if len(req.Mask)+len(req.Highlight) == 0 && !s.hasSecrets() || t.mark().navSeq == nav || ctx.Err() != nil {
			return img, err
		}
		if attempt == 3 {
			return nil, calls.Errorf(calls.ErrNavigation, "wait for the page to settle, then take the screenshot again",
				"the page kept navigating while the screenshot was masked")
		}
	}
}

func (s *Session) screenshot(ctx context.Context, t *tab, req calls.ScreenshotRequest) (*calls.Image, error) {
	params := page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng}
	switch {
	case req.Target != "":
		el, err := s.find(ctx, t, req.Target, defaultActTimeout)
		if err != nil {
			return nil, err
		}
		if _, err := el.actionable(ctx, checkVisible, defaultActTimeout); err != nil {
			return nil, err
		}
		quads, err := cdpCallEl(ctx, el, dom.GetContentQuads, dom.GetContentQuadsParams{BackendNodeID: el.node})
		if err != nil {
			return nil, err
		}
		q := biggestQuad(quads.Quads)
		if q == nil {
			return nil, el.notVisible()
		}
		dx, dy, err := t.frameOffset(ctx, el.tid)
		if err != nil {
			return nil, err
		}
		metrics, err := call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		minX, minY, maxX, maxY := shot.QuadBounds(q)
		vx, vy := 0.0, 0.0
		if metrics.CSSVisualViewport != nil {
			vx, vy = metrics.CSSVisualViewport.PageX, metrics.CSSVisualViewport.PageY
		}
		params.Clip = &page.Viewport{X: minX + dx + vx, Y: minY + dy + vy, Width: maxX - minX, Height: maxY - minY, Scale: 1}
		params.CaptureBeyondViewport = new(true)
	case req.Full:
		metrics, err := call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		if cs := metrics.CSSContentSize; cs != nil {
			params.Clip = &page.Viewport{X: 0, Y: 0, Width: math.Ceil(cs.Width), Height: math.Ceil(cs.Height), Scale: 1}
		}
		params.CaptureBeyondViewport = new(true)
	}
	res, err := call(ctx, t, page.CaptureScreenshot, params)
	if err != nil {
		return nil, err
	}
	secrets, err := s.secretBoxes(ctx, t)
	if err != nil {
		return nil, err
	}
	data := res.Data
	if len(req.Mask) > 0 || len(secrets) > 0 {
		if data, err = s.maskShot(ctx, t, data, params.Clip, req.Mask, secrets); err != nil {
			return nil, err
		}
	}
	if len(req.Highlight) > 0 {
		if data, err = s.highlightShot(ctx, t, data, params.Clip, req.Highlight); err != nil {
			return nil, err
		}
	}
	return &calls.Image{Data: data}, nil
}

// PDF prints the page (headless Chromium only).
func (s *Session) PDF(ctx context.Context) (_ *calls.Image, err error) {
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	res, err := call(ctx, t, page.PrintToPDF, page.PrintToPDFParams{PrintBackground: new(true)})
	if err != nil {
		if pdfUnsupported(err) {
			return nil, calls.Errorf(calls.ErrBadInput, "pdf needs a headless browser; drop --headed", "this browser cannot print to PDF")
		}
		return nil, err
	}
	return &calls.Image{Data: res.Data}, nil
}

// Viewport sets the size of the current tab's viewport.
func (s *Session) Viewport(ctx context.Context, req calls.ViewportRequest) (_ *calls.Empty, err error) {
	if req.Width < 100 || req.Height < 100 || req.Width > 10000 || req.Height > 10000 {
		return nil, calls.Errorf(calls.ErrBadInput, "use a size between 100 and 10000 pixels, e.g. "+calls.Cmd("viewport 1280 800"), "bad viewport %dx%d", req.Width, req.Height)
	}
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	_, err = call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(req.Width), Height: int64(req.Height), DeviceScaleFactor: 1,
	})
	return &calls.Empty{}, err
}

// Dialog answers the open JavaScript dialog.
func (s *Session) Dialog(ctx context.Context, req calls.DialogRequest) (reply *calls.Outcome, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, answerPage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	t.mu.Lock()
	answered := t.dialog
	t.mu.Unlock()
	if answered == nil {
		if err := t.keepAcceptApproval(req); err != nil { // dialoggate.go
			return nil, err
		}
		return nil, calls.Errorf(calls.ErrNoDialog, "nothing to answer; take a snapshot to see the page", "no dialog is open")
	}
	stop, unwatch, err := s.watchAccept(ctx, t, req, answered) // dialoggate.go
	if err != nil {
		return nil, err
	}
	defer unwatch()
	stopped := false
	defer func() {
		if stop != nil && !stopped {
			stop() // the watch ends on every way out
		}
	}()
	if req.Secret != "" && req.Text != "" {
		s.register(req.Secret, req.Text) // before it is typed (registry.go)
	}
	before := t.mark()
	params := page.HandleJavaScriptDialogParams{Accept: req.Accept}
	if req.Text != "" {
		params.PromptText = req.Text
	}
	if _, err := cdp.Call(ctx, t.dialogSession(), page.HandleJavaScriptDialog, params); err != nil {
		return nil, browserErr(err)
	}
	// The page may open its next dialog before this call returns (a
	// loop of alerts): forget only the one answered.
	t.mu.Lock()
	if t.dialog == answered {
		t.dialog = nil
	}
	t.mu.Unlock()
	if req.Accept && answered.Type == string(page.DialogTypeBeforeunload) {
		t.leaving()
	}
	if err := t.settle(ctx, before, paceClick); err != nil {
		return nil, err
	}
	var passed []heldSend
	if stop != nil {
		stopped = true
		var held []heldSend
		if held, passed = stop(); len(held) > 0 {
			return nil, t.acceptHeld(answered, held)
		}
	}
	out, err := s.outcome(ctx, t, before, s.tabCount())
	if out != nil {
		out.Dialog = t.pendingDialog()
		for _, p := range passed {
			out.Chatter = append(out.Chatter, p.String())
		}
	}
	return out, err
}

// planScroll scrolls the page or an element with the mouse wheel, or rolls
// an element into view.
func (s *Session) planScroll(ctx context.Context, t *tab, req calls.ActRequest, timeout time.Duration) (func(context.Context) error, error) {
	dir := strings.ToLower(req.Direction)
	var el *element
	if req.Target != "" {
		var err error
		if el, err = s.find(ctx, t, req.Target, timeout); err != nil {
			return nil, err
		}
	}
	if dir == "into-view" || dir == "intoview" {
		if el == nil {
			// In words every front reads (a tool's target, a program's
			// ActRequest.Target): the CLI refuses this itself.
			return nil, calls.Errorf(calls.ErrBadInput, "name the element to scroll into view", "into-view needs a target")
		}
		return func(ctx context.Context) error {
			_, err := el.actionable(ctx, checkVisible, timeout)
			return err
		}, nil
	}
	var dx, dy float64
	amount := float64(req.Pixels)
	if amount <= 0 {
		amount = 600
	}
	switch dir {
	case "", "down":
		dy = amount
	case "up":
		dy = -amount
	case "right":
		dx = amount
	case "left":
		dx = -amount
	default:
		return nil, calls.Errorf(calls.ErrBadInput, "use up, down, left, right or into-view", "unknown scroll direction %q", req.Direction)
	}
	return func(ctx context.Context) error {
		at := point{X: 200, Y: 200}
		if el != nil {
			p, err := el.actionable(ctx, checkVisible, timeout)
			if err != nil {
				return err
			}
			at = p
		} else if m, err := call(ctx, t, page.GetLayoutMetrics, cdp.Empty{}); err == nil && m.CSSVisualViewport != nil {
			at = point{X: m.CSSVisualViewport.ClientWidth / 2, Y: m.CSSVisualViewport.ClientHeight / 2}
		}
		// Sent raw: the generated params drop a zero delta, and Chromium
		// wants both deltas of a wheel event.
		err := t.sess.Call(ctx, input.CommandDispatchMouseEvent, map[string]any{
			"type": input.DispatchMouseEventTypeMouseWheel, "x": at.X, "y": at.Y, "deltaX": dx, "deltaY": dy,
		}, nil)
		return browserErr(err)
	}, nil
}
