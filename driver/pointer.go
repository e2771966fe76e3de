package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/internal/keys"
	"github.com/waymark-dev/waymark/internal/wait"
)

// point is a place in the top page's viewport, in CSS pixels.
type point struct {
	X, Y float64
	W, H float64 // the size of the element pressed there, for a hand's aim; may be zero
	// download: a press on the element there may start a download (a
	// link, a form's submit control), when the checks read it.
	download bool
}

// Checks an element passes before a pointer action, modelled on rod's
// Interactable: visible (it has a box), stable (the box did not move over
// an animation frame), enabled, and not covered (the top element at the
// press point is it or inside it).
const (
	checkVisible = 1 << iota
	checkEnabled
	checkHit
	// checkMoved: the mouse is moved onto the element between two checks
	// (reach), so the check waits for no frame.
	checkMoved
	// checkAgain: the second of those checks, which compares the element's
	// box with the first's and does not scroll.
	checkAgain
	// checkInView: the first check of an element of the top frame does not
	// scroll it into view first (a round trip of its own), and passes only
	// when the element is wholly in view, as a scroll would leave it; else
	// the caller checks again the usual way (firstInView).
	checkInView
)

// errNotInView is a check's answer (checkInView) for an element that a
// scroll into view would move.
var errNotInView = errors.New("element is not wholly in view")

// firstInView wraps an actionableLoop try so that its first run checks the
// element where it is (checkInView) and, when that does not pass, at once
// the usual way, scrolled into view first: an element already in view
// (most are: the agent read it in the look) is checked in one round trip
// instead of two.
func firstInView(try func(extra int) (point, error)) func() (point, error) {
	first := true
	return func() (point, error) {
		if first {
			first = false
			if p, err := try(checkInView); err == nil {
				return p, nil
			}
		}
		return try(0)
	}
}

// probeBox is where a check found the element: its centre and size in its
// frame's viewport.
type probeBox struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// coverPatience is how long an element may stay covered by the same
// thing before the action gives up: long enough for a toast to fade or a
// spinner to go, short enough that a cookie wall or modal is named within
// a second rather than at the end of the action's timeout (issue 7).
const coverPatience = time.Second

// actionable scrolls the element into view and waits until it passes the
// checks, returning the point to press in the page's viewport. The error
// names what failed last. States that may pass (moving, hidden, disabled)
// are waited out until the timeout; a cover that stays coverPatience
// fails the action then, naming what covers it.
func (el *element) actionable(ctx context.Context, checks int, timeout time.Duration) (point, error) {
	return el.actionableThen(ctx, checks, timeout, "", nil)
}

// actionableThen is actionable that, once the element passes, calls then (a
// function of this element, as for callOn, with no arguments) in the same
// round trip, decoding its result into out: a fill's preparation, one call
// instead of two.
func (el *element) actionableThen(ctx context.Context, checks int, timeout time.Duration, then string, out any) (point, error) {
	return el.actionableLoop(ctx, checks, timeout, firstInView(func(extra int) (point, error) {
		return el.tryActionable(ctx, checks|extra, then, out, nil)
	}))
}

// reach is actionable for a pointer action, with the mouse moved onto the
// element: at once, or along a hand's path. Without a hand, the element is
// checked, the mouse moved to it, and the element checked again where it
// was: the move, which the browser hands to the page at its next frame,
// stands for the frame actionable waits to see the element still (one
// frame's wait instead of two), and the second check sees it on top after
// the hover, too.
func (el *element) reach(ctx context.Context, checks int, timeout time.Duration, h *hand.Hand) (point, error) {
	if h != nil || checks&checkHit == 0 {
		p, err := el.actionable(ctx, checks, timeout)
		if err != nil {
			return p, err
		}
		return p, el.tab.moveTo(ctx, p, h)
	}
	return el.actionableLoop(ctx, checks, timeout, firstInView(func(extra int) (point, error) {
		var at probeBox
		p, err := el.tryActionable(ctx, checks|checkMoved|extra, "", nil, &at)
		if err != nil {
			return p, err
		}
		if err := el.tab.moveTo(ctx, p, nil); err != nil {
			return p, err
		}
		if _, err := el.tryActionable(ctx, checks|checkMoved|checkAgain, "", nil, &at); err != nil {
			return p, err
		}
		return p, nil
	}))
}

