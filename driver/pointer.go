package driver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
)

// point is a place in the top page's viewport, in CSS pixels.
type point struct{ X, Y float64 }

// Checks an element passes before a pointer action, modelled on rod's
// Interactable: visible (it has a box), stable (the box did not move
// between two checks), enabled, and not covered (a hit test at the click
// point lands on it or inside it).
const (
	checkVisible = 1 << iota
	checkEnabled
	checkHit
)

// actionable scrolls the element into view and waits until it passes the
// checks, returning the point to press. The error names what failed last.
func (el *element) actionable(ctx context.Context, checks int, timeout time.Duration) (point, error) {
	deadline := time.Now().Add(timeout)
	var last error
	var prev []float64
	for attempt := 0; ; attempt++ {
		p, quad, err := el.tryActionable(ctx, checks, prev)
		if err == nil {
			return p, nil
		}
		if errors.Is(err, ErrStaleRef) || errors.Is(err, ErrBrowserGone) || ctx.Err() != nil {
			return point{}, err
		}
		last, prev = err, quad
		if time.Now().After(deadline) {
			return point{}, fmt.Errorf("%w (waited %s; pass --timeout to wait longer)", last, timeout.Round(time.Millisecond))
		}
		wait := 50 * time.Millisecond
		if attempt == 0 {
			wait = 16 * time.Millisecond // one frame, for the stability check
		}
		if err := sleep(ctx, wait); err != nil {
			return point{}, err
		}
	}
}

// errUnstable marks a box that moved between checks; it is retried at once.
var errUnstable = errors.New("element is still moving")

func (el *element) tryActionable(ctx context.Context, checks int, prev []float64) (point, []float64, error) {
	if _, err := cdp.Call(ctx, el.sess, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: el.node}); err != nil {
		if isNoBox(err) {
			return point{}, nil, el.notVisible()
		}
		return point{}, nil, el.gone(browserErr(err))
	}
	quads, err := cdp.Call(ctx, el.sess, dom.GetContentQuads, dom.GetContentQuadsParams{BackendNodeID: el.node})
	if err != nil {
		if isNoBox(err) {
			return point{}, nil, el.notVisible()
		}
		return point{}, nil, el.gone(browserErr(err))
	}
	q := biggestQuad(quads.Quads)
	if q == nil {
		return point{}, nil, el.notVisible()
	}
	if prev == nil || !sameQuad(prev, q) {
		return point{}, q, fmt.Errorf("%s: %w", el.what, errUnstable)
	}
	local := point{(q[0] + q[2] + q[4] + q[6]) / 4, (q[1] + q[3] + q[5] + q[7]) / 4}
	if checks&checkEnabled != 0 {
		var disabled bool
		if err := el.callOn(ctx, jsIsDisabled, &disabled); err != nil {
			return point{}, q, err
		}
		if disabled {
			return point{}, q, Errorf(ErrNotInteractable, "wait until the page enables it, or act on another element", "%s is disabled", el.what)
		}
	}
	if checks&checkHit != 0 {
		fx, fy, err := el.frameViewportOrigin(ctx)
		if err != nil {
			return point{}, q, err
		}
		if err := el.hitTest(ctx, point{local.X - fx, local.Y - fy}); err != nil {
			return point{}, q, err
		}
	}
	dx, dy, err := el.tab.frameOffset(ctx, el.tid)
	if err != nil {
		return point{}, q, el.gone(err)
	}
	return point{local.X + dx, local.Y + dy}, q, nil
}

func (el *element) notVisible() error {
	return Errorf(ErrNotInteractable, "it may be hidden or collapsed; open what holds it first, or run waymark snapshot", "%s is not visible", el.what)
}

func isNoBox(err error) bool {
	if err == nil {
		return false
	}
	m := err.Error()
	return strings.Contains(m, "Could not compute content quads") || strings.Contains(m, "does not have a layout object")
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

func sameQuad(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 0.5 {
			return false
		}
	}
	return true
}

// frameViewportOrigin returns where the element's frame's viewport starts
// in its target's coordinates. Quads of a same-process subframe's nodes are
// in the target's top coordinates, while a script in the frame sees its own
// viewport; the offset is the content box of the frame's <iframe>.
func (el *element) frameViewportOrigin(ctx context.Context) (x, y float64, err error) {
	if (el.tid == "" && el.frame == el.tab.mainFrame()) || (el.tid != "" && string(el.frame) == string(el.tid)) {
		return 0, 0, nil // the target's own top frame
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

// hitTest checks that the top element at p (in the element's own frame
// viewport) is the element or inside it, and names the covering one if not.
func (el *element) hitTest(ctx context.Context, p point) error {
	var verdict struct {
		Inside bool   `json:"inside"`
		By     string `json:"by"`
	}
	if err := el.callOn(ctx, jsCovers, &verdict, p.X, p.Y); err != nil {
		return err
	}
	if verdict.Inside {
		return nil
	}
	return &CoveredError{Target: el.what, By: verdict.By}
}

// press moves the mouse to p and clicks count times with the button.
func (t *tab) press(ctx context.Context, p point, button input.MouseButton, count int) error {
	if count < 1 {
		count = 1
	}
	if err := t.mouse(ctx, input.DispatchMouseEventTypeMouseMoved, p, input.MouseButtonNone, 0); err != nil {
		return err
	}
	for i := 1; i <= count; i++ {
		if err := t.mouse(ctx, input.DispatchMouseEventTypeMousePressed, p, button, i); err != nil {
			return err
		}
		if err := t.mouse(ctx, input.DispatchMouseEventTypeMouseReleased, p, button, i); err != nil {
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