// actionableLoop tries the checks until they pass, the element is gone,
// it stays covered coverPatience, or the timeout ends.
func (el *element) actionableLoop(ctx context.Context, checks int, timeout time.Duration, try func() (point, error)) (point, error) {
	deadline := time.Now().Add(timeout)
	// coverBy is what covered the element at the last try, and
	// coveredSince when it began to; zero when it was not covered.
	var coverBy string
	var coveredSince time.Time
	left := false // the focused field was left, closing its menu
	for {
		p, err := try()
		if err == nil {
			return p, nil
		}
		if errors.Is(err, calls.ErrStaleRef) || errors.Is(err, calls.ErrBrowserGone) || errors.Is(err, calls.ErrJavaScript) || ctx.Err() != nil {
			return point{}, err
		}
		var mc *menuCover
		if errors.As(err, &mc) && !left {
			// The menu the last typing opened (an autocomplete's) is
			// closed as a person's click elsewhere would close it, by
			// leaving the field; then the element is checked again. A
			// menu that stays is a cover like any other.
			left = true
			if err := el.callOn(ctx, jsLeaveField, nil); err != nil {
				return point{}, err
			}
			continue
		}
		var ce *calls.CoveredError
		switch {
		case !errors.As(err, &ce):
			coverBy, coveredSince = "", time.Time{}
		case coveredSince.IsZero() || ce.By != coverBy:
			coverBy, coveredSince = ce.By, time.Now()
		case time.Since(coveredSince) >= coverPatience:
			return point{}, fmt.Errorf("%w (for %s; close or answer it first)", err, coverPatience)
		}
		if time.Now().After(deadline) {
			// How to wait longer is a hint, which each front says its own
			// way (a program's TimeoutMS), not the CLI's flag in the message.
			return point{}, calls.WithHint(fmt.Errorf("%w (waited %s)", err, timeout.Round(time.Millisecond)), "pass --timeout to wait longer")
		}
		if err := wait.Sleep(ctx, 50*time.Millisecond); err != nil {
			return point{}, err
		}
	}
}

// menuCover is a cover that is a menu the focused field opened as it was
// typed into (actionable.js's openedBy).
type menuCover struct{ *calls.CoveredError }

func (m *menuCover) Unwrap() error { return m.CoveredError }

// jsLeaveField takes the focus off the focused field of the element's
// document, as a click elsewhere does: the field's blur and change
// handlers run, and an autocomplete closes its menu.
const jsLeaveField = `function () { const f = this.ownerDocument.activeElement; if (f && f !== this && f.blur) f.blur(); }`

// errUnstable marks a box that moved over a frame; it is tried again.
var errUnstable = errors.New("element is still moving")

// tryActionable checks the element once. at, when set, gets where it was
// found (checkMoved), or is where an earlier check found it (checkAgain).
func (el *element) tryActionable(ctx context.Context, checks int, then string, out any, at *probeBox) (point, error) {
	if el.hand != nil && el.tid == "" && el.frame == el.tab.mainFrame() && checks&checkAgain == 0 {
		if err := el.wheelIntoView(ctx); err != nil {
			return point{}, err
		}
	}
	// Where it is (checkInView), for an element of the top frame not
	// wheeled into view by a hand: the check says whether it is in view.
	inView := checks&checkInView != 0 && el.hand == nil && el.tid == "" && el.frame == el.tab.mainFrame()
	if checks&checkAgain == 0 && !inView {
		if _, err := cdp.Call(ctx, el.sess, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: el.node}); err != nil {
			if noBox(err) {
				return point{}, el.notVisible()
			}
			return point{}, el.gone(browserErr(err))
		}
	}
	var probe struct {
		State string `json:"state"`
		By    string `json:"by"`
		// Text and Buttons: the covering box's, for a cover.
		Text    string   `json:"text"`
		Buttons []string `json:"buttons"`
		X       float64  `json:"x"`
		W       float64  `json:"w"`
		H       float64  `json:"h"`
		Y       float64  `json:"y"`
		DL      bool     `json:"dl"`
		// Opened: what covers it is a menu the focused field opened as
		// it was typed into.
		Opened bool `json:"opened"`
		// InView: it is wholly in view, in the viewport and in each box
		// that clips it (asked with checkInView).
		InView bool `json:"inView"`
		// Then is what then returned, when the element passed.
		Then json.RawMessage `json:"then"`
	}
	args := map[string]any{"enabled": checks&checkEnabled != 0, "hit": checks&checkHit != 0, "moved": checks&checkMoved != 0, "inView": inView}
	if checks&checkAgain != 0 && at != nil {
		args["was"] = at
	}
	fn := jsActionable
	if then != "" {
		fn = "async function (checks) { const r = await (" + jsActionable + ").call(this, checks); " +
			"if (r.state === 'ok' && (!checks.inView || r.inView)) r.then = (" + then + ").call(this); return r; }"
	}
	if err := el.callOn(ctx, fn, &probe, args); err != nil {
		return point{}, err
	}
	switch probe.State {
	case "ok":
		if inView && !probe.InView {
			return point{}, errNotInView // then did not run: the caller checks again, scrolled
		}
	case "gone":
		return point{}, el.gone(nil)
	case "hidden":
		return point{}, el.notVisible()
	case "moving":
		return point{}, fmt.Errorf("%s: %w", el.what, errUnstable)
	case "disabled":
		return point{}, calls.Errorf(calls.ErrNotInteractable, "wait until the page enables it, or act on another element", "%s is disabled", el.what)
	case "covered":
		ce := &calls.CoveredError{Target: el.what, By: probe.By, Text: probe.Text, Buttons: probe.Buttons}
		if probe.Opened {
			return point{}, &menuCover{ce}
		}
		return point{}, ce
	default:
		return point{}, fmt.Errorf("actionability probe of %s said %q", el.what, probe.State)
	}
	if at != nil && checks&checkAgain == 0 {
		*at = probeBox{X: probe.X, Y: probe.Y, W: probe.W, H: probe.H}
	}
	if then != "" && out != nil && len(probe.Then) > 0 {
		if err := json.Unmarshal(probe.Then, out); err != nil {
			return point{}, err
		}
	}
	// The probe saw its own frame's viewport: add where that frame sits in
	// its target, then where the target sits in the page.
	fx, fy, err := el.frameViewportOrigin(ctx)
	if err != nil {
		return point{}, err
	}
	dx, dy, err := el.tab.frameOffset(ctx, el.tid)
	if err != nil {
		return point{}, el.gone(err)
	}
	return point{X: probe.X + fx + dx, Y: probe.Y + fy + dy, W: probe.W, H: probe.H, download: probe.DL}, nil
}

func (el *element) notVisible() error {
	return calls.Errorf(calls.ErrNotInteractable, "it may be hidden or collapsed; open what holds it first, or run "+calls.Cmd("snapshot"), "%s is not visible", el.what)
}

// biggestQuad picks the largest of an element's boxes (a wrapped link has
// several), or nil when all are empty.
func biggestQuad(qs []dom.Quad) []float64 {
	var best []float64
	bestArea := 0.5
	for _, q := range qs {
		if len(q) != 8 {
			continue
		}
		a := math.Abs((q[0]*q[3] - q[2]*q[1]) + (q[2]*q[5] - q[4]*q[3]) + (q[4]*q[7] - q[6]*q[5]) + (q[6]*q[1] - q[0]*q[7]))
		if a/2 > bestArea {
			best, bestArea = q, a/2
		}
	}
	return best
}

// frameViewportOrigin returns where the element's frame's viewport starts
// in its target's coordinates: zero for the target's top frame, else the
// content box of the frame's <iframe> (boxes of a same-process subframe's
// nodes are given in the target's top coordinates).
func (el *element) frameViewportOrigin(ctx context.Context) (x, y float64, err error) {
	if (el.tid == "" && el.frame == el.tab.mainFrame()) || (el.tid != "" && string(el.frame) == string(el.tid)) {
		return 0, 0, nil
	}
	tree, err := cdp.Call(ctx, el.sess, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return 0, 0, browserErr(err)
	}
	if tree.FrameTree == nil || tree.FrameTree.Frame.ID == el.frame {
		return 0, 0, nil
	}
	owner, err := cdp.Call(ctx, el.sess, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: el.frame})
	if err != nil {
		return 0, 0, el.gone(err)
	}
	box, err := cdp.Call(ctx, el.sess, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: owner.BackendNodeID})
	if err != nil || len(box.Model.Content) < 2 {
		return 0, 0, el.gone(err)
	}
	return box.Model.Content[0], box.Model.Content[1], nil
}

// press moves the mouse to p and clicks count times with the button.
func (t *tab) press(ctx context.Context, p point, button input.MouseButton, count int, h *hand.Hand) error {
	if err := t.moveTo(ctx, p, h); err != nil {
		return err
	}
	return t.clickAt(ctx, p, button, count, h)
}

// clickAt clicks count times with the button where the mouse is, at p.
func (t *tab) clickAt(ctx context.Context, p point, button input.MouseButton, count int, h *hand.Hand) error {
	if count < 1 {
		count = 1
	}
	for i := 1; i <= count; i++ {
		if h != nil {
			if err := wait.Sleep(ctx, h.Rest()); err != nil {
				return err
			}
		}
		if err := t.mouse(ctx, input.DispatchMouseEventTypeMousePressed, p, button, i); err != nil {
			return err
		}
		if h != nil {
			if err := wait.Sleep(ctx, h.Hold()); err != nil {
				return err
			}
		}
		if err := t.mouse(ctx, input.DispatchMouseEventTypeMouseReleased, p, button, i); err != nil {
			return err
		}
	}
	return nil
}

// moveTo moves the mouse to p: at once, or along a hand's path.
func (t *tab) moveTo(ctx context.Context, p point, h *hand.Hand) error {
	if h == nil {
		return t.mouse(ctx, input.DispatchMouseEventTypeMouseMoved, p, input.MouseButtonNone, 0)
	}
	start := time.Now()
	for _, m := range h.MoveTo(hand.Point{X: p.X, Y: p.Y}, hand.Size{W: p.W, H: p.H}) {
		if err := wait.Sleep(ctx, m.At-time.Since(start)); err != nil {
			return err
		}
		if err := t.mouse(ctx, input.DispatchMouseEventTypeMouseMoved, point{X: m.P.X, Y: m.P.Y}, input.MouseButtonNone, 0); err != nil {
			return err
		}
	}
	return nil
}

// shiftClick clicks at p with Shift held, extending the selection.
func (t *tab) shiftClick(ctx context.Context, p point) error {
	if err := keys.Dispatch(ctx, t.sess, []input.DispatchKeyEventParams{keys.Shift(true)}); err != nil {
		return browserErr(err)
	}
	defer func() {
		cctx, cancel := cleanupContext(ctx)
		defer cancel()
		_ = keys.Dispatch(cctx, t.sess, []input.DispatchKeyEventParams{keys.Shift(false)})
	}()
	const shift = 8
	for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		params := input.DispatchMouseEventParams{Type: typ, X: p.X, Y: p.Y, Button: input.MouseButtonLeft, ClickCount: 1, Modifiers: shift}
		if typ == input.DispatchMouseEventTypeMousePressed {
			params.Buttons = 1
		}
		if _, err := call(ctx, t, input.DispatchMouseEvent, params); err != nil {
			return err
		}
	}
	return nil
}

func (t *tab) mouse(ctx context.Context, typ input.DispatchMouseEventType, p point, button input.MouseButton, clicks int) error {
	params := input.DispatchMouseEventParams{Type: typ, X: p.X, Y: p.Y, Button: button}
	if clicks > 0 {
		params.ClickCount = int64(clicks)
	}
	if button == input.MouseButtonLeft && typ == input.DispatchMouseEventTypeMousePressed {
		params.Buttons = 1
	}
	_, err := call(ctx, t, input.DispatchMouseEvent, params)
	return err
}

// wheelIntoView rolls an element of the main frame into view a wheel notch
// at a time, as a hand on a mouse wheel does, when it is above or below the
// view. What the wheel leaves short, scrollIntoViewIfNeeded finishes.
func (el *element) wheelIntoView(ctx context.Context) error {
	var pos struct {
		Top, Bottom, View float64
	}
	if err := el.callOn(ctx, `function(){ const r = this.getBoundingClientRect(); return {Top: r.top, Bottom: r.bottom, View: innerHeight} }`, &pos); err != nil {
		return err
	}
	if pos.Bottom > 0 && pos.Top < pos.View {
		return nil // already in view
	}
	dy := (pos.Top+pos.Bottom)/2 - pos.View/2
	at := el.hand.Place()
	for _, step := range el.hand.Scroll(dy) {
		err := el.tab.sess.Call(ctx, input.CommandDispatchMouseEvent, map[string]any{
			"type": input.DispatchMouseEventTypeMouseWheel, "x": at.X, "y": at.Y, "deltaX": 0, "deltaY": step.DeltaY,
		}, nil)
		if err != nil {
			return browserErr(err)
		}
		if err := wait.Sleep(ctx, step.Pause); err != nil {
			return err
		}
	}
	return nil
}
